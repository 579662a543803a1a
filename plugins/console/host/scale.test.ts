import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../protocol.js';
import { ConsoleStore } from './store.js';

/** What a busy app logs: a line with a request's fields, a warning now and then with an object, an error with a stack. */
function realistic(i: number): AgentMessage {
  const site = { file: 'http://localhost:5173/src/api/orders.ts', line: 40 + (i % 60), column: 11, fn: 'loadOrders' };
  if (i % 50 === 0) {
    return {
      kind: 'error',
      time: 1_700_000_000_000 + i,
      args: [
        'request failed',
        {
          $: 'error',
          name: 'Error',
          message: `GET /api/orders/${i} 503`,
          stack: `Error: GET /api/orders/${i} 503\n    at loadOrders (http://localhost:5173/src/api/orders.ts:52:11)\n    at async refresh (http://localhost:5173/src/App.tsx:88:5)`,
        },
      ],
      callStack:
        'Error\n    at loadOrders (http://localhost:5173/src/api/orders.ts:52:11)\n    at async refresh (http://localhost:5173/src/App.tsx:88:5)',
    };
  }
  return {
    kind: i % 10 === 0 ? 'warn' : 'log',
    time: 1_700_000_000_000 + i,
    args: [
      '[orders] %s %d in %dms',
      'GET',
      200,
      12 + (i % 90),
      {
        $: 'object',
        props: {
          id: `ord_${i.toString(36)}`,
          user: `user-${i % 997}@example.test`,
          items: [{ sku: `SKU-${i % 313}`, qty: 1 + (i % 4) }],
          total: (i % 1000) / 10,
        },
      },
    ],
    site,
  };
}

describe('console store at scale', () => {
  it('keeps 100,000 realistic messages within its default byte limit, the oldest going first beyond', () => {
    const store = new ConsoleStore();
    for (let i = 0; i < 100_000; i++) store.add(realistic(i));
    const stats = store.stats();
    expect(stats.stored).toBe(100_000);
    expect(stats.evicted).toBe(0);
    // What one message holds in memory, as the budget counts it (reported in the README).
    const perMessage = stats.bytes / stats.stored;
    expect(perMessage).toBeGreaterThan(300);
    expect(stats.bytes).toBeLessThan(128 * 1024 * 1024);
    for (let i = 100_000; i < 101_000; i++) store.add(realistic(i));
    expect(store.stats().stored).toBe(100_000);
    expect(store.stats().evicted).toBe(1000);
    console.info(
      `[scale] ${Math.round(perMessage)} bytes per message, ${(stats.bytes / 2 ** 20).toFixed(1)} MiB for 100k`,
    );
  }, 90_000); // 101,000 adds: about 10 s alone, more on a loaded machine (a bounded loop, no timing asserted)
});
