import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import config from '../playwright.config.js';
import { type RunningInspector, startInspector } from './support/inspector.js';
import { currentUiUrl } from './window.helpers.js';

// evil.test resolves to this machine, so the page has a real foreign origin (http://evil.test:<port>)
// that Chromium's local-network protection does not stop before the request: the attack as it lands.
const launch = config.use?.launchOptions ?? {};
test.use({
  launchOptions: { ...launch, args: [...(launch.args ?? []), '--host-resolver-rules=MAP evil.test 127.0.0.1'] },
});

let inspector: RunningInspector;
test.beforeEach(async () => {
  inspector = await startInspector();
});
test.afterEach(async () => {
  await inspector.stop();
});

const port = (url: string) => new URL(url).port;

test('a page on a foreign origin cannot kill the inspector with odd WebSocket URLs or fetches', async ({ page }) => {
  const control = port(inspector.info.controlUrl);
  const link = port(inspector.info.debuggeeUrl);
  const site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>evil</title><p>hello</p>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  test.info().attach('foreign origin', { body: `http://evil.test:${(site.address() as AddressInfo).port}` });
  try {
    await page.goto(`http://evil.test:${(site.address() as AddressInfo).port}/`);
  } finally {
    site.close();
  }

  const urls = [
    `ws://127.0.0.1:${control}//`,
    `ws://127.0.0.1:${control}//bridge`,
    `ws://127.0.0.1:${control}/bridge`,
    `ws://127.0.0.1:${control}/bridge?token=%E0%A4%A`,
    `ws://127.0.0.1:${control}/mcp`,
    `ws://127.0.0.1:${control}/%zz`,
    `ws://localhost:${control}/..%2f..%2f`,
    `ws://127.0.0.1:${link}//`,
    `ws://127.0.0.1:${link}/`,
  ];
  const outcomes = await page.evaluate(
    (all) =>
      Promise.all(
        all.map(
          (url) =>
            new Promise<{ url: string; opened: boolean; code?: number }>((resolve) => {
              const ws = new WebSocket(url);
              ws.onopen = () => {
                ws.close();
                resolve({ url, opened: true });
              };
              ws.onclose = (event) => resolve({ url, opened: false, code: event.code });
            }),
        ),
      ),
    urls,
  );
  // Every attempt is refused at the upgrade (the page sees 1006), none gets a socket.
  expect(outcomes).toEqual(urls.map((url) => ({ url, opened: false, code: 1006 })));

  // Cross-origin fetches with odd paths and methods: answered, not read by the page, not fatal.
  const fetched = await page.evaluate(async (base) => {
    const paths = ['//', '/%zz%%', '/mcp', '//mcp', '/bridge?token=x', `/${'a'.repeat(6000)}`];
    const results: string[] = [];
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        try {
          await fetch(`${base}${path}`, {
            method,
            mode: 'no-cors',
            body: method === 'POST' ? '{"jsonrpc":"2.0"}' : undefined,
          });
          results.push('answered');
        } catch {
          results.push('refused');
        }
      }
    }
    return results;
  }, inspector.info.controlUrl);
  expect(fetched).toHaveLength(18);

  expect(inspector.process.exitCode).toBeNull();
  const health = await fetch(`${inspector.info.controlUrl}/healthz`);
  expect(health.status).toBe(200);
  expect(inspector.output()).not.toMatch(/TypeError|RangeError|Invalid URL|control request failed/);
});

test('an over-size frame on the window bridge closes it with 1009, in Chromium', async ({ page }) => {
  // The bridge only takes pages of the control server's own origin, in a browser that opened a window link.
  await page.goto(currentUiUrl(inspector));
  await page.goto(`${inspector.info.controlUrl}/healthz`);
  const code = await page.evaluate(
    async (url) => {
      const ws = new WebSocket(url);
      await new Promise((resolve, reject) => {
        ws.onopen = resolve;
        ws.onerror = reject;
      });
      const closed = new Promise<number>((resolve) => {
        ws.onclose = (event) => resolve(event.code);
      });
      ws.send('x'.repeat(16 * 1024 * 1024 + 1));
      return await closed;
    },
    `${inspector.info.controlUrl.replace('http', 'ws')}/bridge`,
  );
  expect(code).toBe(1009);
  expect(inspector.process.exitCode).toBeNull();
});
