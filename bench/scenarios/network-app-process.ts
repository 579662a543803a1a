import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { appProcess, type BenchRow, defineScenario, latencyRow, stats } from '../harness.js';
import type { AppRun, Block, Kind } from '../network-app.js';
import { coreProcess, type InspectorPriority } from './network-interception.js';

// Capture's cost as an app feels it, measured as from outside: the app in processes of its own
// (bench/network-app.ts), with Porthole's network capture connected or without Porthole loaded at
// all, alternated; the server in this process and the inspector's core in another, at normal CPU
// priority (competing with the app, as on a busy laptop) and at the lowest. network-interception.ts
// alternates capture on and off inside one process instead; there both sides' requests run the same
// code of Node's, which then carries both sides' type feedback.

const PAIRS = 3;
const BODY = JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `item ${i}` })) });
const APP = fileURLToPath(new URL('../network-app.ts', import.meta.url));
const NAMES: Record<Kind, string> = { fetch: 'Node fetch', http: 'http.get', axios: 'axios' };

const app = (kind: Kind, target: string, portholeUrl: string) =>
  appProcess<AppRun>(
    APP,
    { BENCH_KIND: kind, BENCH_TARGET: target, PORTHOLE_URL: portholeUrl },
    `the bench app (${kind})`,
  );

/** The inspector's CPU ms so far. */
const inspectorCpu = async (core: { call(cmd: string): Promise<unknown> }) => (await core.call('cpu')) as number;
export default defineScenario('network capture, the app in its own process', async () => {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(BODY));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const rows: BenchRow[] = [];
  try {
    for (const priority of ['normal', 'niced'] as InspectorPriority[]) {
      const core = await coreProcess(priority);
      try {
        for (const kind of ['http', 'fetch', 'axios'] as Kind[]) {
          const plain: Block[] = [];
          const captured: Block[] = [];
          /** The inspector's CPU ms while it took in the captured apps' requests, and how many. */
          const inspector = { ms: 0, requests: 0 };
          for (let p = 0; p < PAIRS * 2; p++) {
            const order = [
              [plain, ''],
              [captured, core.url],
            ] as const;
            for (const [into, url] of p % 2 ? [...order].reverse() : order) {
              const before = url ? await inspectorCpu(core) : undefined;
              const run = await app(kind, target, url);
              into.push(...run.blocks);
              if (before === undefined) continue;
              // The app wrote its last batch before it exited; the inspector has taken it in by now.
              await new Promise((resolve) => setTimeout(resolve, 300));
              inspector.ms += (await inspectorCpu(core)) - before;
              inspector.requests += run.requests;
            }
          }
          const per = kind === 'axios' ? 100 : 200;
          const name = `${NAMES[kind]} ×${per} per block, app in its own process [inspector ${priority}]`;
          const floor = `same app without Porthole`;
          rows.push(
            latencyRow(
              `${name}: whole block`,
              stats(captured.map((b) => b.wall)),
              floor,
              stats(plain.map((b) => b.wall)),
              'must be ≤ 1.25× (goal 1.10×)',
            ),
            latencyRow(
              `${name}: app CPU`,
              stats(captured.map((b) => b.cpu)),
              floor,
              stats(plain.map((b) => b.cpu)),
              `the app process's CPU ms per block, the agent's batches included; the inspector's CPU ${((1000 * inspector.ms) / inspector.requests).toFixed(0)} µs per captured request (${inspector.requests} requests)`,
            ),
          );
        }
      } finally {
        await core.stop();
      }
    }
  } finally {
    server.close();
  }
  return rows;
});
