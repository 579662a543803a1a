import { expect, type Page, test } from '@playwright/test';
import { grpcHar } from './support/grpc-har.js';
import { inspectorAndPage, openWindow, screenshot } from './window.helpers.js';

// A real 2×2 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);

const env = inspectorAndPage({
  '/api/cart': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items: [{ sku: 'A-1', qty: 2 }] }));
  },
  '/api/logo.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG),
  '/api/blob': (_req, res) =>
    void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 250, 251])),
  '/api/missing': (_req, res) => void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such thing'),
});

/** Runs fetch in the debuggee page; answers the status and the body text. */
function appFetch(debuggee: Page, path: string) {
  return debuggee.evaluate(async (p) => {
    const res = await fetch(p);
    return { status: res.status, text: await res.text() };
  }, path);
}

test('requests appear live, filter, show their bodies, and a mock made in the panel answers the next request', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openWindow(page, env.inspector);
  const debuggee = await context.newPage();
  await debuggee.goto(
    env.served.pageUrl({
      inspector: env.inspector.info.debuggeeUrl,
      plugins: ['example', 'network'],
      appName: 'Acme Shop',
    }),
  );
  await expect(debuggee.locator('#status')).toHaveText('connected');
  await page.bringToFront(); // a background tab gets few animation frames
  await page.getByTestId('plugin').filter({ hasText: 'Network' }).click();
  const panel = page.getByTestId('network-panel');
  await expect(panel).toContainText('No requests yet');

  expect(await appFetch(debuggee, '/api/cart')).toMatchObject({ status: 200 });
  await appFetch(debuggee, '/api/logo.png');
  await appFetch(debuggee, '/api/blob');
  await appFetch(debuggee, '/api/missing');
  const rows = panel.getByTestId('network-row');
  await expect(rows).toHaveCount(4);
  await expect(rows.filter({ hasText: '/api/missing' })).toContainText('404');

  // The filter box: text, a status class, then cleared.
  const filter = panel.getByRole('combobox', { name: 'Filter requests' });
  await filter.fill('logo');
  await expect(rows).toHaveCount(1);
  await expect(panel.getByTestId('network-count')).toHaveText('1 of 4 requests');
  await filter.fill('status:4xx');
  await expect(rows).toHaveCount(1);
  await panel.getByRole('button', { name: 'Clear filter' }).click();
  await expect(rows).toHaveCount(4);

  // The detail: the JSON body as a tree, the image as an image, binary as hex.
  await rows.filter({ hasText: '/api/cart' }).click();
  const detail = page.getByTestId('network-detail');
  await expect(detail.getByRole('region', { name: 'Response headers' })).toContainText('application/json');
  await detail.getByRole('tab', { name: 'Response' }).click();
  await expect(detail.getByRole('region', { name: 'Response body JSON' })).toContainText('sku: "A-1"');
  await screenshot(page, 'network-detail-json');
  await detail.getByRole('button', { name: 'Copy as cURL' }).click();
  await expect(detail.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^curl '.*\/api\/cart'/);

  await rows.filter({ hasText: '/api/logo.png' }).click();
  await detail.getByRole('tab', { name: 'Response' }).click();
  await expect(detail.getByRole('img', { name: 'Response body image' })).toBeVisible();
  await rows.filter({ hasText: '/api/blob' }).click();
  await detail.getByRole('tab', { name: 'Response' }).click();
  await expect(detail.getByLabel('Response body hex')).toContainText('00 01 02 fa fb');

  // Keyboard: the rows move with the arrow keys.
  await page.getByRole('grid', { name: 'Requests' }).press('ArrowUp');
  await expect(rows.filter({ hasText: '/api/logo.png' })).toHaveAttribute('aria-selected', 'true');

  // "Mock this" on the cart request, with another body; the app's next fetch gets it.
  await rows.filter({ hasText: '/api/cart' }).click();
  await detail.getByRole('button', { name: 'Mock this' }).click();
  const editor = page.getByRole('form', { name: 'New mock rule' });
  await expect(editor.getByLabel('URL pattern')).toHaveValue(`${env.served.url}api/cart`);
  await expect(editor.getByLabel('Body content')).toHaveValue(/"sku": "A-1"/);
  await editor.getByLabel('Body content').fill('{ "items": [], "mocked": true }');
  await editor.getByLabel('Status', { exact: true }).fill('99');
  await editor.getByRole('button', { name: 'Create rule' }).click();
  await expect(editor).toContainText('Too small');
  await editor.getByLabel('Status', { exact: true }).fill('201');
  await editor.getByRole('button', { name: 'Create rule' }).click();
  await expect(page.getByTestId('mock-rule')).toHaveCount(1);
  await expect(page.getByTestId('mock-sync')).toContainText('Applied in the app');

  expect(await appFetch(debuggee, '/api/cart')).toEqual({ status: 201, text: '{"items":[],"mocked":true}' });
  await expect(page.getByTestId('mock-hits')).toHaveText('1 hit');
  await screenshot(page, 'network-mocks');

  await page.getByRole('tab', { name: /Requests/ }).click();
  await expect(rows).toHaveCount(5);
  await expect(rows.last()).toContainText('mock');
  await panel.getByRole('button', { name: 'Mocked' }).click();
  await expect(filter).toHaveValue('is:mocked');
  await expect(rows).toHaveCount(1);
  await panel.getByRole('button', { name: 'Mocked' }).click();
  await expect(rows).toHaveCount(5);
  await rows.last().click();
  await detail.getByRole('tab', { name: 'Response' }).click();
  await expect(detail.getByRole('region', { name: 'Response body JSON' })).toContainText('mocked: true');
  await screenshot(page, 'network-requests');
  await page.getByRole('button', { name: /Switch to the dark theme/ }).click();
  await screenshot(page, 'network-requests-dark');
  await page.getByRole('button', { name: /Switch to the light theme/ }).click();

  // Turning the rule off lets the real server answer again.
  await page.getByRole('tab', { name: /Mocks/ }).click();
  // The box follows the saved config: it flips once the app has the change.
  await page.getByRole('checkbox', { name: /^Enable / }).click();
  await expect(page.getByRole('checkbox', { name: /^Enable / })).not.toBeChecked();
  await expect(page.getByTestId('mock-sync')).toContainText('Applied in the app (revision 2, load 1)');
  expect(await appFetch(debuggee, '/api/cart')).toMatchObject({ status: 200, text: expect.stringContaining('A-1') });

  // Export HAR downloads what the table shows.
  await page.getByRole('tab', { name: /Requests/ }).click();
  const download = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'Export HAR' }).click();
  const har = JSON.parse(
    await (await (await download).createReadStream()).toArray().then((b) => Buffer.concat(b).toString()),
  );
  expect(har.log.entries).toHaveLength(6);
});

test('a rule the app refuses is shown as not applied, and nothing is saved', async ({ page, context }) => {
  await openWindow(page, env.inspector);
  const debuggee = await context.newPage();
  await debuggee.goto(
    `${env.served.pageUrl({ inspector: env.inspector.info.debuggeeUrl, plugins: ['network'], appName: 'Locked App' })}&mocking=off`,
  );
  await expect(debuggee.locator('#status')).toHaveText('connected');
  await page.bringToFront(); // a background tab gets few animation frames
  await page.getByTestId('plugin').filter({ hasText: 'Network' }).click();
  await page.getByRole('tab', { name: /Mocks/ }).click();
  await page.getByRole('button', { name: 'New rule' }).click();
  const editor = page.getByRole('form', { name: 'New mock rule' });
  await editor.getByLabel('URL pattern').fill('/api/cart');
  await editor.getByRole('button', { name: 'Create rule' }).click();
  await expect(page.getByTestId('mocks-view').getByRole('alert')).toContainText('failed to apply on the debuggee');
  await expect(page.getByTestId('mock-sync-failure')).toBeVisible();
  await expect(page.getByTestId('mock-rule')).toHaveCount(0);
  await screenshot(page, 'network-mock-sync-failed');
});

test('page loads are boundaries: each load under its header, older loads closed, Preserve log off keeps the current load', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWindow(page, env.inspector);
  const debuggee = await context.newPage();
  await debuggee.goto(
    env.served.pageUrl({ inspector: env.inspector.info.debuggeeUrl, plugins: ['network'], appName: 'Reloads' }),
  );
  await expect(debuggee.locator('#status')).toHaveText('connected');
  await appFetch(debuggee, '/api/cart');
  await appFetch(debuggee, '/api/missing');
  await page.bringToFront();
  await page.getByTestId('plugin').filter({ hasText: 'Network' }).click();
  const panel = page.getByTestId('network-panel');
  const rows = panel.getByTestId('network-row');
  const loads = panel.getByTestId('network-load');
  await expect(rows).toHaveCount(2);
  // One load: no header.
  await expect(loads).toHaveCount(0);

  await debuggee.reload();
  await expect(debuggee.locator('#status')).toHaveText('connected');
  await appFetch(debuggee, '/api/logo.png');
  // The first load closed under its header (with its count), the current one open.
  await expect(loads).toHaveCount(2);
  await expect(loads.first()).toContainText('Load 1');
  await expect(loads.first()).toContainText('2 requests');
  await expect(loads.first()).toHaveAttribute('data-open', 'false');
  await expect(loads.last()).toContainText('Load 2 (current)');
  await expect(loads.last()).toHaveAttribute('data-open', 'true');
  await expect(rows.filter({ hasText: '/api/logo.png' })).toHaveCount(1);
  await expect(rows.filter({ hasText: '/api/cart' })).toHaveCount(0);
  await expect(panel.getByTestId('network-count')).toContainText('3 requests');

  // Keyboard: Home selects the first header, Right opens it, Left closes it, Enter opens it again.
  const grid = panel.getByTestId('network-table');
  await grid.focus();
  await page.keyboard.press('Home');
  await expect(loads.first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowRight');
  await expect(rows.filter({ hasText: '/api/cart' })).toHaveCount(1);
  await screenshot(page, 'network-loads');
  await page.keyboard.press('ArrowLeft');
  await expect(rows.filter({ hasText: '/api/cart' })).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(rows.filter({ hasText: '/api/cart' })).toHaveCount(1);
  // Down from the header goes to its first request, whose detail Enter opens.
  await page.keyboard.press('ArrowDown');
  await expect(rows.filter({ hasText: '/api/cart' })).toHaveAttribute('aria-selected', 'true');

  // Preserve log off: only the current load (no header needed); on again: all of them.
  await panel.getByTestId('network-preserve').uncheck();
  await expect(loads).toHaveCount(0);
  await expect(rows).toHaveCount(1);
  await expect(panel.getByTestId('network-count')).toHaveText('1 of 3 requests');
  await panel.getByTestId('network-preserve').check();
  await expect(loads).toHaveCount(2);
});

test('a gRPC answer read from a HAR shows its trailers, and "Mock this" puts them in the rule', async ({
  page,
  context,
}) => {
  await openWindow(page, env.inspector);
  const debuggee = await context.newPage();
  await debuggee.goto(env.served.pageUrl({ inspector: env.inspector.info.debuggeeUrl, plugins: ['network'] }));
  await expect(debuggee.locator('#status')).toHaveText('connected');
  await page.bringToFront();
  await page.getByTestId('session').last().click();
  await page.getByTestId('plugin').filter({ hasText: 'Network' }).click();
  const har = grpcHar();
  await page
    .getByTestId('network-panel')
    .getByLabel('HAR file')
    .setInputFiles({ name: 'grpc.har', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(har)) });
  await expect(page.getByTestId('offline-banner')).toContainText('read from grpc.har');
  const row = page.getByTestId('network-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('grpc 14');
  await expect(row).toHaveClass(/tone-error/);
  await row.click();
  const detail = page.getByTestId('network-detail');
  await expect(detail).toContainText('14 UNAVAILABLE: cart service unavailable');
  const trailers = detail.getByRole('region', { name: 'Response trailers' });
  await expect(trailers).toContainText('grpc-status');
  await expect(trailers).toContainText('cart service unavailable');
  await screenshot(page, 'network-grpc-trailers');
  await detail.getByRole('button', { name: 'Mock this' }).click();
  const editor = page.getByRole('form', { name: 'New mock rule' });
  await expect(editor.getByLabel('Trailers (HTTP/2, after the body)')).toHaveValue(
    'grpc-status: 14\ngrpc-message: cart service unavailable',
  );
});
