import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { connect } from '../../agent/connection.js';
import { startTestCore, waitFor } from '../../electron/host/testing.js';
import { example } from '../../plugins/example/agent/index.js';
import type { ExampleHost } from '../../plugins/example/host/index.js';
import { defineScenario, latencyRow, sample } from '../harness.js';

const ITERATIONS = 3000;

/** A plugin request/reply over the debuggee link (host → agent → host) against a raw ws echo on loopback. */
export default defineScenario('debuggee link round trip', async () => {
  const floor = await rawEchoRoundTrip();

  const t = await startTestCore();
  const agent = connect({ url: t.urls.debuggeeUrl, app: { id: 'bench', name: 'Bench' }, plugins: [example()] });
  try {
    const sessionId = await waitFor(() => agent.status.sessionId, 'the bench agent');
    const host = t.core.plugins.instance(sessionId, 'example') as ExampleHost;
    const ping = await sample(() => host.ping(), ITERATIONS);
    return [latencyRow('example.ping request/reply (host→agent→host)', ping, 'raw ws echo', floor)];
  } finally {
    agent.disconnect();
    await t.stop();
  }
});

async function rawEchoRoundTrip() {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  server.on('connection', (ws) => ws.on('message', (data) => ws.send(data.toString())));
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  await new Promise((r) => client.once('open', r));
  const frame = JSON.stringify({ type: 'request', id: 'h1', plugin: 'example', method: 'ping', params: { sentAt: 0 } });
  const roundTrip = () =>
    new Promise((resolve) => {
      client.once('message', resolve);
      client.send(frame);
    });
  try {
    return await sample(roundTrip, ITERATIONS);
  } finally {
    client.close();
    server.close();
  }
}
