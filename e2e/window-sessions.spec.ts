import { expect, type Page, test } from '@playwright/test';
import { inspectorAndPage, mcpClient, openWindow, screenshotAllSizes } from './window.helpers.js';

const env = inspectorAndPage({
  '/api/items': (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('[1,2,3]'),
});

test('two tabs differ by title, Network stays Network across sessions, the order holds, and a HAR opens as its own offline session', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWindow(page, env.inspector);
  const open = async (title: string) => {
    const tab = await context.newPage();
    await tab.goto(
      env.served.pageUrl({
        inspector: env.inspector.info.debuggeeUrl,
        plugins: ['example', 'network'],
        appName: 'Acme Shop',
        extra: { title },
      }),
    );
    await expect(tab.locator('#status')).toHaveText('connected');
    return tab;
  };
  const catalog = await open('Catalog');
  const checkout = await open('Checkout');
  await checkout.evaluate(() => fetch('/api/items').then((r) => r.text()));
  await page.bringToFront();

  const sessions = page.getByTestId('session');
  await expect(sessions).toHaveCount(2);
  await expect(sessions.nth(0).getByTestId('session-page')).toContainText('Catalog');
  await expect(sessions.nth(1).getByTestId('session-page')).toContainText('Checkout');

  // Network stays Network when another session is picked.
  await sessions.nth(0).click();
  await page.getByTestId('plugin').filter({ hasText: 'Network' }).click();
  await expect(page.getByTestId('network-panel')).toBeVisible();
  await sessions.nth(1).click();
  await expect(page.getByTestId('network-panel')).toBeVisible();
  await expect(page.getByTestId('network-row')).toHaveCount(1);

  // A session that disconnects keeps its place.
  await catalog.close();
  await expect(sessions.nth(0)).toHaveAttribute('data-active', 'false');
  await expect(sessions.nth(0).getByTestId('session-page')).toContainText('Catalog');
  await expect(sessions.nth(1).getByTestId('session-page')).toContainText('Checkout');

  // Export the Checkout tab's requests, then open the file: a session of its own.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export HAR' }).click();
  const har = Buffer.concat(await (await (await download).createReadStream()).toArray());
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'checkout.har', mimeType: 'application/json', buffer: har });
  await expect(sessions).toHaveCount(3);
  await expect(page.getByTestId('offline-banner')).toContainText('read from checkout.har');
  await expect(page.locator('.view-header')).toContainText('checkout.har');
  await expect(page.getByTestId('network-row')).toHaveCount(1);
  await expect(page.getByTestId('device-group').filter({ hasText: 'Files' })).toContainText('checkout.har');
  await screenshotAllSizes(page, 'sessions-offline-har');
  // The live session did not get the imported rows.
  await sessions.nth(1).click();
  await expect(page.getByTestId('network-row')).toHaveCount(1);
  // The offline session is cleared like any inactive one.
  await page.getByTestId('device-group').filter({ hasText: 'Files' }).getByTestId('session').click();
  await page.getByRole('button', { name: 'Clear session' }).click();
  await expect(sessions).toHaveCount(2);
});

test('the call history keeps every record reachable, searches arguments and results, runs a call again, and two windows agree', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const agent = await openWithEchoApp(page);
  const mcp = await mcpClient(env.inspector, 'history-agent');
  try {
    // 1,010 calls: past the 1,000 the history keeps.
    for (let i = 0; i < 1010; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, 1010 - i) }, (_, j) =>
          mcp.client.callTool({ name: 'example_echo', arguments: { text: `call ${i + j}` } }),
        ),
      );
    }
    await mcp.client.callTool({ name: 'example_echo', arguments: { text: 'needle in the haystack' } });
    await mcp.client.callTool({ name: 'example_send_ping', arguments: { sessionId: 'gone' } });

    await page.getByRole('button', { name: /Call history/ }).click();
    const count = page.getByTestId('history-count');
    await expect(count).toHaveText('1,000 of 1,000 calls · 1 failed');
    const grid = page.getByRole('grid', { name: 'Call history' });
    await page.getByTestId('call-row').first().click();
    await grid.press('End');
    // The oldest kept call is the 13th one made (1,012 made, 1,000 kept).
    await expect(page.getByTestId('call-detail')).toContainText('"call 12"');
    await grid.press('Home');
    await expect(page.getByTestId('call-detail')).toContainText('example_send_ping');

    // Search in arguments and results.
    await page.getByRole('searchbox', { name: 'Search arguments and results' }).fill('haystack');
    await expect(count).toHaveText('1 of 1,000 calls · 1 failed');
    await page.getByTestId('call-row').first().click();
    await screenshotAllSizes(page, 'history-search');

    // Run it again: the tools browser opens with its arguments in the form.
    await page.getByRole('button', { name: 'Run again…' }).click();
    const tool = page.getByTestId('tool-detail');
    await expect(tool.getByRole('heading', { name: 'example_echo' })).toBeVisible();
    await expect(tool.getByRole('textbox', { name: /text/ })).toHaveValue('needle in the haystack');

    // A second window shows the same count and badge.
    const other = await browser.newPage();
    await openWindow(other, env.inspector);
    await other.getByRole('button', { name: /Call history/ }).click();
    await expect(other.getByTestId('history-count')).toHaveText('1,000 of 1,000 calls · 1 failed');
    await mcp.client.callTool({ name: 'example_send_ping', arguments: { sessionId: 'gone-again' } });
    await expect(other.getByRole('button', { name: /Call history/ })).toContainText('2 failed');
    await page.getByRole('button', { name: /Call history/ }).click();
    await expect(page.getByRole('button', { name: /Call history/ })).toContainText('2 failed');
    await page.getByRole('searchbox', { name: 'Search arguments and results' }).fill('');
    await expect(page.getByTestId('history-count')).toHaveText('1,000 of 1,000 calls · 2 failed');
    await expect(other.getByTestId('history-count')).toHaveText('1,000 of 1,000 calls · 2 failed');
    await other.close();
  } finally {
    await mcp.close();
    await agent.close();
  }
});

/** The window, and a browser debuggee with the example plugin for the calls to go to. */
async function openWithEchoApp(page: Page) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWindow(page, env.inspector);
  const debuggee = await page.context().newPage();
  await debuggee.goto(env.served.pageUrl({ inspector: env.inspector.info.debuggeeUrl, appName: 'Echo App' }));
  await expect(debuggee.locator('#status')).toHaveText('connected');
  await page.bringToFront();
  return debuggee;
}
