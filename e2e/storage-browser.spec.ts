import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type Browser, chromium, expect, type Page, test } from '@playwright/test';
import { connectMcpClient } from '../electron/host/mcp/mcp-testing.js';
import { startTestCore } from '../electron/host/testing.js';
import { type DebuggeeWindow, type ServedPage, serveDebuggeePage } from './support/debuggee-page.js';
import { type RunningInspector, startInspector } from './support/inspector.js';
import { buildRenderer, mcpClient, openWindow, screenshot } from './window.helpers.js';

// The storage plugin in a real Chromium page that fills every web area (a 5,000-record IndexedDB
// store, a cookie, Cache Storage…), driven by an outside MCP SDK client over HTTP; writes are asked
// in a real window and allowed there. The page's own storage calls give the same results with and
// without the plugin.

type Result = CallToolResult & { structuredContent?: Record<string, unknown> };
type Demo = DebuggeeWindow['porthole']['storageDemo'];
const textOf = (r: Result) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');

let served: ServedPage;
let inspector: RunningInspector;

test.beforeAll(async () => {
  await buildRenderer();
  served = await serveDebuggeePage();
});
test.afterAll(async () => {
  await served?.close();
});
test.beforeEach(async () => {
  inspector = await startInspector();
});
test.afterEach(async () => {
  await inspector?.stop();
});

async function openApp(browser: Browser, plugins: string[], appId = 'com.porthole.storage'): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(served.pageUrl({ inspector: inspector.info.debuggeeUrl, plugins, appId, appName: 'Shop' }));
  await expect(page.locator('#status')).toHaveText('connected');
  return page;
}

const demo = <T>(page: Page, run: (d: Demo) => T | Promise<T>): Promise<T> =>
  page.evaluate(`(${run.toString()})(window.porthole.storageDemo)`) as Promise<T>;

test('list, page 5,000 records, read, write with Ask answered in the window, remove', async ({ page, browser }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWindow(page, inspector);
  const app = await openApp(browser, ['storage']);
  await demo(app, (d) => d.fill());
  const mcp = await mcpClient(inspector, 'e2e-agent');
  const call = (name: string, args: Record<string, unknown> = {}) =>
    mcp.client.callTool({ name, arguments: args }) as Promise<Result>;
  try {
    // Every area, with counts.
    const areas = (await call('storage_list')).structuredContent!.areas as {
      area: string;
      count?: number;
      note?: string;
    }[];
    const byName = Object.fromEntries(areas.map((a) => [a.area, a]));
    expect(Object.keys(byName)).toEqual([
      'localStorage',
      'sessionStorage',
      'cookies',
      'indexedDB/shop/files',
      'indexedDB/shop/orders',
      'cacheStorage/v1',
    ]);
    expect(byName['indexedDB/shop/orders']).toMatchObject({
      count: 5000,
      note: 'database shop version 1; keys "id"; indexes: byCustomer ("customer")',
    });
    expect(byName.cookies!.note).toMatch(/HttpOnly cookies exist but are invisible to the page/);
    expect(byName['cacheStorage/v1']!.count).toBe(2);

    // Page through the whole store; the page removes a record meanwhile.
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = await call('storage_list', { area: 'indexedDB/shop/orders', ...(cursor ? { cursor } : {}) });
      expect(answer.isError ?? false, textOf(answer)).toBe(false);
      expect(textOf(answer).length).toBeLessThan(25_000);
      const content = answer.structuredContent as { keys: { key: string; size: number }[]; cursor?: string };
      seen.push(...content.keys.map((k) => k.key));
      cursor = content.cursor;
      if (++pages === 3) {
        await app.evaluate(async () => {
          const db = await new Promise<IDBDatabase>((resolve) => {
            const r = indexedDB.open('shop');
            r.onsuccess = () => resolve(r.result);
          });
          db.transaction('orders', 'readwrite').objectStore('orders').delete(4000);
          db.close();
        });
      }
    } while (cursor);
    expect(seen).toHaveLength(4999);
    expect(new Set(seen).size).toBe(4999);
    expect(seen[0]).toBe('1');
    expect(seen).not.toContain('4000');

    // One record by key, and a range, paged.
    const order = await call('storage_get', { area: 'indexedDB/shop/orders', key: '42' });
    expect(order.structuredContent).toMatchObject({
      found: true,
      value: {
        id: 42,
        customer: 'c42',
        placed: { $: 'date', v: '2024-01-01T00:42:00.000Z' },
        lines: [{ sku: 'A-42', qty: 1, price: 9.99 }],
      },
    });
    const range = await call('storage_get', { area: 'indexedDB/shop/orders', key: '10', to: '40' });
    const first = range.structuredContent as { records: { key: string }[]; cursor: string };
    expect(first.records.map((r) => r.key)).toEqual(Array.from({ length: 20 }, (_, i) => String(10 + i)));
    const rest = await call('storage_get', {
      area: 'indexedDB/shop/orders',
      key: '10',
      to: '40',
      cursor: first.cursor,
    });
    expect((rest.structuredContent as { records: { key: string }[] }).records.map((r) => r.key).at(-1)).toBe('40');

    // Binary values are described.
    const logo = await call('storage_get', { area: 'indexedDB/shop/files', key: 'logo.png' });
    expect(logo.structuredContent).toMatchObject({
      value: { $: 'binary', cls: 'Blob', type: 'image/png', size: 10, head: 'iVBORw0KGgoAAA==' },
    });
    const raw = await call('storage_get', { area: 'indexedDB/shop/files', key: 'raw' });
    expect(raw.structuredContent).toMatchObject({
      value: { $: 'binary', cls: 'ArrayBuffer', size: 5, head: 'AQIDBAU=' },
    });
    const cached = await call('storage_get', { area: 'cacheStorage/v1', key: `${served.url}api/menu` });
    expect(cached.structuredContent).toMatchObject({ value: { items: ['tea', 'cake'] }, meta: { status: 200 } });

    // Web storage: JSON parsed, secrets hidden, long text in slices.
    expect((await call('storage_get', { area: 'localStorage', key: 'settings' })).structuredContent).toMatchObject({
      value: { theme: 'dark', volume: 3 },
    });
    const token = await call('storage_get', { area: 'localStorage', key: 'auth.token' });
    expect(token.structuredContent).toMatchObject({ text: '[redacted]' });
    const cookie = await call('storage_get', { area: 'cookies', key: 'sessionid' });
    expect(cookie.structuredContent).toMatchObject({ text: '[redacted]', meta: { path: '/' } });
    const big = await call('storage_get', { area: 'localStorage', key: 'big' });
    expect(big.structuredContent).toMatchObject({
      cursor: 'o20000',
      next: expect.stringMatching(/80,000 more characters/),
    });

    // A write asks the person at the window; once allowed, the page reads the new value.
    const pending = call('storage_set', {
      area: 'localStorage',
      key: 'settings',
      value: '{"theme":"light","volume":3}',
    });
    await page.bringToFront();
    const dialog = page.getByRole('dialog', { name: /e2e-agent 0\.9\.0 wants to run storage_set/ });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`Writes "settings" in the app's localStorage`);
    await screenshot(page, 'storage-ask');
    await dialog.getByRole('button', { name: 'Allow for this session' }).click();
    const set = await pending;
    expect(set.isError ?? false, textOf(set)).toBe(false);
    expect(set.structuredContent).toEqual({
      summary: expect.any(String),
      before: { key: 'settings', found: true, size: 27, value: { theme: 'dark', volume: 3 } },
      after: { key: 'settings', found: true, size: 28, value: { theme: 'light', volume: 3 } },
    });
    expect(await app.evaluate(() => localStorage.getItem('settings'))).toBe('{"theme":"light","volume":3}');

    const written = await call('storage_set', {
      area: 'indexedDB/shop/orders',
      key: '7',
      value: JSON.stringify({ id: 7, customer: 'changed', lines: [] }),
    });
    expect(written.structuredContent).toMatchObject({ after: { key: '7', value: { id: 7, customer: 'changed' } } });
    expect(await demo(app, (d) => d.readOrder(7))).toEqual({ id: 7, customer: 'changed', lines: [] });
    const notJson = await call('storage_set', { area: 'indexedDB/shop/orders', key: '7', value: 'not json' });
    expect(notJson.isError).toBe(true);
    expect(textOf(notJson)).toMatch(/IndexedDB values are written as JSON/);

    // A full localStorage: the write is refused and explained; nothing changed.
    const filled = await demo(app, (d) => d.fillQuota());
    expect(filled).toBeGreaterThan(1_000_000);
    const full = await call('storage_set', { area: 'localStorage', key: 'one-more', value: 'x'.repeat(100_000) });
    expect(full.isError).toBe(true);
    expect(textOf(full)).toMatch(/the app's storage is full \(QuotaExceededError.*nothing was written/);
    expect(await app.evaluate(() => localStorage.getItem('one-more'))).toBeNull();
    await demo(app, (d) => d.freeQuota());

    // Removing is the same change tool (allowed for this session above): a cookie, then a whole area.
    const removing = call('storage_set', { area: 'cookies', key: 'theme', remove: true });
    expect((await removing).structuredContent).toMatchObject({ removed: 1, before: { key: 'theme', text: 'dark' } });
    expect(await app.evaluate(() => document.cookie)).not.toMatch(/theme=/);
    // The agent's own resume ticket is in sessionStorage too (porthole.session.<app id>), hidden from agents.
    const ticket = await call('storage_get', { area: 'sessionStorage', key: 'porthole.session.com.porthole.storage' });
    expect(ticket.structuredContent).toMatchObject({ found: true, value: '[redacted]' });
    const cleared = await call('storage_set', { area: 'sessionStorage', clear: true });
    expect(cleared.structuredContent).toMatchObject({ removed: 3, before: { count: 3 } });
    expect(await app.evaluate(() => sessionStorage.length)).toBe(0);
  } finally {
    await mcp.close();
  }
});

test('the page’s own storage calls answer the same with and without the plugin', async ({ browser }) => {
  const without = await openApp(browser, ['example'], 'com.porthole.plain');
  const withPlugin = await openApp(browser, ['storage'], 'com.porthole.storage');
  const expected = await demo(without, (d) => d.script());
  expect(expected.find((line) => line.startsWith('quota'))).toMatch(/^quota threw QuotaExceededError/);
  expect(await demo(withPlugin, (d) => d.script())).toEqual(expected);
});

test('storage that throws on access (a sandboxed frame): each area says why; nothing breaks', async () => {
  // A core of this process that accepts the frame's opaque origin ("null"), which the CLI never
  // allows, and a Chromium that lets such a frame reach loopback (Local Network Access blocks it).
  const core = await startTestCore({ allowedOrigins: ['null'] });
  const own = await chromium.launch({
    executablePath: test.info().project.use.launchOptions?.executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-features=LocalNetworkAccessChecks'],
  });
  const context = await own.newContext();
  // The frame's opaque origin loads the page's module scripts in CORS mode.
  await context.route(`${served.url}**`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
  });
  await context.route(`${served.url}sandbox.html`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>sandbox</title><iframe sandbox="allow-scripts" src="${served.pageUrl({
        inspector: core.urls.debuggeeUrl,
        plugins: ['storage'],
        appId: 'com.porthole.sandboxed',
      })}"></iframe>`,
    }),
  );
  const page = await context.newPage();
  await page.goto(`${served.url}sandbox.html`);
  await expect(page.frameLocator('iframe').locator('#status')).toHaveText('connected');
  const mcp = await connectMcpClient('http', {
    mcpUrl: core.urls.mcpUrl,
    dataDir: core.dataDir,
    token: core.core.mcp.token(),
  });
  try {
    const listed = (await mcp.client.callTool({ name: 'storage_list', arguments: {} })) as Result;
    const areas = listed.structuredContent!.areas as { area: string; error?: string }[];
    expect(areas.map((a) => a.area)).toEqual([
      'localStorage',
      'sessionStorage',
      'cookies',
      'indexedDB',
      'cacheStorage',
    ]);
    for (const area of areas)
      expect(area.error, area.area).toMatch(/cannot be read here \(SecurityError: .*sandboxed frame/);
    const read = (await mcp.client.callTool({
      name: 'storage_get',
      arguments: { area: 'localStorage', key: 'x' },
    })) as Result;
    expect(read.isError).toBe(true);
    expect(textOf(read)).toMatch(/SecurityError/);
  } finally {
    await mcp.close();
    await own.close();
    await core.stop();
  }
});
