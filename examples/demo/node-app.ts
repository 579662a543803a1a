// The demo's Node debuggee: a tiny HTTP backend and a worker that calls it, connected to Porthole.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from '../../agent/index.js';
import { actions } from '../../plugins/actions/agent/index.js';
import { console as consolePlugin } from '../../plugins/console/agent/index.js';
import { example } from '../../plugins/example/agent/index.js';
import { network } from '../../plugins/network/agent/index.js';

export async function startNodeApp(
  inspectorUrl: string,
  {
    intervalMs = 3000,
    onStatus = (state: string, error?: string) => console.log(`[node app] ${state}${error ? ` (${error})` : ''}`),
  } = {},
) {
  const backend = createServer((req, res) => {
    if (req.url?.startsWith('/orders')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          orders: [
            { id: 1, total: 42.5 },
            { id: 2, total: 7 },
          ],
          at: new Date().toISOString(),
        }),
      );
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
    }
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;

  const events = example();
  const traffic = network();
  await traffic.ready;
  const agent = connect({
    url: inspectorUrl,
    app: { id: 'dev.porthole.demo.node', name: 'Demo Node service', version: '1.0.0' },
    plugins: [
      events,
      traffic,
      consolePlugin(),
      actions({
        callOrders: {
          description: 'Calls the backend once now (GET /orders).',
          run: async () => (await fetch(`${base}/orders`)).status,
        },
      }),
    ],
    onStatus: (s) => onStatus(s.state, s.error),
  });

  let tick = 0;
  const timer = setInterval(async () => {
    tick++;
    const path = tick % 5 === 0 ? '/missing' : '/orders';
    try {
      const response = await fetch(`${base}${path}`);
      events.log(response.ok ? 'info' : 'warn', `GET ${path} → ${response.status}`, { tick });
      if (!response.ok) console.warn(`[orders worker] GET ${path} answered ${response.status}`);
    } catch (e) {
      events.log('error', `GET ${path} failed`, { message: (e as Error).message });
      console.error(`[orders worker] GET ${path} failed:`, e);
    }
  }, intervalMs);

  return {
    stop() {
      clearInterval(timer);
      agent.disconnect();
      traffic.dispose();
      backend.close();
    },
  };
}
