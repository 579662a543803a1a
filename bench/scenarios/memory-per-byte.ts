import { type ChildProcess, fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { connect } from '../../agent/connection.js';
import { waitFor } from '../../electron/host/testing.js';
import { console as consolePlugin } from '../../plugins/console/agent/index.js';
import { network } from '../../plugins/network/agent/index.js';
import { type BenchRow, defineScenario } from '../harness.js';

// What a budgeted byte really costs (issue 30, memory 9): the core in its own process is fed records
// of one size through a real app and link until its global budget is full, then its resident memory
// (after full collections) is compared with what the budget counts. Floor: one byte of memory per
// budgeted byte. `porthole serve`'s default budget is sized from these figures (docs/data-dir.md).

const BUDGET = 48 * 1024 * 1024;

interface Measure {
  rss: number;
  heapUsed: number;
  external: number;
  usedBytes: number;
  records: number;
  maxBytes: number;
}

function startCore(): Promise<{
  child: ChildProcess;
  url: string;
  measure(): Promise<Measure>;
  stop(): Promise<void>;
}> {
  const child = fork(fileURLToPath(new URL('../memory-core.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, BENCH_BUDGET_BYTES: String(BUDGET) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 0;
  const pending = new Map<number, (m: { result?: Measure }) => void>();
  const ask = (cmd: string) =>
    new Promise<{ result?: Measure }>((resolve) => {
      const id = ++next;
      pending.set(id, resolve);
      child.send({ id, cmd });
    });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (m: { ready?: string; id?: number; result?: Measure }) => {
      if (m.ready) {
        resolve({
          child,
          url: m.ready,
          measure: async () => (await ask('measure')).result!,
          stop: async () => {
            await ask('stop');
            await new Promise((r) => child.once('exit', r));
          },
        });
      } else if (m.id) pending.get(m.id)?.(m);
    });
  });
}

/** Console records: one log line of about `size` bytes each, `count` of them. */
async function consoleRecords(url: string, size: number, count: number): Promise<void> {
  const plugin = consolePlugin({ callSite: false });
  const agent = connect({ url, app: { id: `bench.memory.${size}`, name: 'Memory bench' }, plugins: [plugin] });
  await waitFor(() => agent.status.state === 'connected', 'the bench app', 20_000);
  const filler = 'x'.repeat(Math.max(0, size - 40));
  const quiet = globalThis.console.log;
  // The agent wraps console.log; what it prints is not the bench's business.
  const out = process.stdout.write.bind(process.stdout);
  process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    for (let i = 0; i < count; i++) {
      quiet(`record ${i} ${filler}`, i);
      if (i % 2000 === 1999) {
        plugin.flush();
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    plugin.flush();
  } finally {
    process.stdout.write = out;
  }
  await new Promise((r) => setTimeout(r, 500));
  agent.disconnect();
  plugin.dispose?.();
}

/** Network records: `count` GETs answered with a body of `size` bytes, captured whole. */
async function networkRecords(url: string, size: number, count: number): Promise<void> {
  const body = Buffer.alloc(size, 'y');
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(body));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const plugin = network({ maxBodyBytes: size + 1024 });
  await plugin.ready;
  const agent = connect({ url, app: { id: `bench.memory.net.${size}`, name: 'Memory bench' }, plugins: [plugin] });
  await waitFor(() => agent.status.state === 'connected', 'the bench app', 20_000);
  for (let i = 0; i < count; i++) await (await fetch(`${base}/r/${i}`)).arrayBuffer();
  await new Promise((r) => setTimeout(r, 1500));
  agent.disconnect();
  plugin.dispose();
  server.close();
}

async function measureOne(label: string, feed: (url: string) => Promise<void>): Promise<BenchRow> {
  const core = await startCore();
  try {
    const base = await core.measure();
    await feed(core.url);
    const full = await core.measure();
    const ratio = (full.rss - base.rss) / full.usedBytes;
    const heap = (full.heapUsed + full.external - base.heapUsed - base.external) / full.usedBytes;
    return {
      scenario: `memory per budgeted byte, ${label}`,
      unit: 'B/B',
      median: ratio,
      p95: ratio,
      floor: { name: 'one byte per budgeted byte', median: 1 },
      ratio,
      note: `heap+external ${heap.toFixed(2)} B/B; ${full.records} records, ${(full.usedBytes / 2 ** 20).toFixed(1)} of ${(full.maxBytes / 2 ** 20).toFixed(0)} MiB counted; RSS ${(base.rss / 2 ** 20).toFixed(0)} → ${(full.rss / 2 ** 20).toFixed(0)} MiB`,
    };
  } finally {
    await core.stop();
  }
}

export default defineScenario('memory: resident bytes per budgeted byte (200 B, 1 KB, 1 MB records)', async () => [
  await measureOne('200 B console records', (url) => consoleRecords(url, 200, 150_000)),
  await measureOne('1 KB console records', (url) => consoleRecords(url, 1024, 60_000)),
  await measureOne('1 MB network records', (url) => networkRecords(url, 1024 * 1024, 70)),
]);
