import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { connect } from '../agent/connection.js';
import { network } from '../plugins/network/agent/index.js';
import { type RunningInspector, startInspector } from './support/inspector.js';
import { buildRenderer, mcpClient, openWindow, screenshot } from './window.helpers.js';

// The history view's "Save as test…": an AI agent's calls, filtered by its client, become a test
// file shown in the dialog, saved as a download; the dialog works by keyboard and passes axe.

let inspector: RunningInspector;
let server: Server;
let origin: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await buildRenderer();
  inspector = await startInspector();
  server = createServer((req, res) => res.writeHead(req.url === '/api/cart' ? 500 : 200).end(`hello ${req.url}`));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  server?.close();
  await inspector?.stop();
});

test('the calls an agent made become a test file, shown before it is saved', async ({ page }) => {
  const net = network({ ignoreUrls: [inspector.info.mcpUrl] });
  const agent = connect({ url: inspector.info.debuggeeUrl, app: { id: 'com.e2e.shop', name: 'Shop' }, plugins: [net] });
  try {
    await expect.poll(() => agent.status.state).toBe('connected');
    await (await fetch(`${origin}/api/cart`)).text();
    const mcp = await mcpClient(inspector, 'claude-code');
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      (await mcp.client.callTool({ name, arguments: args })).structuredContent as {
        transactions: { id: string }[];
      };
    await expect
      .poll(async () => (await call('network_list_transactions', { status: 500 })).transactions.length)
      .toBe(1);
    const [failing] = (await call('network_list_transactions', { status: 500 })).transactions;
    await call('network_get_transaction', { id: failing!.id });
    await mcp.close();
    const other = await mcpClient(inspector, 'someone-else');
    await other.client.callTool({ name: 'network_get_mock_config', arguments: {} });
    await other.close();

    await page.setViewportSize({ width: 1440, height: 900 });
    await openWindow(page, inspector);
    await page.getByRole('button', { name: /Call history/ }).click();
    await page.getByRole('combobox', { name: 'Client' }).selectOption({ label: 'claude-code 0.9.0' });
    await page.getByRole('button', { name: 'Save as test…' }).click();
    const dialog = page.getByTestId('save-as-test');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('save-test-count')).toContainText(/^\d+ of \d+ calls shown$/);

    // By keyboard alone: Tab walks the dialog's fields (a date field's parts one by one), the arrow
    // keys pick Playwright, Enter makes the test.
    const tabTo = async (target: ReturnType<typeof dialog.getByLabel>) => {
      for (let i = 0; i < 20 && !(await target.evaluate((e) => e === document.activeElement)); i++)
        await page.keyboard.press('Tab');
      await expect(target).toBeFocused();
    };
    await dialog.getByLabel('From').focus();
    await tabTo(dialog.getByLabel('To'));
    await tabTo(dialog.getByRole('radio', { name: /Vitest/ }));
    await page.keyboard.press('ArrowDown');
    await expect(dialog.getByRole('radio', { name: /Playwright/ })).toBeChecked();
    await tabTo(dialog.getByRole('button', { name: 'Make the test' }));
    await page.keyboard.press('Enter');
    const code = dialog.getByTestId('save-test-code');
    await expect(code).toHaveValue(/import \{ expect, test \} from 'porthole\/playwright';/);
    await expect(code).toHaveValue(/porthole\.network\.getTransaction\(\{\s*id: r\d+\.transactions\.find\(/);
    await expect(code).not.toHaveValue(/getMockConfig/);
    await expect(dialog.getByTestId('save-test-summary')).toContainText('recorded-session.spec.ts: replays');
    await screenshot(page, 'history-save-as-test');

    for (const theme of ['light', 'dark']) {
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
      const results = await new AxeBuilder({ page })
        .include('[data-testid="save-as-test"]')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      await page.bringToFront();
      const bad = results.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
      expect(bad.map((v) => `${theme}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    }

    const downloading = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Save file' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('recorded-session.spec.ts');
    const saved = readFileSync(await download.path(), 'utf8');
    expect(saved).toBe(await code.inputValue());

    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  } finally {
    agent.disconnect();
    net.dispose();
  }
});
