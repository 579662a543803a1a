import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { connect } from '../agent/index.js';
import { example } from '../plugins/example/agent/index.js';
import { type DebuggeeWindow, serveDebuggeePage } from './support/debuggee-page.js';
import { type RunningInspector, startInspector } from './support/inspector.js';
import { buildRenderer, openWindow, screenshot } from './window.helpers.js';

let inspector: RunningInspector;

test.beforeAll(async () => {
  await buildRenderer();
});

test.beforeEach(async () => {
  inspector = await startInspector();
});

test.afterEach(async () => {
  await inspector.stop();
});

test('the printed UI URL opens the window; without the token it says what to do', async ({ page, browser }) => {
  expect(inspector.output()).toContain(inspector.info.uiUrl);
  expect(inspector.info.uiUrl).toMatch(/\/\?token=[\w-]{20,}$/);
  await openWindow(page, inspector);
  await expect(page.getByTestId('connect-help')).toContainText('No app connected yet');
  await expect(page.getByTestId('connect-help')).toContainText(inspector.info.debuggeeUrl);
  await screenshot(page, 'empty-state');

  const stranger = await browser.newPage();
  await stranger.goto(inspector.info.controlUrl);
  await expect(stranger.getByTestId('connection-banner')).toContainText('open the UI URL');
  await stranger.close();
});

test('sessions appear grouped by device and app, the example panel pings and logs, and a closed app goes inactive', async ({
  page,
  context,
}) => {
  await openWindow(page, inspector);
  const served = await serveDebuggeePage();
  const node = connect({
    url: inspector.info.debuggeeUrl,
    app: { id: 'com.acme.api', name: 'Acme API' },
    device: { id: 'e2e-node', name: 'build box', platform: 'node' },
    plugins: [example()],
  });
  try {
    await expect(page.getByTestId('session')).toHaveCount(1);
    const debuggee = await context.newPage();
    await debuggee.goto(served.pageUrl({ inspector: inspector.info.debuggeeUrl, appName: 'Acme Shop' }));
    await expect(debuggee.locator('#status')).toHaveText('connected');
    await page.bringToFront(); // a background tab gets few animation frames

    await expect(page.getByTestId('session')).toHaveCount(2);
    await expect(page.getByTestId('device-group')).toHaveCount(2);
    await expect(page.getByTestId('app-group').filter({ hasText: 'Acme Shop' })).toBeVisible();
    await expect(page.locator('.notice.connected').last()).toContainText('Acme Shop');

    await page.getByTestId('app-group').filter({ hasText: 'Acme Shop' }).getByTestId('session').click();
    await expect(page.locator('.view-header')).toContainText('Acme Shop');
    await expect(page.getByTestId('session').filter({ hasText: 'loopback' })).toHaveCount(2);

    const panel = page.getByTestId('example-panel');
    await panel.getByRole('button', { name: 'Ping' }).click();
    await expect(panel.getByTestId('ping-result')).toContainText(/Round trip [\d.]+ ms/);

    await debuggee.evaluate(() =>
      (window as unknown as DebuggeeWindow).porthole.plugins.example.log('warn', 'cart total mismatch', { cart: 7 }),
    );
    await expect(panel.getByRole('log')).toContainText('cart total mismatch');
    await panel.getByRole('button', { name: /cart total mismatch/ }).click();
    await expect(panel.getByRole('region', { name: 'JSON' })).toContainText('cart');

    await panel.getByRole('button', { name: 'Take screenshot' }).click();
    await expect(panel.getByRole('img', { name: 'Screenshot of Acme Shop' })).toBeVisible();
    await screenshot(page, 'session-example-panel');

    await debuggee.close();
    const shop = page.getByTestId('app-group').filter({ hasText: 'Acme Shop' }).getByTestId('session');
    await expect(shop).toHaveAttribute('data-active', 'false');
    await expect(shop).toContainText('Inactive');
    await expect(page.getByTestId('inactive-banner')).toContainText('The app disconnected');
    await expect(panel.getByRole('button', { name: 'Ping' })).toBeDisabled();
    await expect(panel.getByRole('log')).toContainText('cart total mismatch');
    await screenshot(page, 'session-inactive');

    await page.getByRole('button', { name: 'Clear session' }).click();
    await expect(page.getByTestId('session')).toHaveCount(1);
  } finally {
    node.disconnect();
    await served.close();
  }
});

test('the MCP area shows the URL, hides the token until revealed, and gives copy-ready configs', async ({ page }) => {
  await openWindow(page, inspector);
  await page.getByRole('button', { name: /MCP server/ }).click();
  const view = page.getByTestId('mcp-view');
  await expect(view).toContainText('MCP server running');
  await expect(view.getByTestId('mcp-url')).toHaveText(inspector.info.mcpUrl);

  const token = readFileSync(join(inspector.dataDir, 'mcp-token'), 'utf8').trim();
  await expect(view.getByTestId('mcp-token')).not.toContainText(token);
  expect(await page.content()).not.toContain(token);
  await view.getByRole('button', { name: 'Reveal' }).click();
  await expect(view.getByTestId('mcp-token')).toHaveText(token);
  await view.getByRole('button', { name: 'Hide' }).click();
  await expect(view.getByTestId('mcp-token')).not.toContainText(token);

  for (const client of ['Claude Code', 'Cursor', 'VS Code', 'Claude Desktop']) {
    await expect(view.getByRole('region', { name: `${client} config` })).toContainText('mcp');
  }
  await expect(view.getByRole('region', { name: 'Claude Code config' })).toContainText(
    `bin/porthole.js mcp --data-dir ${inspector.dataDir}`,
  );
  // Over HTTP: Cursor has a snippet; VS Code's workspace file asks for the token instead of holding it.
  await expect(view.getByRole('region', { name: 'Cursor (HTTP) config' })).toContainText('"url"');
  await view.getByRole('button', { name: 'Reveal' }).click();
  await expect(view.getByRole('region', { name: 'Cursor (HTTP) config' })).toContainText(token);
  const vscode = view.getByRole('region', { name: 'VS Code (HTTP) config' });
  await expect(vscode).toContainText('promptString');
  // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's input reference, literally
  await expect(vscode).toContainText('${input:porthole-token}');
  await expect(vscode).not.toContainText(token);
  await view.getByRole('button', { name: 'Hide' }).click();
  await screenshot(page, 'mcp-area');

  await page.getByRole('button', { name: /Switch to the dark theme/ }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await screenshot(page, 'mcp-area-dark');
});

test('the window reconnects by itself when the inspector restarts, and shows the app again', async ({ page }) => {
  await openWindow(page, inspector);
  const node = connect({
    url: inspector.info.debuggeeUrl,
    app: { id: 'com.acme.api', name: 'Acme API' },
    plugins: [example()],
    reconnect: { initialDelayMs: 100, maxDelayMs: 500 },
  });
  try {
    await expect(page.getByTestId('session')).toHaveCount(1);
    const { dataDir } = inspector;
    const ports = ['--control-port', new URL(inspector.info.controlUrl).port];
    ports.push('--debuggee-port', new URL(inspector.info.debuggeeUrl).port);
    await inspector.stop({ keepData: true });
    await expect(page.getByTestId('connection-banner')).toContainText('Not connected');
    await screenshot(page, 'disconnected-from-inspector');

    inspector = await startInspector({ dataDir, args: ports });
    await expect(page.getByTestId('connection-banner')).toHaveCount(0, { timeout: 20_000 });
    await expect(page.getByTestId('session').filter({ hasText: 'Active' })).toHaveCount(1, { timeout: 10_000 });
  } finally {
    node.disconnect();
  }
});
