import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { type ServedPage, serveDebuggeePage } from './support/debuggee-page.js';
import { type RunningInspector, startInspector } from './support/inspector.js';
import { buildRenderer, mcpClient, openWindow, screenshot } from './window.helpers.js';

// axe-core over every view of the window, in both themes: no critical or serious violation.
// One inspector, one browser debuggee, a few requests and MCP calls; about 20 s.

let inspector: RunningInspector;
let served: ServedPage;

test.beforeAll(async () => {
  await buildRenderer();
  inspector = await startInspector();
  served = await serveDebuggeePage({
    '/api/cart': (_req, res) =>
      void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items: [{ sku: 'A-1' }] })),
    '/api/missing': (_req, res) => void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such thing'),
  });
});

test.afterAll(async () => {
  await served?.close();
  await inspector?.stop();
});

interface Found {
  view: string;
  theme: string;
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

async function scan(page: Page, view: string, theme: string, found: Found[]): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  // The builder finishes its run in a page of its own; the window must be in front again to paint.
  await page.bringToFront();
  for (const v of results.violations) {
    if (v.impact !== 'critical' && v.impact !== 'serious') continue;
    found.push({
      view,
      theme,
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    });
  }
}

test('every view passes axe-core with no critical or serious violation, light and dark', async ({ page, context }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWindow(page, inspector);
  const found: Found[] = [];
  const views: [string, () => Promise<void>][] = [];
  const view = (name: string, open: () => Promise<void>) => views.push([name, open]);

  // The empty window first, before any app connects.
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => {
      localStorage.setItem('porthole.theme', t);
    }, theme);
    await page.reload();
    await expect(page.getByTestId('connect-help')).toBeVisible();
    await scan(page, 'empty', theme, found);
  }

  const debuggee = await context.newPage();
  await debuggee.goto(
    served.pageUrl({ inspector: inspector.info.debuggeeUrl, plugins: ['example', 'network'], appName: 'Acme Shop' }),
  );
  await expect(debuggee.locator('#status')).toHaveText('connected');
  for (const path of ['/api/cart?page=2', '/api/missing', '/api/cart']) {
    await debuggee.evaluate((p) => fetch(p).then((r) => r.text()), path);
  }
  const mcp = await mcpClient(inspector, 'axe-agent');
  let asking: Promise<unknown> | undefined;
  await mcp.client.callTool({ name: 'example_send_ping', arguments: {} });
  await mcp.client.callTool({ name: 'example_send_ping', arguments: { sessionId: 'nope' } });
  await page.bringToFront();

  const net = page.getByTestId('network-panel');
  let replayed = false;
  const detail = page.getByTestId('network-detail');
  view('example panel', async () => {
    await page.getByTestId('session').first().click();
    await page.getByTestId('plugin').filter({ hasText: 'Example' }).click();
    await expect(page.getByTestId('example-panel')).toBeVisible();
  });
  view('network requests', async () => {
    await page.getByTestId('plugin').filter({ hasText: 'Network' }).click();
    // Three requests from the page, and the replay made in the 'network replayed request' view.
    await expect(net.getByTestId('network-row')).toHaveCount(replayed ? 4 : 3);
  });
  view('network suggestions', async () => {
    await net.getByRole('combobox', { name: 'Filter requests' }).fill('status:');
    await expect(net.getByRole('listbox', { name: 'Suggestions' })).toBeVisible();
  });
  view('network no match', async () => {
    await net.getByRole('combobox', { name: 'Filter requests' }).fill('status:5xx method:POST');
    await expect(net.getByTestId('network-no-match')).toBeVisible();
    await net.getByRole('combobox', { name: 'Filter requests' }).fill('');
  });
  view('network columns menu', async () => {
    await net.getByRole('button', { name: 'Columns' }).click();
    await expect(page.getByRole('menu', { name: 'Columns' })).toBeVisible();
  });
  for (const tab of ['Headers', 'Payload', 'Response', 'Timing', 'Agent view']) {
    view(`network detail ${tab}`, async () => {
      await page.keyboard.press('Escape');
      await net.getByTestId('network-row').first().click();
      await detail.getByRole('tab', { name: tab }).click();
      await expect(detail.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
    });
  }
  view('network replay form', async () => {
    await page.keyboard.press('Escape');
    await net.getByTestId('network-row').first().click();
    await detail.getByRole('button', { name: 'Edit and resend' }).click();
    const form = detail.getByRole('form', { name: 'Edit and resend' });
    await form.getByLabel('URL').fill('not a url');
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(form.getByLabel('URL')).toHaveAttribute('aria-invalid', 'true');
  });
  view('network replayed request', async () => {
    await page.keyboard.press('Escape');
    if (!replayed) {
      await net.getByTestId('network-row').first().click();
      await detail.getByRole('button', { name: 'Replay', exact: true }).click();
      replayed = true;
    } else {
      await net.getByTestId('network-row').nth(3).click();
    }
    await expect(detail.getByTestId('replay-of')).toContainText('Replay of GET /api/cart?page=2');
  });
  view('network mocks', async () => {
    await net.getByRole('tab', { name: /Mocks/ }).click();
    await page.getByRole('button', { name: 'New rule' }).click();
    await expect(page.getByRole('form', { name: 'New mock rule' })).toBeVisible();
  });
  view('mcp', async () => {
    await page.getByRole('button', { name: /MCP server/ }).click();
    await expect(page.getByTestId('mcp-view')).toBeVisible();
  });
  view('tools', async () => {
    await page.getByRole('button', { name: /^Tools/ }).click();
    await expect(page.getByTestId('tool-detail')).toBeVisible();
  });
  view('permissions', async () => {
    await page.getByRole('button', { name: /^Permissions/ }).click();
    await expect(page.getByTestId('permissions-view')).toBeVisible();
  });
  view('permission prompt', async () => {
    await page.locator('[data-tool="network_clear_transactions"]').getByRole('radio', { name: 'Ask me' }).check();
    asking = mcp.client.callTool({ name: 'network_clear_transactions', arguments: {} }).catch(() => undefined);
    await expect(page.getByRole('dialog')).toBeVisible();
  });
  view('permission prompt answered', async () => {
    await page.getByRole('dialog').getByRole('button', { name: 'Deny' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await asking;
    await page.getByRole('button', { name: 'Reset to defaults' }).click();
  });
  view('history', async () => {
    await page.getByRole('button', { name: /Call history/ }).click();
    const pings = page.getByTestId('call-row').filter({ hasText: 'example_send_ping' });
    await expect(pings).toHaveCount(2);
    await pings.first().click();
    await expect(page.getByTestId('call-detail')).toContainText('nope');
  });

  try {
    for (const theme of ['light', 'dark']) {
      const toggle = page.getByRole('button', { name: `Switch to the ${theme} theme` });
      if (await toggle.isVisible()) await toggle.click();
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      for (const [name, open] of views) {
        await open();
        await scan(page, name, theme, found);
      }
      await screenshot(page, `a11y-last-view-${theme}`);
    }
  } finally {
    await mcp.close();
  }
  expect(
    found,
    found.map((f) => `${f.theme} ${f.view}: ${f.impact} ${f.id} (${f.help}) at ${f.targets.join(' | ')}`).join('\n'),
  ).toEqual([]);
});
