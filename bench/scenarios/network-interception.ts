import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import axios from 'axios';
import { connect } from '../../agent/connection.js';
import { waitFor } from '../../electron/host/testing.js';
import { network } from '../../plugins/network/agent/index.js';
import { hub } from '../../plugins/network/agent/observed.js';
import { defineScenario, latencyRow, sample, stats } from '../harness.js';

const SEQUENTIAL = 2000;
const DOWNLOADS = 20;
const BODY = JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `item ${i}` })) });
const BIG = Buffer.alloc(2 * 1024 * 1024, 'porthole ');
const MIB = 1024 * 1024;

/**
 * What capture costs the app (issue 11), against the same requests without Porthole in the same
 * run: every floor is measured before network() is first called (the taps are not installed yet).
 * The agent is connected to a real core on another thread (bench/core-worker.ts), so every
 * transaction is sent and stored while the app's thread pays only the agent's share.
 */
export default defineScenario('network capture overhead', async () => {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/big') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(BIG);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(BODY);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const keepAlive = new http.Agent({ keepAlive: true });
  const viaFetch = async () => {
    await (await fetch(`${base}/items`)).text();
  };
  const viaHttp =
    (path = '/items') =>
    () =>
      new Promise<void>((resolve, reject) => {
        http
          .get(`${base}${path}`, { agent: keepAlive }, (res) => {
            res.resume();
            res.on('end', resolve);
          })
          .on('error', reject);
      });
  const viaAxios = async () => {
    await axios.get(`${base}/items`, { httpAgent: keepAlive });
  };
  const bigFetch = async () => {
    await (await fetch(`${base}/big`)).arrayBuffer();
  };
  const cases = {
    fetch: () => sample(viaFetch, SEQUENTIAL),
    http: () => sample(viaHttp(), SEQUENTIAL),
    axios: () => sample(viaAxios, SEQUENTIAL / 2),
    bigHttp: () => sample(viaHttp('/big'), DOWNLOADS, 3),
    bigFetch: () => sample(bigFetch, DOWNLOADS, 3),
  };
  try {
    const plain = {
      fetch: await cases.fetch(),
      http: await cases.http(),
      axios: await cases.axios(),
      bigHttp: await cases.bigHttp(),
      bigFetch: await cases.bigFetch(),
    };

    const core = await coreThread();
    const plugin = network({ maxBodyBytes: 4 * MIB });
    const agent = connect({ url: core.url, app: { id: 'bench', name: 'Bench' }, plugins: [plugin] });
    try {
      await waitFor(() => agent.status.sessionId, 'the bench agent');
      const settle = () => core.call('settle') as Promise<{ count: number; dropped: number }>;
      const small = { fetch: await cases.fetch(), http: await cases.http(), axios: await cases.axios() };
      // Counted before the large bodies: those (46 downloads of 2.8 M base64 characters, then 30 bodies
      // of 1-1.4 M) go past the session's bound on body characters (128 Mi, transaction-store.ts),
      // and the host drops the oldest transactions, these first.
      const smallKept = await settle();
      const captured = { ...small, bigHttp: await cases.bigHttp(), bigFetch: await cases.bigFetch() };
      await settle();
      const appThread = await appThreadPerMiB();

      await core.call('addMockRule');
      await waitFor(() => plugin.mockConfig().rules.length > 0, 'the mock rule in the app');
      const mocked = { fetch: await cases.fetch(), http: await cases.http() };
      await settle();
      const kept = await settle();
      const made = 2 * (SEQUENTIAL + SEQUENTIAL / 10) + SEQUENTIAL / 2 + SEQUENTIAL / 20;
      const note = `sequential; host kept ${smallKept.count} of ${made} (dropped ${smallKept.dropped}); after the large bodies: kept ${kept.count}, dropped ${kept.dropped} (store bound on body characters)`;
      const mockNote = 'a mock rule is active that matches none of these (interception engaged)';
      return [
        latencyRow(`Node fetch ×${SEQUENTIAL}, capture only`, captured.fetch, 'plain fetch', plain.fetch, note),
        latencyRow(`http.get ×${SEQUENTIAL}, capture only`, captured.http, 'plain http.get', plain.http, note),
        latencyRow(`axios ×${SEQUENTIAL / 2}, capture only`, captured.axios, 'plain axios', plain.axios, note),
        latencyRow(
          '2 MiB download (http.get), capture only',
          captured.bigHttp,
          'plain http.get',
          plain.bigHttp,
          'whole body captured',
        ),
        latencyRow(
          '2 MiB download (fetch), capture only',
          captured.bigFetch,
          'plain fetch',
          plain.bigFetch,
          'whole body captured',
        ),
        latencyRow('Node fetch, mock rules active, no match', mocked.fetch, 'plain fetch', plain.fetch, mockNote),
        latencyRow('http.get, mock rules active, no match', mocked.http, 'plain http.get', plain.http, mockNote),
        latencyRow(
          'app-thread ms per captured MiB (binary)',
          appThread.binary,
          'app-thread ms per MiB (text)',
          appThread.text,
          'encode + validate + frame + send, measured on the app thread; the ratio only compares the two',
        ),
      ];
    } finally {
      plugin.dispose();
      agent.disconnect();
      await core.call('stop');
      await core.worker.terminate();
    }
  } finally {
    keepAlive.destroy();
    server.closeAllConnections();
    server.close();
  }
});

/**
 * The time on the app's thread to hand a captured 1 MiB body to the inspector (base64 or text, the
 * notification's validation, the frame's JSON, the socket write), from complete() to the end of the
 * task it defers; the inspector's side runs on its own thread.
 */
async function appThreadPerMiB() {
  const measure = async (type: string, body: Uint8Array) => {
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      const obs = hub().observe({ initiator: 'http', method: 'GET', url: 'http://bench.test/body', headers: [] })!;
      obs.response({ status: 200, statusText: 'OK', headers: [['content-type', type]] });
      const started = performance.now();
      obs.complete({ body: { chunks: [body], kept: body.byteLength, total: body.byteLength, cut: false } });
      await new Promise((resolve) => setImmediate(resolve)); // the deferred encode and send ran before this
      times.push(performance.now() - started);
    }
    return stats(times.slice(3));
  };
  const binary = Uint8Array.from({ length: MIB }, (_, i) => (i * 31) & 0xff);
  const text = new TextEncoder().encode('x'.repeat(MIB));
  return { binary: await measure('application/octet-stream', binary), text: await measure('text/plain', text) };
}

async function coreThread() {
  const file = new URL('../core-worker.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(file)}); })`;
  const worker = new Worker(boot, { eval: true });
  let next = 1;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const url = await new Promise<string>((resolve, reject) => {
    worker.on('message', (m: { ready?: string; id?: number; result?: unknown; error?: string }) => {
      if (m.ready) return resolve(m.ready);
      const w = waiting.get(m.id!);
      waiting.delete(m.id!);
      if (m.error) w?.reject(new Error(m.error));
      else w?.resolve(m.result);
    });
    worker.once('error', reject);
  });
  return {
    url,
    worker,
    call: (cmd: string) =>
      new Promise<unknown>((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, cmd });
      }),
  };
}
