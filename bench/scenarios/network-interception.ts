import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClientRequestInterceptor } from '@mswjs/interceptors/ClientRequest';
import { FetchInterceptor } from '@mswjs/interceptors/fetch';
import { connect } from '../../agent/connection.js';
import { startTestCore, waitFor } from '../../electron/host/testing.js';
import { network } from '../../plugins/network/agent/index.js';
import type { NetworkHost } from '../../plugins/network/host/host-api.js';
import { defineScenario, type Stats, stats, throughputRow } from '../harness.js';

const BATCHES = 30;
const PER_BATCH = 100;
const CONCURRENCY = 10;
const BODY = JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `item ${i}` })) });

/**
 * Requests per second from this process to a local HTTP server, plain and with the network agent
 * capturing (connected to a real core, so every transaction is sent and stored). Same server, same
 * run; the ratio is plain ÷ captured (higher is worse).
 */
export default defineScenario('network interception overhead', async () => {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(BODY));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/items`;
  const agentHttp = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const viaFetch = async () => {
    await (await fetch(url)).text();
  };
  const viaHttp = () =>
    new Promise<void>((resolve, reject) => {
      http
        .get(url, { agent: agentHttp }, (res) => {
          res.resume();
          res.on('end', resolve);
        })
        .on('error', reject);
    });

  try {
    const plainFetch = await throughput(viaFetch);
    const plainHttp = await throughput(viaHttp);

    // The interception library alone, with listeners that do nothing: what network() builds on.
    const bare = [new FetchInterceptor(), new ClientRequestInterceptor()];
    for (const interceptor of bare) {
      interceptor.on('request', () => {});
      interceptor.on('response', () => {});
      interceptor.apply();
    }
    const bareFetch = await throughput(viaFetch);
    const bareHttp = await throughput(viaHttp);
    for (const interceptor of bare) interceptor.dispose();

    const t = await startTestCore();
    const plugin = network();
    await plugin.ready;
    const agent = connect({ url: t.urls.debuggeeUrl, app: { id: 'bench', name: 'Bench' }, plugins: [plugin] });
    try {
      const sessionId = await waitFor(() => agent.status.sessionId, 'the bench agent');
      const host = t.core.plugins.instance(sessionId, 'network') as unknown as NetworkHost;
      const capturedFetch = await throughput(viaFetch);
      const capturedHttp = await throughput(viaHttp);
      await waitFor(() => host.stats().pending === 0, 'the last transactions', 20_000);
      const stored = host.stats();
      const note = `${BATCHES}×${PER_BATCH} requests, ${CONCURRENCY} at a time; host kept ${stored.count}, dropped ${stored.dropped}`;
      const bareNote = 'the @mswjs/interceptors cost alone (empty listeners)';
      return [
        throughputRow('fetch, @mswjs interceptor only', 'req/s', bareFetch, 'plain fetch', plainFetch, bareNote),
        throughputRow('fetch, network() capturing', 'req/s', capturedFetch, 'plain fetch', plainFetch, note),
        throughputRow('http.get, @mswjs interceptor only', 'req/s', bareHttp, 'plain http.get', plainHttp, bareNote),
        throughputRow('http.get, network() capturing', 'req/s', capturedHttp, 'plain http.get', plainHttp, note),
      ];
    } finally {
      plugin.dispose();
      agent.disconnect();
      await t.stop();
    }
  } finally {
    agentHttp.destroy();
    server.closeAllConnections();
    server.close();
  }
});

/**
 * Requests per second, one figure per batch of PER_BATCH requests made CONCURRENCY at a time.
 * `p95` is the slow end: 95% of the batches were at least this fast.
 */
async function throughput(request: () => Promise<void>): Promise<Stats> {
  const batch = async () => {
    let next = 0;
    const worker = async () => {
      while (next++ < PER_BATCH) await request();
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  };
  for (let i = 0; i < 3; i++) await batch();
  const rates: number[] = [];
  for (let i = 0; i < BATCHES; i++) {
    const started = performance.now();
    await batch();
    rates.push(PER_BATCH / ((performance.now() - started) / 1000));
  }
  const sorted = [...rates].sort((a, b) => a - b);
  return { ...stats(rates), p95: sorted[Math.floor(0.05 * sorted.length)]! };
}
