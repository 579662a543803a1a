import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { cleanupAfterEach } from '../electron/host/test-cleanup.js';
import { network } from '../plugins/network/agent/index.js';
import { connect } from './connection.js';

const defer = cleanupAfterEach();
afterEach(() => {
  delete process.env.PORTHOLE;
});

async function inspectorStandIn() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(wss, 'listening');
  let connections = 0;
  wss.on('connection', () => connections++);
  defer(() => new Promise<void>((r) => wss.close(() => r())));
  return { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, connections: () => connections };
}

for (const how of ['connect({ enabled: false })', 'PORTHOLE=off'] as const) {
  it(`${how}: no connection, and the app's fetch is its own again`, async () => {
    const server = createServer((_req, res) => res.end('ok'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    defer(() => new Promise<void>((r) => server.close(() => r())));
    const inspector = await inspectorStandIn();
    const originalFetch = globalThis.fetch;

    if (how === 'PORTHOLE=off') process.env.PORTHOLE = 'off';
    const agent = connect({
      url: inspector.url,
      app: { id: 'com.test.off', name: 'Off' },
      plugins: [network()],
      ...(how === 'PORTHOLE=off' ? {} : { enabled: false }),
      reconnect: { initialDelayMs: 5, maxDelayMs: 10 },
    });
    defer(() => agent.disconnect());

    expect(agent.status).toMatchObject({ state: 'stopped', error: 'disabled' });
    expect(globalThis.fetch).toBe(originalFetch);
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    expect(await res.text()).toBe('ok');
    await new Promise((r) => setTimeout(r, 100));
    expect(inspector.connections()).toBe(0);
  });
}
