import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { httpServer } from '../../plugins/network/host/testing.js';
import { cleanupAfterEach } from '../host/test-cleanup.js';
import { startInspector, startService } from './vitest.js';

const defer = cleanupAfterEach();
const ROOT = join(import.meta.dirname, '../..');

async function setup() {
  const upstream = await httpServer((req, res) => res.writeHead(req.url === '/pay' ? 500 : 200).end(req.url));
  defer(() => upstream.close());
  const inspector = await startInspector();
  defer(() => inspector.stop());
  // From the sources: the service runs through tsx, with the preload's source file.
  const start = () =>
    startService(inspector, {
      entry: 'e2e/fixtures/service/orders.ts',
      cwd: ROOT,
      preload: false,
      nodeArgs: ['--import', 'tsx', '--import', './plugins/network/agent/register.ts'],
      env: { UPSTREAM: upstream.url },
      readyWhen: /orders listening on (\d+)/,
    }).then((service) => {
      defer(() => service.stop());
      return service;
    });
  return { inspector, upstream, start };
}

describe('porthole/node and porthole/vitest', () => {
  it('starts two instances of one service, each client aimed at its own session, with the same checks', async () => {
    const { inspector, upstream, start } = await setup();
    const [a, b] = await Promise.all([start(), start()]);
    expect(a.sessionId).not.toBe(b.sessionId);
    const sessions = (await inspector.client.listSessions()).sessions.filter((s) => s.app.id === 'com.test.orders');
    expect(sessions).toHaveLength(2);

    const urlOf = (service: typeof a, path: string) => `http://127.0.0.1:${service.ready![1]}${path}`;
    expect(await (await fetch(urlOf(a, '/checkout'))).status).toBe(502);
    expect(await (await fetch(urlOf(b, '/orders'))).text()).toBe('stock 200');

    await expect.poll(async () => (await a.porthole.failedRequests()).length).toBe(1);
    await expect(expect(a.porthole).toHaveNoFailedRequests()).rejects.toThrow(
      `1 request failed:\n  POST ${upstream.url}/pay → 500`,
    );
    await expect.poll(async () => (await a.porthole.consoleErrors()).length).toBe(1);
    await expect(expect(a.porthole).toHaveNoConsoleErrors()).rejects.toThrow(
      /the app logged 1 error:\n {2}payment failed with 500 at .*orders\.ts:\d+/,
    );
    // The other instance made none of them.
    await expect(b.porthole).toHaveNoFailedRequests();
    await expect(b.porthole).toHaveNoConsoleErrors();
    expect((await b.porthole.network.listTransactions()).transactions.map((t) => t.url)).toEqual([
      `${upstream.url}/stock`,
    ]);
    expect(await a.stop()).toBe(0);
  });

  it('says what to do when the service does not connect or exits first', async () => {
    const inspector = await startInspector();
    defer(() => inspector.stop());
    const silent = startService(inspector, {
      entry: '-e',
      args: ['setTimeout(() => {}, 60000); console.log("up")'],
      preload: false,
      readyWhen: /up/,
      timeoutMs: 1500,
    });
    await expect(silent).rejects.toThrow(/did not connect to the inspector within 1500 ms: it must call connect\(\)/);
    const crash = startService(inspector, { entry: '-e', args: ['process.exit(3)'], preload: false });
    await expect(crash).rejects.toThrow(/exited \(code 3\) before its agent connected/);
  });
});
