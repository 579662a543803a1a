import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test } from '@playwright/test';
import { connect } from '../agent/index.js';
import { example } from '../plugins/example/agent/index.js';
import { ui } from '../plugins/ui/agent/index.js';
import type { Screenshot } from '../plugins/ui/protocol.js';
import { type RunningInspector, startInspector } from './support/inspector.js';
import { buildRenderer, mcpClient, openWindow, screenshot } from './window.helpers.js';

// A real 2×2 PNG (red, green / blue, white).
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';

let inspector: RunningInspector;
let release: ((shot: Screenshot) => void) | undefined;
let agent: ReturnType<typeof connect>;

test.beforeAll(async () => {
  await buildRenderer();
});

test.beforeEach(async () => {
  inspector = await startInspector();
  release = undefined;
  agent = connect({
    url: inspector.info.debuggeeUrl,
    app: { id: 'com.acme.worker', name: 'Acme Worker' },
    device: { id: 'e2e-node', name: 'build box', platform: 'node' },
    plugins: [
      example(),
      ui({
        // Held open while a test wants a call to stay running; otherwise answers at once.
        screenshot: () =>
          release === undefined
            ? { base64: PNG, mimeType: 'image/png', width: 2, height: 2 }
            : new Promise<Screenshot>((resolve) => {
                release = resolve;
              }),
      }),
    ],
  });
});

test.afterEach(async () => {
  agent.disconnect();
  await inspector.stop();
});

test('a tool run from the tools browser renders JSON and an image', async ({ page }) => {
  await openWindow(page, inspector);
  await expect(page.getByTestId('session')).toHaveCount(1);
  await page.getByRole('button', { name: /^Tools/ }).click();

  await page.getByRole('searchbox', { name: 'Search tools' }).fill('send ping');
  await expect(page.getByRole('option')).toHaveCount(1);
  await page.getByRole('option', { name: /example_send_ping/ }).click();
  const detail = page.getByTestId('tool-detail');
  await expect(detail.getByTestId('annotations')).toContainText('read-only');
  await detail.getByText('Output schema').click();
  await expect(detail).toContainText('roundTripMs');
  await detail.getByRole('button', { name: 'Run' }).click();
  const result = detail.getByRole('region', { name: 'Result', exact: true });
  await expect(result).toHaveAttribute('data-failed', 'false');
  await expect(result.getByRole('region', { name: 'Result JSON' })).toContainText(/roundTripMs: [\d.]+/);
  await screenshot(page, 'tools-json-result');

  await page.getByRole('searchbox', { name: 'Search tools' }).fill('screenshot');
  await page.getByRole('option', { name: /ui_screenshot/ }).click();
  await detail.getByRole('button', { name: 'Run' }).click();
  const image = result.getByRole('img', { name: /image\/png/ });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
  await expect(result).toContainText('Screenshot of Acme Worker (2×2)');
  await screenshot(page, 'tools-image-result');

  // A bad argument from the raw-JSON editor comes back as a failed result, not a broken window.
  await page.getByRole('searchbox', { name: 'Search tools' }).fill('echo');
  await page.getByRole('option', { name: /example_echo/ }).click();
  await detail.getByRole('button', { name: 'Run' }).click();
  await expect(detail.getByRole('alert')).toContainText('needs attention');
  await detail.getByRole('textbox', { name: /The text to send|text/ }).fill('hello through the app');
  await detail.getByRole('button', { name: 'Run' }).click();
  await expect(result).toContainText('hello through the app');
  await detail.getByRole('button', { name: 'Edit as JSON' }).click();
  await detail.getByRole('textbox', { name: 'Arguments (JSON)' }).fill('{"text": 42}');
  await detail.getByRole('button', { name: 'Run' }).click();
  await expect(result).toHaveAttribute('data-failed', 'true');
  await expect(result).toContainText('Failed');
});

test('MCP calls land in the history, failures marked Failed; the indicator names the running tool and follow mode tracks it', async ({
  page,
}) => {
  await openWindow(page, inspector);
  await expect(page.getByTestId('session')).toHaveCount(1);
  const indicator = page.getByTestId('ai-activity');
  await expect(indicator).toHaveText('No AI agent connected');

  const mcp = await mcpClient(inspector, 'e2e-agent');
  try {
    await expect(indicator).toHaveText('AI agent connected · e2e-agent');

    const ok = await mcp.client.callTool({ name: 'example_send_ping', arguments: {} });
    expect(ok.isError).toBeFalsy();
    const bad = await mcp.client.callTool({ name: 'example_send_ping', arguments: { sessionId: 'no-such-session' } });
    expect(bad.isError).toBe(true);

    await page.getByRole('button', { name: /Call history/ }).click();
    const rows = page.getByTestId('call-row');
    await expect(rows).toHaveCount(2);
    // Newest first: the failed call, then the one that worked.
    await expect(rows.nth(0)).toHaveAttribute('data-status', 'failed');
    await expect(rows.nth(0)).toContainText('Failed');
    await expect(rows.nth(0)).toContainText('e2e-agent 0.9.0');
    await expect(rows.nth(0).getByRole('gridcell').first()).toHaveCSS(
      'color',
      /rgb\(176, 37, 37\)|rgb\(255, 110, 110\)/,
    );
    await expect(rows.nth(1)).toHaveAttribute('data-status', 'succeeded');
    await expect(rows.nth(1)).not.toContainText('Failed');
    await expect(page.getByRole('button', { name: /Call history/ })).toContainText('1 failed');

    await rows.nth(0).click();
    const detail = page.getByTestId('call-detail');
    await expect(detail).toContainText('no-such-session');
    await expect(detail.getByRole('region', { name: 'Result', exact: true })).toHaveAttribute('data-failed', 'true');
    await screenshot(page, 'history-failed-detail');

    await page.getByRole('combobox', { name: 'Status' }).selectOption('failed');
    await expect(rows).toHaveCount(1);
    await page.getByRole('combobox', { name: 'Status' }).selectOption('all');

    // A call that keeps running: the indicator names it, and follow mode brings its session forward.
    await page.getByRole('button', { name: 'Follow agent' }).click();
    release = () => {};
    const pending = mcp.client.callTool({ name: 'ui_screenshot', arguments: {} });
    await expect(indicator).toHaveText('Running ui_screenshot');
    await expect(indicator).toHaveAttribute('data-state', 'running');
    await expect(page.locator('.view-header')).toContainText('Acme Worker');
    await expect(page.getByTestId('ui-panel')).toBeVisible();
    await screenshot(page, 'ai-indicator-running');
    release({ base64: PNG, mimeType: 'image/png', width: 2, height: 2 });
    expect((await pending).isError).toBeFalsy();
    await expect(indicator).not.toHaveAttribute('data-state', 'running');

    await page.getByRole('button', { name: 'Following agent · Stop' }).click();
    await expect(page.getByRole('button', { name: 'Follow agent' })).toBeVisible();
    await page.getByRole('button', { name: /Call history/ }).click();
    await expect(rows).toHaveCount(3);
    await rows.nth(0).click();
    await expect(page.getByTestId('call-detail').getByRole('img', { name: /image\/png/ })).toBeVisible();
    await screenshot(page, 'history-image-detail');
    // A client that ends its MCP session (HTTP DELETE) is no longer shown as connected.
    await (mcp.client.transport as StreamableHTTPClientTransport).terminateSession();
    await expect(indicator).toHaveText('No AI agent connected');
  } finally {
    await mcp.close();
  }
});
