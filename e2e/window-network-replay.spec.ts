import type { IncomingHttpHeaders } from 'node:http';
import { expect, test } from '@playwright/test';
import { inspectorAndPage, openWindow, screenshot, screenshotAllSizes } from './window.helpers.js';

// Replay and edit-and-resend from the window: a real page makes a request, the person replays it
// as it was and edited; the page's server logs what it received; the new rows link to the original.

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];

const env = inspectorAndPage({
  '/api/orders': (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      res.writeHead(req.method === 'PUT' ? 200 : 201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, n: received.length }));
    });
  },
});

test('a request replayed from the window, as it was and edited, reaches the server from the page and links to the original', async ({
  page,
  context,
}) => {
  received.length = 0;
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWindow(page, env.inspector);
  const debuggee = await context.newPage();
  await debuggee.goto(
    env.served.pageUrl({ inspector: env.inspector.info.debuggeeUrl, plugins: ['network'], appName: 'Acme Shop' }),
  );
  await expect(debuggee.locator('#status')).toHaveText('connected');
  await context.addCookies([{ name: 'shop-session', value: 'page-cookie', url: env.served.url }]);
  await debuggee.evaluate(async () => {
    await fetch('/api/orders?src=page', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client': 'page', authorization: 'Bearer page-secret' },
      body: '{"sku":"A-1","qty":1}',
    }).then((r) => r.text());
  });
  expect(received).toHaveLength(1);

  await page.bringToFront();
  await page.getByTestId('plugin').filter({ hasText: 'Network' }).click();
  const panel = page.getByTestId('network-panel');
  const rows = panel.getByTestId('network-row');
  const detail = page.getByTestId('network-detail');
  await expect(rows).toHaveCount(1);
  await rows.first().click();

  // Replay as it was: the page's fetch sends it, with the page's cookie and origin.
  await detail.getByRole('button', { name: 'Replay', exact: true }).click();
  await expect(rows).toHaveCount(2);
  await expect.poll(() => received.length).toBe(2);
  expect(received[1]).toMatchObject({ method: 'POST', url: '/api/orders?src=page', body: '{"sku":"A-1","qty":1}' });
  expect(received[1]!.headers).toMatchObject({ 'x-client': 'page', cookie: 'shop-session=page-cookie' });
  expect(received[1]!.headers.origin ?? received[1]!.headers.referer).toContain(new URL(env.served.url).host);
  expect(received[1]!.headers).not.toHaveProperty('authorization');
  await expect(panel.getByRole('status').filter({ hasText: 'Replayed POST' })).toContainText(
    'Not sent: authorization (redacted in the app',
  );
  // The new row is selected, marked as a replay, and its detail links to the original.
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(rows.nth(1).locator('.badge', { hasText: 'replay' })).toBeVisible();
  await expect(rows.first().locator('.badge', { hasText: 'replay' })).toHaveCount(0);
  await expect(detail.getByTestId('replay-of')).toContainText('Replay of POST /api/orders?src=page');

  // Edit and resend: another method, URL, a header changed and one added, the redacted one given, a new body.
  await rows.first().click();
  await expect(detail.getByTestId('replay-of')).toHaveCount(0);
  await detail.getByRole('button', { name: 'Edit and resend' }).click();
  const form = detail.getByRole('form', { name: 'Edit and resend' });
  await expect(form.getByLabel('Method')).toHaveValue('POST');
  await expect(form.getByLabel('Body')).toHaveValue('{"sku":"A-1","qty":1}');
  await form.getByLabel('Method').fill('PUT');
  await form.getByLabel('URL').fill(`${env.served.url}api/orders?src=edited`);
  const headers = form.getByLabel(/^Headers/);
  const typed = (await headers.inputValue())
    .replace('x-client: page', 'x-client: edited')
    .replace('authorization: [redacted]', 'authorization: Bearer typed-in');
  await headers.fill(`${typed}\nx-added: yes`);
  await form.getByLabel('Body').fill('{"sku":"A-1","qty":2}');
  await screenshotAllSizes(page, 'network-replay-form');
  await form.getByRole('button', { name: 'Send' }).click();

  await expect(rows).toHaveCount(3);
  await expect.poll(() => received.length).toBe(3);
  expect(received[2]).toMatchObject({ method: 'PUT', url: '/api/orders?src=edited', body: '{"sku":"A-1","qty":2}' });
  expect(received[2]!.headers).toMatchObject({
    'x-client': 'edited',
    'x-added': 'yes',
    authorization: 'Bearer typed-in',
    cookie: 'shop-session=page-cookie',
  });
  await expect(rows.nth(2)).toHaveAttribute('aria-selected', 'true');
  await expect(rows.nth(2)).toContainText('PUT');
  await expect(rows.nth(2)).toContainText('200');
  await expect(detail.getByTestId('replay-of')).toContainText('Replay of POST /api/orders?src=page');
  await expect(panel.getByRole('status').filter({ hasText: 'Replayed PUT' })).toBeVisible();
  await screenshotAllSizes(page, 'network-replay-linked');

  // The link selects the original.
  await detail.getByTestId('replay-of').getByRole('button').click();
  await expect(rows.first()).toHaveAttribute('aria-selected', 'true');
  await expect(detail.getByRole('heading', { level: 2 })).toContainText('POST');

  // A form error is said at its field; nothing is sent.
  await detail.getByRole('button', { name: 'Edit and resend' }).click();
  await form.getByLabel('Method').fill('GET');
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(form.getByText('a GET request cannot carry a body')).toBeVisible();
  await expect(form.getByLabel('Body')).toHaveAttribute('aria-invalid', 'true');
  await form.press('Escape');
  await expect(form).toHaveCount(0);
  await expect(detail).toBeVisible();
  expect(received).toHaveLength(3);

  // Once the app is gone, replay says why it cannot.
  await debuggee.close();
  const replay = detail.getByRole('button', { name: 'Replay', exact: true });
  await expect(replay).toBeDisabled();
  await expect(replay).toHaveAttribute('title', 'The app is not connected; reconnect it to replay');
  await screenshot(page, 'network-replay-disconnected');
});
