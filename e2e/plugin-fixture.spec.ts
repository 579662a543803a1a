import { expect, type Page, test } from '@playwright/test';
import { connect } from '../agent/index.js';
import { builtinPlugins } from '../electron/host/core.js';
import { connectMcpClient } from '../electron/host/mcp/mcp-testing.js';
import { startTestCore } from '../electron/host/testing.js';
import { flags } from './fixtures/plugins/flags/agent/index.js';
import * as fixturePlugins from './fixtures/plugins/index.js';
import { buildFixtureWindow, buildRenderer, FIXTURE_WINDOW_DIR, openWindow, screenshot } from './window.helpers.js';

// The plugin docs/plugins.md builds (e2e/fixtures/plugins/flags/), added to a core as one folder and
// one line, as a new built-in plugin would be: MCP lists its tool; the window lists the plugin, shows
// its panel when the build has it (found by folder), and runs its tool from the tools browser.

async function startWithFlags(rendererDir?: string) {
  const t = await startTestCore({
    plugins: [...builtinPlugins, ...Object.values(fixturePlugins)],
    ui: { rendererDir },
  });
  const featureFlags = flags({ darkMode: false, newCheckout: true });
  const app = connect({
    url: t.urls.debuggeeUrl,
    app: { id: 'com.acme.shop', name: 'Acme Shop' },
    device: { id: 'e2e-node', name: 'build box', platform: 'node' },
    plugins: [featureFlags],
  });
  return {
    t,
    featureFlags,
    async stop() {
      app.disconnect();
      await t.stop();
    },
  };
}

async function runSetFlag(page: Page, name: string) {
  await page.getByRole('button', { name: /^Tools/ }).click();
  await page.getByRole('searchbox', { name: 'Search tools' }).fill('flag');
  await expect(page.getByRole('option')).toHaveCount(1);
  await page.getByRole('option', { name: /flags_set/ }).click();
  const detail = page.getByTestId('tool-detail');
  await detail.getByRole('textbox', { name: /name/ }).fill(name);
  await detail.getByRole('checkbox', { name: 'on' }).check();
  await detail.getByRole('button', { name: 'Run' }).click();
  return detail.getByRole('region', { name: 'Result', exact: true });
}

test('a plugin from a fixture folder is listed over MCP, in the window with its panel, and runs from the tools browser', async ({
  page,
}) => {
  await buildFixtureWindow();
  const { t, featureFlags, stop } = await startWithFlags(FIXTURE_WINDOW_DIR);
  const mcp = await connectMcpClient('http', { mcpUrl: t.urls.mcpUrl, dataDir: t.dataDir, token: t.core.mcp.token() });
  try {
    const { tools } = await mcp.client.listTools();
    expect(tools.find((tool) => tool.name === 'flags_set')).toMatchObject({
      inputSchema: { properties: { name: {}, on: {}, sessionId: {} } },
      outputSchema: { properties: { name: { type: 'string' }, on: { type: 'boolean' } } },
    });

    await openWindow(page, { info: t.urls });
    await page.getByTestId('session').click();
    await expect(page.getByTestId('plugin')).toHaveText(['Flags1.0.0']);
    const panel = page.getByTestId('flags-panel');
    await expect(panel.getByRole('listitem')).toHaveText(['darkMode: off', 'newCheckout: on']);
    await screenshot(page, 'fixture-plugin-panel');

    const result = await runSetFlag(page, 'darkMode');
    await expect(result).toHaveAttribute('data-failed', 'false');
    await expect(result.getByRole('region', { name: 'Result JSON' })).toContainText(/on: true/);
    expect(featureFlags.isOn('darkMode')).toBe(true);
    await screenshot(page, 'fixture-plugin-tool');

    await page.getByTestId('session').click();
    await expect(panel.getByRole('listitem')).toHaveText(['darkMode: on', 'newCheckout: on']);
  } finally {
    await mcp.close();
    await stop();
  }
});

test("the product's window, which does not ship the fixture's panel, still lists the plugin and its tool", async ({
  page,
}) => {
  await buildRenderer();
  const { t, stop } = await startWithFlags();
  try {
    await openWindow(page, { info: t.urls });
    await page.getByTestId('session').click();
    await expect(page.getByTestId('plugin')).toHaveText(['Flags1.0.0']);
    await expect(page.getByRole('heading', { name: 'The flags plugin has no panel here' })).toBeVisible();
    await page.getByRole('button', { name: 'flags_set' }).click();
    await expect(page.getByTestId('tool-detail')).toContainText('Switch a feature flag');
    await expect(await runSetFlag(page, 'nope')).toContainText(
      'the app has no flag "nope"; its flags: darkMode, newCheckout',
    );
  } finally {
    await stop();
  }
});
