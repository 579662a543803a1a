import { createReadStream, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { contentTypeOf, resolveRendererFile } from '../electron/host/ui-bridge/static-ui.js';
import type { InspectResult, RendersResult } from '../plugins/react/protocol.js';
import { ROOT, type RunningInspector, startInspector } from './support/inspector.js';
import { buildRenderer, mcpClient, openWindow, screenshot } from './window.helpers.js';

// The react plugin end to end: a Vite-built React 19 app (development build, as `vite build --mode
// development` makes it) in Chromium, the real inspector process, an outside MCP SDK client, and the
// window's React panel. The same app without Porthole (plain.html) is the comparison.

const APP = join(ROOT, 'e2e/fixtures/react-app');
const OUT = join(ROOT, 'out/e2e-react-app');
let built: Promise<unknown> | undefined;

const buildShop = () =>
  (built ??= build({
    root: APP,
    base: './',
    mode: 'development',
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    define: { 'process.env.NODE_ENV': '"development"' },
    build: {
      outDir: OUT,
      emptyOutDir: true,
      minify: false,
      sourcemap: true,
      rollupOptions: { input: { main: join(APP, 'index.html'), plain: join(APP, 'plain.html') } },
    },
  }));

async function serveShop() {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/favicon.ico') return void res.writeHead(204).end(); // asked once per origin: not a difference
    const file = resolveRendererFile(OUT, path);
    if (!file) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': contentTypeOf(file) });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let inspector: RunningInspector;
let shop: Awaited<ReturnType<typeof serveShop>>;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await Promise.all([buildRenderer(), buildShop()]);
});
test.beforeEach(async () => {
  inspector = await startInspector();
  shop = await serveShop();
});
test.afterEach(async () => {
  await shop?.close();
  await inspector?.stop();
});

/** Opens a page of the shop and records what it logs. */
async function openShop(page: Page, path: string) {
  const tab = await page.context().newPage();
  const logged: string[] = [];
  tab.on('console', (m) => logged.push(`${m.type()}: ${m.text()}`));
  tab.on('pageerror', (e) => logged.push(`pageerror: ${e.message}`));
  await tab.goto(`${shop.url}${path}`);
  await expect(tab.getByText('0 in cart')).toBeVisible();
  return { tab, logged };
}

/** The same clicks in any copy of the shop; the page's content after each. */
async function shopAround(tab: Page): Promise<string[]> {
  const seen: string[] = [];
  await tab.getByRole('button', { name: 'One more p1' }).click();
  await expect(tab.getByTestId('quantity-p1')).toHaveText('2');
  seen.push(await tab.locator('#root').innerHTML());
  await tab.getByRole('button', { name: 'Add p1 to cart' }).click();
  await expect(tab.getByText('2 in cart')).toBeVisible();
  seen.push(await tab.locator('#root').innerHTML());
  return seen;
}

test('an outside MCP client finds a component, reads its props and state, clicks, and sees why it rendered; the panel shows it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWindow(page, inspector);
  const { tab, logged } = await openShop(
    page,
    `index.html?inspector=${encodeURIComponent(inspector.info.debuggeeUrl)}`,
  );
  await expect(tab).toHaveTitle('shop: connected');

  const mcp = await mcpClient(inspector);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const answer = (await mcp.client.callTool({ name, arguments: args })) as {
      content: { type: string; text?: string }[];
      structuredContent?: unknown;
      isError?: boolean;
    };
    expect(answer.isError ?? false, JSON.stringify(answer.content)).toBe(false);
    return answer;
  };
  const textOf = (a: { content: { text?: string }[] }) => a.content.map((c) => c.text ?? '').join('\n');
  let seen: string[];
  try {
    const tree = textOf(await call('react_tree', { name: 'Quantity' }));
    expect(tree).toMatch(/^react-dom 19\.\S+ \(development\): 1 root, \d+ commits\n/);
    const quantities = [...tree.matchAll(/^ +Quantity #(\S+) ×1$/gm)].map((m) => m[1]!);
    expect(quantities).toHaveLength(3);
    expect(tree).toMatch(/^ +ProductCard key="p1" \[memo\] #\S+ ×1$/m);

    const first = (await call('react_inspect', { id: quantities[0] })).structuredContent as InspectResult;
    expect(first).toMatchObject({ name: 'Quantity', kind: 'function', props: { productId: 'p1' }, renders: 1 });
    expect(first.hooks?.map((h) => h.kind)).toEqual(['state', 'context']);
    expect(first.hooks?.[0]).toEqual({ kind: 'state', value: 1 });
    expect(first.owners.map((o) => o.name)).toEqual(['ProductCard', 'Shop']);
    // where React says the element was made: the owner's JSX, in Shop.tsx through Vite's source map
    const quantityLine =
      readFileSync(join(APP, 'Shop.tsx'), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('<Quantity')) + 1;
    expect(first.source).toMatch(new RegExp(`/e2e/fixtures/react-app/Shop\\.tsx:${quantityLine}:\\d+$`));
    expect(first.stack?.[0]).toBeUndefined();

    const before = (await call('react_renders')).structuredContent as RendersResult;
    await tab.getByRole('button', { name: 'One more p1' }).click();
    await expect(tab.getByTestId('quantity-p1')).toHaveText('2');
    const after = (await call('react_renders', { since: before.commit })).structuredContent as RendersResult;
    expect(after.components).toEqual([
      { id: quantities[0], name: 'Quantity', renders: 1, ms: expect.any(Number), why: { 'hook #0 state': 1 } },
    ]);
    const again = (await call('react_inspect', { id: quantities[0] })).structuredContent as InspectResult;
    expect(again.hooks?.[0]).toEqual({ kind: 'state', value: 2 });

    await tab.getByRole('button', { name: 'Add p1 to cart' }).click();
    await expect(tab.getByText('2 in cart')).toBeVisible();
    const cart = (await call('react_renders', { since: after.commit })).structuredContent as RendersResult;
    // the cart's state, read through its context by the badge and each quantity; the memo cards skip
    expect(cart.components.map((c) => [c.name, c.why]).sort()).toEqual([
      ['CartBadge', { 'context Cart': 1, parent: 1 }],
      ['Quantity', { 'context Cart': 1 }],
      ['Quantity', { 'context Cart': 1 }],
      ['Quantity', { 'context Cart': 1 }],
      ['Shop', { 'hook #0 state': 1 }],
    ]);
    seen = [await tab.locator('#root').innerHTML()];
  } finally {
    await mcp.close();
  }

  // The panel: the tree, search, a selection with its hooks, highlighted in the page.
  await page.bringToFront();
  await page.getByTestId('plugin').filter({ hasText: 'React' }).click();
  const panel = page.getByTestId('react-panel');
  await expect(panel.getByTestId('react-status')).toContainText(/react-dom 19\.\S+ \(development\) · 1 root/);
  await expect(panel.getByTestId('react-node').filter({ hasText: 'Quantity' })).toHaveCount(3);
  await panel.getByTestId('react-search').fill('Cart');
  await expect(panel.getByTestId('react-node').filter({ hasText: 'CartBadge' })).toHaveCount(1);
  await panel.getByTestId('react-search').fill('');
  await panel.getByTestId('react-node').filter({ hasText: 'Quantity' }).first().click();
  const detail = panel.getByTestId('react-inspector');
  await expect(detail.getByRole('heading', { name: 'Quantity' })).toBeVisible();
  await expect(detail.getByTestId('react-hooks')).toContainText('state');
  // mounted, one more, the cart's context
  await expect(detail.getByTestId('react-renders')).toContainText('3 renders counted');
  await expect(tab.locator('[data-porthole-highlight]')).toContainText('Quantity');

  // By keyboard: the focused item moves with the arrows, Enter selects it.
  await panel.getByTestId('react-node').filter({ hasText: 'Quantity' }).first().focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(detail.getByRole('heading', { name: 'ProductCard' })).toBeVisible();
  await screenshot(page, 'react-panel');

  for (const theme of ['dark', 'light']) {
    await page.getByRole('button', { name: `Switch to the ${theme} theme` }).click();
    const results = await new AxeBuilder({ page })
      .include('[data-testid="react-panel"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    await page.bringToFront();
    const bad = results.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
    expect(bad.map((v) => `${theme}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await screenshot(page, `react-panel-${theme}`);
  }

  // Without Porthole the same page shows the same and logs the same.
  const plain = await openShop(page, 'plain.html');
  const plainSeen = await shopAround(plain.tab);
  const withSeen = await shopAroundFresh(page);
  expect(withSeen.seen).toEqual(plainSeen);
  expect(withSeen.logged).toEqual(plain.logged);
  expect(seen[0]).toEqual(plainSeen[1]);
  expect(logged.filter((l) => !l.startsWith('debug'))).toEqual(plain.logged.filter((l) => !l.startsWith('debug')));
});

/** A fresh copy of the shop with Porthole connected, driven as the plain one. */
async function shopAroundFresh(page: Page) {
  const { tab, logged } = await openShop(
    page,
    `index.html?inspector=${encodeURIComponent(inspector.info.debuggeeUrl)}`,
  );
  await expect(tab).toHaveTitle('shop: connected');
  return { seen: await shopAround(tab), logged };
}
