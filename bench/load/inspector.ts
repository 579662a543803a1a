// The inspector under load, as a child of bench/load.ts: a real core (as `porthole serve` starts it)
// that reports its event-loop delay and memory to the parent once a second.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { launch } from '../../electron/host/launch.js';

const budgetMiB = Number(process.env.LOAD_BUDGET_MIB ?? 128);
const dataDir = mkdtempSync(join(tmpdir(), 'porthole-load-'));
const { urls, core } = await launch({
  dataDir,
  debuggeePort: 0,
  controlPort: 0,
  mcp: { auth: 'none' },
  memoryBudgetBytes: budgetMiB * 1024 * 1024,
  maxActiveSessions: 1000,
  persistSessions: process.env.LOAD_PERSIST !== '0',
  ...(process.env.LOAD_HISTORY_RECORDS ? { history: { maxRecords: Number(process.env.LOAD_HISTORY_RECORDS) } } : {}),
});
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
/** Over the whole run once the parent says the load began (reset then): the number the target is about. */
const whole = monitorEventLoopDelay({ resolution: 10 });
whole.enable();
/** Garbage-collection pauses since the last sample: major (mark-compact) and minor (scavenge). */
const gc = { majorMs: 0, majorMaxMs: 0, majors: 0, minorMs: 0, minorMaxMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
      gc.majors++;
      gc.majorMs += entry.duration;
      gc.majorMaxMs = Math.max(gc.majorMaxMs, entry.duration);
    } else {
      gc.minorMs += entry.duration;
      gc.minorMaxMs = Math.max(gc.minorMaxMs, entry.duration);
    }
  }
}).observe({ entryTypes: ['gc'] });
process.on('message', (m: { type: string }) => {
  if (m.type === 'measure') whole.reset();
});
process.send?.({ type: 'ready', urls, dataDir });
let cpu = process.cpuUsage();
setInterval(() => {
  if (!process.connected) return;
  process.send?.({
    type: 'sample',
    eldP99Ms: delay.percentile(99) / 1e6,
    eldMaxMs: delay.max / 1e6,
    wholeP99Ms: whole.percentile(99) / 1e6,
    wholeP999Ms: whole.percentile(99.9) / 1e6,
    wholeMaxMs: whole.max / 1e6,
    rssMiB: process.memoryUsage().rss / 1024 / 1024,
    heapMiB: process.memoryUsage().heapUsed / 1024 / 1024,
    budgetUsedMiB: core.budget.usedBytes / 1024 / 1024,
    dropped: core.budget.dropped.count,
    sessions: core.sessions.active,
    gc: { ...gc },
    cpuMs: (() => {
      const used = process.cpuUsage(cpu);
      cpu = process.cpuUsage();
      return (used.user + used.system) / 1000;
    })(),
  });
  Object.assign(gc, { majorMs: 0, majorMaxMs: 0, majors: 0, minorMs: 0, minorMaxMs: 0 });
  delay.reset();
}, 1000).unref();
process.on('disconnect', () => process.exit(0));
