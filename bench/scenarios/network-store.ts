import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { TransactionStore } from '../../plugins/network/host/transaction-store.js';
import type { TransactionCompleted, TransactionStarted } from '../../plugins/network/protocol.js';
import { type BenchRow, defineScenario } from '../harness.js';

const COUNT = 100_000;
const BODY = JSON.stringify({
  items: Array.from({ length: 8 }, (_, i) => ({ id: i, name: `item ${i}`, price: i * 1.5 })),
});
const HEADERS = [
  ['content-type', 'application/json'],
  ['accept', 'application/json'],
  ['user-agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131'],
  ['x-request-id', ''],
  ['cache-control', 'no-cache'],
].map(([name, value]) => ({ name: name!, value: value! }));

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
/** Each notification as the link delivers it: parsed from its own JSON, so no string is shared. */
const parsed = <T>(value: T): T => JSON.parse(JSON.stringify(value));

function notifications(i: number) {
  const id = `a-${i}`;
  const started: TransactionStarted = {
    id,
    initiator: 'fetch',
    method: i % 5 ? 'GET' : 'POST',
    url: `http://api.test/api/orders/${i}?page=${i % 7}`,
    headers: HEADERS.map((h) => (h.name === 'x-request-id' ? { ...h, value: id } : h)),
    startedAt: 1_700_000_000_000 + i,
    callStack:
      'at loadOrders (http://localhost:5173/src/api.ts:42:11)\nat Orders (http://localhost:5173/src/Orders.tsx:17:5)',
  };
  const response = { id, status: i % 50 ? 200 : 404, statusText: 'OK', headers: HEADERS, waitMs: 12 };
  const completed: TransactionCompleted = {
    id,
    body: { encoding: 'text', data: BODY, size: BODY.length, truncated: false, contentType: 'application/json' },
    durationMs: 20,
  };
  return parsed({ started, response, completed });
}

/**
 * The network store with 100,000 requests of a typical API (five headers each way, a 300-byte JSON
 * body, a two-frame call site) under the default limits: all kept, and the heap they take against
 * the floor of the same notifications kept as parsed, in a plain array.
 */
export default defineScenario('network store: 100,000 requests', async () => {
  let base = heap();
  const plain: unknown[] = [];
  for (let i = 0; i < COUNT; i++) plain.push(notifications(i));
  const floor = heap() - base;
  plain.length = 0;

  base = heap();
  const store = new TransactionStore();
  for (let i = 0; i < COUNT; i++) {
    const { started, response, completed } = notifications(i);
    store.started(started);
    store.response(response);
    store.completed(completed);
  }
  const used = heap() - base;
  const stats = store.stats();
  store.close();
  const mib = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;
  const row: BenchRow = {
    scenario: `heap of ${COUNT.toLocaleString()} requests in the store (${stats.count.toLocaleString()} kept, ${stats.dropped} dropped)`,
    unit: 'MiB',
    median: mib(used),
    p95: mib(used),
    floor: { name: 'the notifications in an array', median: mib(floor) },
    ratio: Math.round((used / floor) * 100) / 100,
    note: `estimated ${mib(stats.bytes)} MiB against the store's bound of 320 MiB`,
  };
  return [row, liveBodyRow()];
});

const CHUNKS = 4000;
const QUARTER = CHUNKS / 4;

/**
 * A live body (an event stream) taken in chunk by chunk, 2 MiB in all: the last quarter of its chunks
 * against the first. Each chunk costs the same however much came before, or the ratio grows with
 * the body (it was 7× when every chunk read the whole body again).
 */
function liveBodyRow(): BenchRow {
  const store = new TransactionStore();
  const part = { text: `data: ${'x'.repeat(500)}\n\n` };
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    const id = `live-${round}`;
    store.started({ id, initiator: 'fetch', method: 'GET', url: 'http://api.test/events', headers: [], startedAt: 1 });
    store.response({ id, status: 200, statusText: 'OK', headers: [], waitMs: 1 });
    const quarters: number[] = [];
    for (let q = 0; q < 4; q++) {
      const start = performance.now();
      for (let i = 0; i < QUARTER; i++) store.appendBody(id, part, 'text/event-stream', 8 << 20);
      quarters.push(performance.now() - start);
    }
    times.push(quarters[3]! / quarters[0]!);
    store.failed({ id, message: 'closed', durationMs: 1 });
  }
  store.close();
  times.sort((a, b) => a - b);
  const median = times[times.length >> 1]!;
  return {
    scenario: `a live body in ${CHUNKS.toLocaleString()} chunks of ${part.text.length} B: the last ${QUARTER.toLocaleString()} chunks`,
    unit: '×',
    median,
    p95: times[times.length - 1]!,
    floor: { name: `its first ${QUARTER.toLocaleString()} chunks`, median: 1 },
    ratio: median,
    note: 'time of the last quarter of the chunks over the first, median of 5 bodies; must be ≤ 2× (each chunk costs the same)',
  };
}
