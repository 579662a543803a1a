// The inspector under load, as a child of bench/load.ts: a real core (as `porthole serve` starts it)
// that reports its event-loop delay and memory to the parent once a second.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
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
});
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
process.send?.({ type: 'ready', urls, dataDir });
setInterval(() => {
  if (!process.connected) return;
  process.send?.({
    type: 'sample',
    eldP99Ms: delay.percentile(99) / 1e6,
    eldMaxMs: delay.max / 1e6,
    rssMiB: process.memoryUsage().rss / 1024 / 1024,
    heapMiB: process.memoryUsage().heapUsed / 1024 / 1024,
    budgetUsedMiB: core.budget.usedBytes / 1024 / 1024,
    dropped: core.budget.dropped.count,
    sessions: core.sessions.active,
  });
  delay.reset();
}, 1000).unref();
process.on('disconnect', () => process.exit(0));
