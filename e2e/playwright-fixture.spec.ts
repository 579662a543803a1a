import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../electron/client/playwright.js';

// The `porthole/playwright` fixture from the sources, in this repo's own run: the agent in every
// page with no app change, the client aimed at the test's page, mock rules set before the page
// loads, the checks' messages. e2e/outside-testing.spec.ts runs it from the packed tarball with
// --workers=2 and checks the report's attachments.

let server: Server;
let origin: string;

const PAGE = `<!doctype html><html><head><title>Shop</title></head><body>
<p id="cart">…</p><button id="pay">Pay</button><button id="oops">Oops</button>
<script>
  // At parse time, before any other script of the page: a mock rule set before goto must answer it.
  fetch('/api/cart').then((r) => (document.querySelector('#cart').textContent = String(r.status)));
  document.querySelector('#pay').onclick = () => fetch('/api/pay', { method: 'POST' }).then((r) => (document.title = 'paid ' + r.status));
  document.querySelector('#oops').onclick = () => { console.error('the total is %s', 'NaN'); };
</script></body></html>`;

test.beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (req.url === '/api/cart') return res.writeHead(200).end('{"items":[]}');
    if (req.url === '/api/pay') return res.writeHead(500).end('card declined');
    res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(() => server?.close());

test('a mock rule set before the page loads answers its first request', async ({ page, porthole }) => {
  await porthole.network.mock(
    { match: { url: { kind: 'contains', value: '/api/cart' } }, action: { type: 'respond', status: 503 } },
    async () => {
      await page.goto(origin);
      await expect(page.locator('#cart')).toHaveText('503');
    },
  );
  expect((await porthole.network.getMockConfig()).rules).toEqual([]);
  // A mocked answer is what the test asked for: not a failure.
  await expect(porthole).toHaveNoFailedRequests();
  await page.reload();
  await expect(page.locator('#cart')).toHaveText('200');
});

test('the client is aimed at the test’s page: one session across reloads and origins', async ({
  page,
  porthole,
  portholeInspector,
}) => {
  const sessionId = await porthole.sessionId();
  await page.goto(origin);
  await expect(page.locator('#cart')).toHaveText('200');
  const info = await portholeInspector.waitForSession({ appId: porthole.appId });
  expect(info).toMatchObject({ id: sessionId, active: true, device: { platform: 'browser' } });
  expect(info.device.page?.url).toBe(`${origin}/`);
  await page.reload();
  await page.goto(origin.replace('127.0.0.1', 'localhost'));
  await expect(page.locator('#cart')).toHaveText('200');
  await expect
    .poll(async () => (await porthole.network.listTransactions({ urlContains: '/api/cart' })).transactions.length)
    .toBe(3);
  expect(await porthole.sessionIds()).toEqual([sessionId]);

  // A second page of the test is a session of its own, of the same app, covered by the checks.
  const second = await page.context().newPage();
  await second.goto(origin);
  await second.locator('#pay').click();
  await expect(second).toHaveTitle('paid 500');
  await expect.poll(async () => (await porthole.sessionIds()).length).toBe(2);
  const failed = await expect(porthole)
    .toHaveNoFailedRequests()
    .then(
      () => 'passed',
      (e: Error) => e.message,
    );
  expect(failed).toContain(`POST ${origin}/api/pay → 500`);
  expect(failed).toContain('toHaveNoFailedRequests');
});

test('the checks name what the page logged and which request failed', async ({ page, porthole }) => {
  await page.goto(origin);
  await expect(porthole).toHaveNoConsoleErrors();
  const since = new Date();
  await page.locator('#oops').click();
  await page.locator('#pay').click();
  await expect(page).toHaveTitle('paid 500');
  const logged = await expect(porthole)
    .toHaveNoConsoleErrors({ since })
    .then(
      () => 'passed',
      (e: Error) => e.message,
    );
  expect(logged).toContain('the app logged 1 error:\n  the total is NaN');
  const failed = await expect(porthole)
    .toHaveNoFailedRequests({ since })
    .then(
      () => 'passed',
      (e: Error) => e.message,
    );
  expect(failed).toContain(`1 request failed:\n  POST ${origin}/api/pay → 500`);
  await expect(porthole).not.toHaveNoFailedRequests();
  await expect(porthole).toHaveNoFailedRequests({ since: new Date(Date.now() + 60_000) });
});
