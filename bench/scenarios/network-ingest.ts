import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { connect } from '../../agent/connection.js';
import { defineAgentPlugin } from '../../agent/plugin.js';
import { startTestCore, waitFor } from '../../electron/host/testing.js';
import type { NetworkHost } from '../../plugins/network/host/host-api.js';
import { networkProtocol } from '../../plugins/network/protocol.js';
import { type BenchRow, defineScenario, stats, throughputRow } from '../harness.js';

const TRANSACTIONS = 10_000;
const ROUNDS = 5;
const response = (page: number) =>
  JSON.stringify({ page, items: Array.from({ length: 25 }, (_, i) => ({ id: i, name: `item number ${i}` })) });

/** The four notifications of one transaction, as an agent sends them. */
function frames(i: number): [string, unknown][] {
  const id = `bench-${i}`;
  const body = response(i);
  const headers = [
    { name: 'content-type', value: 'application/json' },
    { name: 'x-request-id', value: id },
  ];
  return [
    [
      'started',
      { id, initiator: 'fetch', method: 'GET', url: `http://api.test/items?page=${i}`, headers, startedAt: Date.now() },
    ],
    ['response', { id, status: 200, statusText: 'OK', headers, waitMs: 3.2 }],
    [
      'completed',
      {
        id,
        body: { encoding: 'text', data: body, size: body.length, totalSize: body.length, truncated: false },
        durationMs: 4.1,
      },
    ],
  ];
}

/**
 * Host ingest: a session's network host taking transactions through the core's plugin routing
 * (validation with the protocol's schemas, the store, window events), 10k at a time. Its floor is
 * JSON.parse of the same frames, the least any receiver does. Memory is the heap the 10k
 * transactions hold, beside the size of their JSON.
 */
export default defineScenario('network host ingest', async () => {
  const t = await startTestCore();
  const bare = defineAgentPlugin(networkProtocol, (ctx) => {
    ctx.handle('setMockConfig', (config) => ({ revision: config.revision }));
  });
  const agent = connect({ url: t.urls.debuggeeUrl, app: { id: 'bench.ingest', name: 'Bench' }, plugins: [bare] });
  try {
    const sessionId = await waitFor(() => agent.status.sessionId, 'the bench agent');
    const host = t.core.plugins.instance(sessionId, 'network') as unknown as NetworkHost;
    const all = Array.from({ length: TRANSACTIONS }, (_, i) => frames(i)).flat();
    const wire: string[] = all.map(([method, params]) =>
      JSON.stringify({ type: 'notification', plugin: 'network', method, params }),
    );
    const jsonBytes = wire.reduce((n, f) => n + Buffer.byteLength(f), 0);

    const floorRates: number[] = [];
    const ingestRates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let started = performance.now();
      for (const frame of wire) JSON.parse(frame);
      floorRates.push(TRANSACTIONS / ((performance.now() - started) / 1000));

      host.clear();
      started = performance.now();
      for (const frame of wire) {
        const { method, params } = JSON.parse(frame) as { method: string; params: unknown };
        t.core.plugins.handleNotification(sessionId, 'network', method, params);
      }
      ingestRates.push(TRANSACTIONS / ((performance.now() - started) / 1000));
      if (host.stats().count !== Math.min(TRANSACTIONS, host.stats().limits.maxTransactions)) {
        throw new Error(`the host kept ${host.stats().count} transactions`);
      }
    }

    // Memory: frames made one at a time, as off a socket, so nothing but the store holds them.
    wire.length = 0;
    all.length = 0;
    const gc = exposeGc();
    host.clear();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < TRANSACTIONS; i++) {
      for (const [method, params] of frames(i)) {
        const frame = JSON.stringify({ type: 'notification', plugin: 'network', method, params });
        const parsed = JSON.parse(frame) as { params: unknown };
        t.core.plugins.handleNotification(sessionId, 'network', method, parsed.params);
      }
    }
    gc();
    const heldMb = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
    const kept = host.stats().count;
    host.clear();

    const ingest = lowEnd(ingestRates);
    const floor = lowEnd(floorRates);
    return [
      throughputRow(
        'network host ingest (validate, store, events)',
        'tx/s',
        ingest,
        'JSON.parse of the frames',
        floor,
        `${ROUNDS} rounds of ${TRANSACTIONS} transactions (3 notifications each, ~1 KB response body)`,
      ),
      {
        scenario: `network host memory per ${TRANSACTIONS / 1000}k transactions`,
        unit: 'MB',
        median: heldMb,
        p95: heldMb,
        floor: { name: 'their JSON on the wire', median: jsonBytes / 1024 / 1024 },
        ratio: heldMb / (jsonBytes / 1024 / 1024),
        note: `${kept} kept; heap growth after GC`,
      },
    ] satisfies BenchRow[];
  } finally {
    agent.disconnect();
    await t.stop();
  }
});

/** Rates: median, and the slow end (5th percentile) as p95. */
function lowEnd(rates: number[]) {
  const sorted = [...rates].sort((a, b) => a - b);
  return { ...stats(rates), p95: sorted[Math.floor(0.05 * sorted.length)]! };
}

function exposeGc(): () => void {
  setFlagsFromString('--expose_gc');
  return runInNewContext('gc') as () => void;
}
