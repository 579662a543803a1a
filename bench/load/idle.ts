// The floor of bench/load.ts: a process that does nothing but measure its own event-loop delay,
// beside the inspector on the same machine. Its delay is what the machine's load (other processes,
// the bench's own apps and clients) costs any process; the inspector's own stalls are what is above it.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const whole = monitorEventLoopDelay({ resolution: 10 });
whole.enable();
process.on('message', (m: { type: string }) => {
  if (m.type === 'measure') whole.reset();
  if (m.type === 'report')
    process.send?.({
      type: 'floor',
      p99Ms: whole.percentile(99) / 1e6,
      p999Ms: whole.percentile(99.9) / 1e6,
      maxMs: whole.max / 1e6,
    });
});
process.send?.({ type: 'ready' });
process.on('disconnect', () => process.exit(0));
