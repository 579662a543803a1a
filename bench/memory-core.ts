import { startTestCore } from '../electron/host/testing.js';

// A core in its own process for `npm run bench -- memory` (bench/scenarios/memory-per-byte.ts):
// its resident memory is the inspector's alone. Started with --expose-gc; answers `measure` over IPC
// with its memory after two full collections and what the global budget counts.

const budgetBytes = Number(process.env.BENCH_BUDGET_BYTES);
const t = await startTestCore({ memoryBudgetBytes: budgetBytes });
const gc = (globalThis as { gc?: () => void }).gc;

process.on('message', async (m: { id: number; cmd: 'measure' | 'stop' }) => {
  if (m.cmd === 'stop') {
    await t.stop();
    process.send!({ id: m.id });
    process.disconnect();
    return;
  }
  // Let the last messages arrive and every write finish, then collect twice (the second frees what
  // finalizers released).
  await new Promise((r) => setTimeout(r, 1500));
  await t.core.persistence?.flush();
  gc?.();
  await new Promise((r) => setImmediate(r));
  gc?.();
  const mem = process.memoryUsage();
  const stats = t.core.budget.stats();
  process.send!({
    id: m.id,
    result: {
      rss: mem.rss,
      heapUsed: mem.heapUsed,
      external: mem.external,
      usedBytes: stats.usedBytes,
      records: stats.records,
      maxBytes: stats.maxBytes,
    },
  });
});
process.on('disconnect', () => void t.stop().finally(() => process.exit()));
process.send!({ ready: t.urls.debuggeeUrl });
