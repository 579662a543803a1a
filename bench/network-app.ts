import http from 'node:http';

// The app of bench/scenarios/network-app-process.ts, forked once per measured side: sequential small
// requests (BENCH_KIND: Node fetch, http.get or axios) to the scenario's server (BENCH_TARGET), in
// blocks, with Porthole's network capture connected (PORTHOLE_URL set) or without Porthole loaded at
// all. Each block's whole time and the process's CPU time go back to the scenario.

export type Kind = 'fetch' | 'http' | 'axios';
export type Block = { wall: number; cpu: number };
/** What the app sends back: its measured blocks, and every request it made (warm-up included). */
export type AppRun = { blocks: Block[]; requests: number };

const kind = process.env.BENCH_KIND as Kind;
const target = process.env.BENCH_TARGET!;
const url = process.env.PORTHOLE_URL;
const PER_BLOCK = kind === 'axios' ? 100 : 200;
// Blocks left out first; BENCH_WARM=25 measures the steady state (both sides compile for ~25 blocks).
const WARM = Number(process.env.BENCH_WARM ?? 3);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 8);

if (url) {
  const { connect } = await import('../agent/connection.js');
  const { network } = await import('../plugins/network/agent/index.js');
  const agent = connect({ url, app: { id: 'bench.app-process', name: 'Bench' }, plugins: [network()] });
  const since = Date.now();
  while (!agent.status.sessionId) {
    if (Date.now() - since > 30_000) throw new Error('the bench app did not connect to the inspector');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const keepAlive = new http.Agent({ keepAlive: true });
const axios = kind === 'axios' ? (await import('axios')).default : undefined;
const call: Record<Kind, () => Promise<unknown>> = {
  fetch: async () => (await fetch(`${target}/items`)).text(),
  http: () =>
    new Promise<void>((resolve, reject) => {
      http
        .get(`${target}/items`, { agent: keepAlive }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(void Buffer.concat(chunks)));
        })
        .on('error', reject);
    }),
  axios: () => axios!.get(`${target}/items`, { httpAgent: keepAlive }),
};

if (process.send) {
  const blocks: Block[] = [];
  for (let b = 0; b < WARM + BLOCKS; b++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (let i = 0; i < PER_BLOCK; i++) await call[kind]();
    const used = process.cpuUsage(cpu);
    if (b >= WARM) blocks.push({ wall: performance.now() - start, cpu: (used.user + used.system) / 1000 });
    // The agent's batches leave between blocks, as they do every 50 ms in an app (their cost is in
    // the next block's CPU, which is where an app pays it).
    await new Promise((resolve) => setTimeout(resolve, 60));
  }
  const run: AppRun = { blocks, requests: (WARM + BLOCKS) * PER_BLOCK };
  process.send(run, () => process.exit(0));
}
