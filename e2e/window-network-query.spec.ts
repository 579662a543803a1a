import { expect, type Page, test } from '@playwright/test';
import { inspectorAndPage, openWindow, screenshotAllSizes } from './window.helpers.js';

// The network panel as a DevTools user drives it: the query language, suggestions, the search in
// headers and bodies, columns, the detail's copies, query string, raw headers, redaction and timing.

const env = inspectorAndPage({
  '/api/cart': (_req, res) =>
    void res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ items: [{ sku: 'A-1', note: 'gift wrap please' }] })),
  '/api/orders': (req, res) => {
    req.resume();
    req.on('end', () => void res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":7}'));
  },
  '/api/missing': (_req, res) => void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such thing'),
  '/api/boom': (_req, res) => void res.writeHead(503, { 'content-type': 'application/json' }).end('{"down":true}'),
});

async function traffic(debuggee: Page): Promise<void> {
  await debuggee.evaluate(async () => {
    const auth = { authorization: 'Bearer s3cret-token' };
    await fetch('/api/cart?page=2&sort=price', { headers: auth });
    await fetch('/api/orders', {
      method: 'POST',
      body: '{"sku":"A-1"}',
      headers: { 'content-type': 'application/json' },
    });
    await fetch('/api/missing');
    await fetch('/api/boom');
    await fetch('http://127.0.0.1:9/refused').catch(() => {});
  });
}

test('the query language, suggestions, an empty result that says why, and the search in bodies', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWindow(page, env.inspector);
  const debuggee = await context.newPage();
  await debuggee.goto(
    env.served.pageUrl({ inspector: env.inspector.info.debuggeeUrl, plugins: ['network'], appName: 'Acme Shop' }),
  );
  await expect(debuggee.locator('#status')).toHaveText('connected');
  await traffic(debuggee);
  await page.bringToFront();
  await page.getByTestId('plugin').filter({ hasText: 'Network' }).click();
  const panel = page.getByTestId('network-panel');
  const rows = panel.getByTestId('network-row');
  const filter = panel.getByRole('combobox', { name: 'Filter requests' });
  const count = panel.getByTestId('network-count');
  await expect(rows).toHaveCount(5);

  // is:failed is network failures and HTTP errors alike; terms combine; - negates; /regex/.
  const shows = async (query: string, n: number) => {
    await filter.fill(query);
    await expect(count).toHaveText(`${n} of 5 requests`);
  };
  await shows('is:failed', 3);
  await shows('status:5xx', 1);
  await shows('status:4xx,5xx', 2);
  await shows('status:404', 1);
  await shows('method:POST', 1);
  await shows('-status:2xx', 3);
  await shows('/api\\/(cart|orders)/', 2);
  await shows('type:json larger-than:10 -method:POST', 2);
  await shows('domain:127.0.0.1 is:failed', 3);
  await shows('is:pending', 0);
  await filter.fill('is:weird');
  await expect(panel.getByTestId('query-errors')).toContainText('is:weird is not known');

  // Suggestions as you type: keys, then values; Escape closes only the list.
  await filter.fill('');
  await filter.pressSequentially('sta');
  const suggestions = panel.getByRole('listbox', { name: 'Suggestions' });
  await expect(suggestions.getByRole('option').first()).toContainText('status:');
  await filter.press('Enter');
  await expect(filter).toHaveValue('status:');
  await expect(suggestions.getByRole('option', { name: /status:5xx/ })).toBeVisible();
  await filter.press('Escape');
  await expect(suggestions).toBeHidden();
  await expect(filter).toBeFocused();

  // An empty result says why and offers to widen it.
  await filter.fill('status:5xx method:POST');
  const none = panel.getByTestId('network-no-match');
  await expect(none).toContainText('none passes the filter status:5xx method:POST');
  await screenshotAllSizes(page, 'network-no-match');
  await none.getByRole('button', { name: /Remove method:POST/ }).click();
  await expect(filter).toHaveValue('status:5xx');
  await expect(rows).toHaveCount(1);

  // The detail of a row the filter takes away closes.
  await filter.fill('');
  await rows.filter({ hasText: '/api/cart' }).click();
  await expect(page.getByTestId('network-detail')).toBeVisible();
  await filter.fill('is:failed');
  await expect(page.getByTestId('network-detail')).toHaveCount(0);
  await filter.fill('');

  // Search in headers and bodies: the hit is marked in the detail.
  const search = panel.getByRole('searchbox', { name: 'Search headers and bodies' });
  await search.fill('gift wrap');
  await search.press('Enter');
  await expect(panel.getByTestId('search-status')).toHaveText('1 match');
  await expect(rows).toHaveCount(1);
  await rows.first().click();
  const detail = page.getByTestId('network-detail');
  await expect(detail.getByRole('tab', { name: /Response/ })).toHaveAttribute('aria-selected', 'true');
  await expect(detail.locator('mark')).toHaveText('gift wrap');
  await screenshotAllSizes(page, 'network-search-hit');
  await search.fill('s3cret-token');
  await search.press('Enter');
  // A header value redacted in the app (scope all) never reached the inspector: no hit.
  await expect(panel.getByTestId('network-no-match')).toContainText('the search for s3cret-token');
  await search.fill('');
  await expect(rows).toHaveCount(5);
});

test('columns sort, resize and are chosen from a menu; the detail copies, parses and explains', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWindow(page, env.inspector);
  const debuggee = await context.newPage();
  await debuggee.goto(
    env.served.pageUrl({
      inspector: env.inspector.info.debuggeeUrl,
      plugins: ['network'],
      appName: 'Acme Shop',
      extra: { redact: 'mcp' },
    }),
  );
  await expect(debuggee.locator('#status')).toHaveText('connected');
  await traffic(debuggee);
  await page.bringToFront();
  await page.getByTestId('plugin').filter({ hasText: 'Network' }).click();
  const panel = page.getByTestId('network-panel');
  const grid = panel.getByRole('grid', { name: 'Requests' });
  const rows = panel.getByTestId('network-row');
  await expect(rows).toHaveCount(5);

  // Sort by status: ascending, descending, then arrival order again.
  const statusHeader = grid.getByRole('columnheader', { name: /Status/ });
  await statusHeader.getByRole('button').click();
  await expect(statusHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(rows.first()).toContainText('failed');
  await statusHeader.getByRole('button').click();
  await expect(statusHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(rows.first()).toContainText('503');
  await statusHeader.getByRole('button').click();
  await expect(statusHeader).not.toHaveAttribute('aria-sort');
  await expect(rows.first()).toContainText('/api/cart');

  // The columns menu drops Initiator (shown by default, with the call site) and the waterfall; a drag widens Method.
  await panel.getByRole('button', { name: 'Columns' }).click();
  const menu = page.getByRole('menu', { name: 'Columns' });
  await menu.getByRole('menuitemcheckbox', { name: 'Initiator' }).click();
  await menu.getByRole('menuitemcheckbox', { name: 'Waterfall' }).click();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(grid.getByRole('columnheader', { name: 'Initiator' })).toHaveCount(0);
  await expect(grid.getByRole('columnheader', { name: /Waterfall/ })).toHaveCount(0);
  await expect(grid.getByRole('columnheader')).toHaveText([/Status/, /Method/, /URL|Name/, /Type/, /Size/, /Time/]);
  const method = grid.getByRole('columnheader', { name: /Method/ });
  const before = (await method.boundingBox())!.width;
  const handle = (await method.locator('.col-resize').boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + 60, handle.y + handle.height / 2, { steps: 4 });
  await page.mouse.up();
  expect((await method.boundingBox())!.width).toBeGreaterThan(before + 40);
  await panel.getByRole('button', { name: 'Columns' }).click();
  await menu.getByRole('menuitem', { name: 'Reset columns' }).click();
  await expect(grid.getByRole('columnheader', { name: /Waterfall/ })).toBeVisible();

  // Keyboard: the grid is one tab stop; arrows, PageDown/PageUp, End/Home move; Enter opens; Escape closes.
  await rows.first().click();
  await expect(grid).toBeFocused();
  await grid.press('PageDown');
  await expect(rows.last()).toHaveAttribute('aria-selected', 'true');
  await grid.press('Home');
  await expect(rows.first()).toHaveAttribute('aria-selected', 'true');
  await grid.press('ArrowDown');
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');
  await grid.press('PageUp');
  await expect(rows.first()).toHaveAttribute('aria-selected', 'true');
  await grid.press('End');
  await expect(rows.last()).toHaveAttribute('aria-selected', 'true');
  await grid.press('Home');
  const detail = page.getByTestId('network-detail');
  await grid.press('Enter');
  await expect(detail).toBeFocused();
  await detail.press('Escape');
  await expect(detail).toHaveCount(0);
  await expect(grid).toBeFocused();
  await grid.press('ArrowDown');
  await grid.press('ArrowUp');

  // Headers: the authorization header hidden from MCP is masked here until revealed.
  await expect(detail.getByRole('region', { name: 'Request headers' })).toContainText('redacted');
  await expect(detail.getByRole('region', { name: 'Request headers' })).not.toContainText('s3cret-token');
  // One value at a time (its own Reveal), or all of them.
  await detail.getByRole('button', { name: 'Reveal the value of authorization' }).click();
  await expect(detail.getByRole('region', { name: 'Request headers' })).toContainText('Bearer s3cret-token');
  await detail.getByRole('button', { name: 'Hide the value of authorization' }).click();
  await expect(detail.getByRole('region', { name: 'Request headers' })).not.toContainText('s3cret-token');
  await detail.getByRole('button', { name: 'Reveal all redacted values' }).click();
  await expect(detail.getByRole('region', { name: 'Request headers' })).toContainText('Bearer s3cret-token');
  await detail.getByRole('button', { name: 'Show raw headers' }).click();
  await expect(detail.getByRole('region', { name: 'Response headers' })).toContainText('HTTP/1.1 200 OK');
  await expect(detail.getByRole('region', { name: 'Response headers' })).toContainText(
    'content-type: application/json',
  );
  await screenshotAllSizes(page, 'network-detail-headers');

  // Copy as HAR keeps the redaction (an export); copy response gives the body.
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  await detail.getByRole('button', { name: 'Copy as HAR' }).click();
  await expect.poll(clipboard).toContain('"request"');
  const entry = JSON.parse(await clipboard());
  expect(entry.request.url).toMatch(/\/api\/cart\?page=2&sort=price$/);
  expect(JSON.stringify(entry.request.headers)).not.toContain('s3cret-token');
  await detail.getByRole('button', { name: 'Copy response' }).click();
  await expect.poll(clipboard).toContain('gift wrap please');

  // Payload: the query string parsed, or as sent.
  await detail.getByRole('tab', { name: 'Payload' }).click();
  const query = detail.getByRole('region', { name: 'Query string parameters' });
  await expect(query).toContainText('page');
  await expect(query).toContainText('price');
  await query.getByRole('button', { name: 'Show URL-encoded' }).click();
  await expect(query).toContainText('page=2&sort=price');

  // Timing: the phases the agent measured, and the start with the time of day.
  await detail.getByRole('tab', { name: 'Timing' }).click();
  const timing = detail.getByRole('region', { name: 'Timing' });
  await expect(timing).toContainText('Waiting for server response');
  await expect(timing).toContainText(/Started\s*\d{2}:\d{2}:\d{2}\.\d{3}/);
  await screenshotAllSizes(page, 'network-detail-timing');

  // The table/detail split is resizable with the keyboard.
  const splitter = panel.getByRole('separator', { name: 'Resize the request detail' });
  const width = Number(await splitter.getAttribute('aria-valuenow'));
  await splitter.focus();
  await splitter.press('ArrowLeft');
  await expect(splitter).toHaveAttribute('aria-valuenow', String(width + 16));

  // At 1024 px the sidebar folds away and the table keeps whole columns.
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.getByRole('button', { name: 'Hide the sidebar' }).click();
  await expect(page.getByRole('navigation', { name: 'Sessions and MCP' })).toHaveCount(0);
  await screenshotAllSizes(page, 'network-1024-sidebar-hidden');
  await page.getByRole('button', { name: 'Show the sidebar' }).click();
  await expect(page.getByRole('navigation', { name: 'Sessions and MCP' })).toBeVisible();
});
