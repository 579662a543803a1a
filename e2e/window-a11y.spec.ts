import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { type ServedPage, serveDebuggeePage } from './support/debuggee-page.js';
import { type RunningInspector, startInspector } from './support/inspector.js';
import { buildRenderer, mcpClient, openWindow, screenshot } from './window.helpers.js';

// axe-core over every view of the window, in both themes: no critical or serious violation.
// One inspector, one browser debuggee with every built-in plugin, a few requests, console messages
// and MCP calls. Run time is bounded: each view is opened once per theme in one page, and scanned
// in its main area only (the sidebar and top bar are scanned whole once per theme).

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

async function scan(page: Page, view: string, theme: string, found: Found[], whole = false): Promise<void> {
  // axe.run in the window itself (the window has no frames of other origins): by default the builder
  // finishes each run in a new blank page, which costs a page and a second axe-core per scan.
  const builder = new AxeBuilder({ page }).setLegacyMode().withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  // A modal dialog lives outside <main>; a view's scan covers its main area (and an open dialog).
  if (!whole) builder.include('main').include('[role="dialog"]').include('[role="menu"]');
  const results = await builder.analyze();
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
  // About 37 views × 2 themes; on a quiet machine well under the limit, on a loaded one axe takes seconds per scan.
  test.setTimeout(600_000);
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
    served.pageUrl({
      inspector: inspector.info.debuggeeUrl,
      plugins: ['example', 'network', 'console', 'react', 'state', 'storage', 'ui', 'actions'],
      appName: 'Acme Shop',
    }),
  );
  await expect(debuggee.locator('#status')).toHaveText('connected');
  for (const path of ['/api/cart?page=2', '/api/missing', '/api/cart']) {
    await debuggee.evaluate((p) => fetch(p).then((r) => r.text()), path);
  }
  await debuggee.evaluate(() => {
    (window as unknown as { porthole: { consoleDemo: { logAll(): void } } }).porthole.consoleDemo.logAll();
    localStorage.setItem('cart', JSON.stringify({ items: 2 }));
  });
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
  view('network initiator and overview zoom', async () => {
    await page.keyboard.press('Escape');
    await net.getByTestId('network-row').first().click();
    await detail.getByRole('tab', { name: 'Initiator' }).click();
    await expect(detail.getByTestId('network-initiator')).toBeVisible();
    await page.keyboard.press('Escape');
    const from = net.getByRole('slider', { name: 'Zoom from' });
    await from.focus();
    await page.keyboard.press('Shift+ArrowRight');
    await expect(net.getByTestId('network-zoom')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(net.getByTestId('network-zoom')).toHaveCount(0);
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
  view('network HAR session', async () => {
    await page.getByTestId('session').first().click();
    await page.getByTestId('plugin').filter({ hasText: 'Network' }).click();
    if ((await page.getByTestId('session').count()) < 2) {
      await net.getByLabel('HAR file').setInputFiles({
        name: 'shop.har',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(HAR)),
      });
    } else {
      await page.getByTestId('session').last().click();
    }
    await expect(page.getByTestId('offline-banner')).toBeVisible();
    await expect(page.getByTestId('network-row')).toHaveCount(1);
  });
  const panel = (title: RegExp, testId: string) =>
    view(`${testId}`, async () => {
      await page.getByTestId('session').first().click();
      await page.getByTestId('plugin').filter({ hasText: title }).click();
      await expect(page.getByTestId(testId)).toBeVisible();
    });
  panel(/^Console/, 'console-panel');
  panel(/^React/, 'react-panel');
  panel(/^State/, 'state-panel');
  panel(/^Storage/, 'storage-panel');
  panel(/^UI/, 'ui-panel');
  panel(/^Actions/, 'actions-panel');
  view('timeline', async () => {
    await page.getByTestId('session').first().click();
    await page.getByTestId('timeline-item').click();
    await expect(page.getByTestId('timeline-row').filter({ hasText: 'payment failed' })).toHaveCount(1);
    await page.getByTestId('timeline-grid').focus();
    await page.keyboard.press('End');
  });
  view('mcp', async () => {
    await page.getByRole('button', { name: /MCP server/ }).click();
    await expect(page.getByTestId('mcp-view')).toBeVisible();
  });
  view('tools', async () => {
    await page.getByRole('button', { name: /^Tools/ }).click();
    await expect(page.getByTestId('tool-detail')).toBeVisible();
  });
  view('tool result', async () => {
    await page.getByRole('searchbox', { name: 'Search tools' }).fill('example_send_ping');
    await page.getByRole('option', { name: /example_send_ping/ }).click();
    await page.getByTestId('tool-detail').getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Open in the call history' })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search tools' }).fill('');
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
    // Two from the MCP client, and one per 'tool result' view from the window's tool runner.
    await expect.poll(() => pings.count()).toBeGreaterThanOrEqual(3);
    await pings
      .filter({ hasText: /Failed/ })
      .first()
      .click();
    await expect(page.getByTestId('call-detail')).toContainText('nope');
  });

  // Last, as they reload the app: page loads as headers in Network (one opened, one selected) and the Console.
  view('network loads', async () => {
    await debuggee.reload();
    await expect(debuggee.locator('#status')).toHaveText('connected');
    await debuggee.evaluate(() => fetch('/api/cart').then((r) => r.text()));
    await page.bringToFront();
    await page.getByTestId('session').first().click();
    await page.getByTestId('plugin').filter({ hasText: 'Network' }).click();
    await net.getByRole('tab', { name: /Requests/ }).click();
    await expect(net.getByTestId('network-load')).toHaveCount(2);
    await net.getByTestId('network-table').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await expect(net.getByTestId('network-load').first()).toHaveAttribute('data-open', 'true');
  });
  view('console loads', async () => {
    await page
      .getByTestId('plugin')
      .filter({ hasText: /^Console/ })
      .click();
    await expect(page.getByTestId('console-row').filter({ hasText: 'Before load 2' })).toHaveCount(1);
  });

  // Each view is opened once and scanned in both themes: switching the theme only swaps the CSS
  // variables (the toggle's own effect is tested in window.spec.ts), so the view stays as it is.
  const themed = async (theme: string) => {
    await page.evaluate((t) => {
      document.documentElement.dataset.theme = t;
    }, theme);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  };
  try {
    // A11Y_VIEWS=name,name scans only those views (a quick check of one view while working on it).
    const only = process.env.A11Y_VIEWS?.split(',');
    for (const theme of only ? [] : ['light', 'dark']) {
      await themed(theme);
      await scan(page, 'whole window', theme, found, true);
    }
    for (const [name, open] of views) {
      if (only && !only.includes(name)) continue;
      await open();
      for (const theme of ['light', 'dark']) {
        await themed(theme);
        await scan(page, name, theme, found);
      }
    }
    await screenshot(page, 'a11y-last-view-dark');
  } finally {
    await mcp.close();
  }
  expect(
    found,
    found.map((f) => `${f.theme} ${f.view}: ${f.impact} ${f.id} (${f.help}) at ${f.targets.join(' | ')}`).join('\n'),
  ).toEqual([]);
});

/** A HAR file of one request, as DevTools saves it. */
const HAR = {
  log: {
    version: '1.2',
    creator: { name: 'a11y', version: '1' },
    entries: [
      {
        startedDateTime: '2026-01-05T10:00:00.000Z',
        time: 12,
        request: {
          method: 'GET',
          url: 'http://shop.test/api/cart',
          httpVersion: 'HTTP/1.1',
          headers: [{ name: 'accept', value: 'application/json' }],
          queryString: [],
          cookies: [],
          headersSize: -1,
          bodySize: 0,
        },
        response: {
          status: 200,
          statusText: 'OK',
          httpVersion: 'HTTP/1.1',
          headers: [{ name: 'content-type', value: 'application/json' }],
          cookies: [],
          content: { size: 2, mimeType: 'application/json', text: '{}' },
          redirectURL: '',
          headersSize: -1,
          bodySize: 2,
        },
        cache: {},
        timings: { send: 1, wait: 10, receive: 1 },
      },
    ],
  },
};
