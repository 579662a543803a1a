import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { connectMcpClient } from '../electron/host/mcp/mcp-testing.js';
import type { DebuggeeWindow } from './support/debuggee-page.js';
import { ROOT } from './support/inspector.js';
import { inspectorAndPage, mcpClient, openWindow, screenshot } from './window.helpers.js';

// The console plugin end to end: a real Chromium page bundled by Vite with source maps, the real
// inspector process, MCP over HTTP and stdio, and the window's Console panel.

const env = inspectorAndPage({});
const DEMO = readFileSync(join(ROOT, 'e2e/fixtures/debuggee/console-demo.ts'), 'utf8').split('\n');
const lineOf = (marker: string) => DEMO.findIndex((l) => l.includes(marker)) + 1;

async function openDebuggee(page: Page, plugins = ['console']): Promise<Page> {
  const debuggee = await page.context().newPage();
  await debuggee.goto(
    env.served.pageUrl({ inspector: env.inspector.info.debuggeeUrl, plugins, appName: 'Console Shop' }),
  );
  await expect(debuggee.locator('#status')).toHaveText('connected');
  return debuggee;
}

const demo = (debuggee: Page, call: 'logAll' | 'logRich' | 'crashLater' | 'rejectLater') =>
  debuggee.evaluate((name) => (window as unknown as DebuggeeWindow).porthole.consoleDemo[name](), call);

interface Structured<T> {
  structuredContent?: T;
  isError?: boolean;
}

test('logs and uncaught errors of a Vite-bundled page reach MCP and the panel, mapped to the .ts lines', async ({
  page,
}) => {
  await openWindow(page, env.inspector);
  const debuggee = await openDebuggee(page);
  await demo(debuggee, 'logAll');
  await demo(debuggee, 'crashLater');
  await demo(debuggee, 'rejectLater');

  const mcp = await mcpClient(env.inspector);
  try {
    type Errors = { groups: { text: string; site?: string; count: number; lastSeq: number }[]; latest: number };
    let errors: Errors | undefined;
    await expect(async () => {
      const answer = (await mcp.client.callTool({ name: 'console_list_errors', arguments: {} })) as Structured<Errors>;
      errors = answer.structuredContent;
      expect(errors?.groups.map((g) => g.text)).toEqual(
        expect.arrayContaining([
          'Uncaught TypeError: total is not a number',
          'Uncaught (in promise) Error: cart request failed',
        ]),
      );
      // The answer waits up to 3 s for the page's source maps; a loaded machine may need a second call.
      const uncaught = errors!.groups.find((g) => g.text.startsWith('Uncaught TypeError'))!;
      expect(uncaught.site).toMatch(new RegExp(`console-demo\\.ts:${lineOf('marker: uncaught')}:\\d+$`));
    }).toPass({ timeout: 20_000 });
    const uncaught = errors!.groups.find((g) => g.text.startsWith('Uncaught TypeError'))!;

    const full = (await mcp.client.callTool({
      name: 'console_get_message',
      arguments: { seq: uncaught.lastSeq },
    })) as Structured<{
      stack: { file: string; line: number; mapped?: { file: string; line: number; fn?: string } }[];
    }>;
    const top = full.structuredContent!.stack[0]!;
    expect(top.file).toMatch(/\/assets\/.*\.js$/); // the raw frame: the bundle
    expect(top.mapped?.file).toMatch(/\/e2e\/fixtures\/debuggee\/console-demo\.ts$/);
    expect(top.mapped?.line).toBe(lineOf('marker: uncaught'));

    const listed = (await mcp.client.callTool({
      name: 'console_list_messages',
      arguments: { text: 'hello' },
    })) as Structured<{
      messages: { text: string; site?: string }[];
    }>;
    expect(listed.structuredContent!.messages).toEqual([
      expect.objectContaining({
        text: 'hello page {cart: {items: 2, total: 12.5}}',
        site: expect.stringMatching(new RegExp(`console-demo\\.ts:${lineOf('marker: log')}:\\d+$`)),
      }),
    ]);

    // The same errors over stdio, and "since my last call" is empty until something new happens.
    const stdio = await connectMcpClient('stdio', {
      mcpUrl: env.inspector.info.mcpUrl,
      dataDir: env.inspector.dataDir,
    });
    try {
      const since = (await stdio.client.callTool({
        name: 'console_list_errors',
        arguments: { since: errors!.latest },
      })) as Structured<Errors>;
      expect(since.structuredContent!.groups).toEqual([]);
      await demo(debuggee, 'crashLater');
      await expect(async () => {
        const again = (await stdio.client.callTool({
          name: 'console_list_errors',
          arguments: { since: errors!.latest },
        })) as Structured<Errors>;
        expect(again.structuredContent!.groups).toEqual([
          expect.objectContaining({ text: 'Uncaught TypeError: total is not a number', count: 1 }),
        ]);
      }).toPass({ timeout: 10_000 });
    } finally {
      await stdio.close();
    }
  } finally {
    await mcp.close();
  }

  // The panel: every message, repeats counted, errors highlighted, filters, the detail with mapped frames.
  await page.bringToFront();
  await page.getByTestId('plugin').filter({ hasText: 'Console' }).click();
  const panel = page.getByTestId('console-panel');
  const rows = panel.getByTestId('console-row');
  await expect(rows.filter({ hasText: 'repeated line' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'repeated line' }).locator('.con-count')).toHaveText('3');
  await expect(rows.filter({ hasText: 'Uncaught TypeError' })).toHaveCount(2);
  await expect(rows.filter({ hasText: 'payment failed' })).toHaveAttribute('data-level', 'error');
  await expect(rows.filter({ hasText: 'low stock' })).toContainText('Map(1) {"sku-1" => 3}');

  await rows.filter({ hasText: 'Uncaught TypeError' }).first().click();
  await page.keyboard.press('Enter');
  const detail = panel.getByTestId('console-detail');
  await expect(detail.getByTestId('console-frame').first()).toContainText(
    `console-demo.ts:${lineOf('marker: uncaught')}`,
  );
  await expect(detail.getByTestId('console-frame').first()).toContainText('/assets/');
  await rows.filter({ hasText: 'payment failed' }).click();
  await page.keyboard.press('Enter');
  await expect(detail.getByTestId('console-args')).toContainText('card declined');
  await detail
    .getByTestId('console-args')
    .getByRole('button', { name: /cause|keys/ })
    .first()
    .click();
  await screenshot(page, 'console-panel');

  await panel.getByTestId('console-level-error').uncheck();
  await expect(rows.filter({ hasText: 'Uncaught' })).toHaveCount(0);
  await panel.getByTestId('console-level-error').check();
  await panel.getByTestId('console-filter').fill('/^(low|info)/');
  await expect(rows).toHaveCount(2);
  await panel.getByTestId('console-filter').fill('');

  // A reload (a new load: its marker says so): with Preserve log the old messages stay above the
  // marker, closed under a header of their own that says how many; without, only the new ones.
  await debuggee.reload();
  await expect(debuggee.locator('#status')).toHaveText('connected');
  await expect(rows.filter({ hasText: 'Load 2: ' })).toHaveCount(1);
  const earlier = rows.filter({ hasText: 'Before load 2' });
  await expect(earlier).toHaveCount(1);
  await expect(earlier.getByTestId('console-load-count')).toHaveText(/^\d+ messages$/);
  await expect(rows.filter({ hasText: 'hello page' })).toHaveCount(0);
  // Opened by keyboard as a group is: select it, Right.
  await earlier.click();
  await page.keyboard.press('ArrowRight');
  await expect(rows.filter({ hasText: 'hello page' })).toHaveCount(1);
  await expect(panel.getByRole('row', { selected: true })).toHaveAttribute('aria-expanded', 'true');
  await screenshot(page, 'console-loads');
  await page.keyboard.press('ArrowLeft');
  await expect(rows.filter({ hasText: 'hello page' })).toHaveCount(0);
  await page.keyboard.press('ArrowRight');
  await expect(rows.filter({ hasText: 'hello page' })).toHaveCount(1);
  await panel.getByTestId('console-preserve').uncheck();
  await expect(rows.filter({ hasText: 'hello page' })).toHaveCount(0);
  await demo(debuggee, 'logAll');
  await expect(rows.filter({ hasText: 'hello page' })).toHaveCount(1);
  await panel.getByTestId('console-preserve').check();

  await panel.getByTestId('console-clear').click();
  await expect(panel.getByTestId('console-empty')).toHaveText('No messages yet.');
});

test('as DevTools: groups close, %c styles, console.table, objects opened inline, source links, keyboard', async ({
  page,
}) => {
  await openWindow(page, env.inspector);
  const debuggee = await openDebuggee(page);
  await page.bringToFront();
  await page.getByTestId('plugin').filter({ hasText: 'Console' }).click();
  const panel = page.getByTestId('console-panel');
  const rows = panel.getByTestId('console-row');
  await demo(debuggee, 'logRich');
  await expect(rows.filter({ hasText: 'order' })).toHaveCount(1);

  // Timestamps with milliseconds; groupCollapsed starts closed, group open; both close and open.
  await expect(rows.filter({ hasText: 'inside checkout' }).locator('.con-time')).toHaveText(/^\d\d:\d\d:\d\d\.\d{3}$/);
  await expect(rows.filter({ hasText: 'hidden detail' })).toHaveCount(0);
  const details = page.getByRole('row').filter({ hasText: 'details' }).first();
  await expect(details).toHaveAttribute('aria-expanded', 'false');
  await details.getByTestId('console-toggle').click();
  await expect(rows.filter({ hasText: 'hidden detail' })).toHaveCount(1);
  const checkout = page.getByRole('row').filter({ hasText: 'checkout' }).first();
  await checkout.click();
  await page.keyboard.press('ArrowLeft');
  await expect(rows.filter({ hasText: 'inside checkout' })).toHaveCount(0);
  await expect(checkout).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('ArrowRight');
  await expect(rows.filter({ hasText: 'inside checkout' })).toHaveCount(1);

  // %c: the allowed properties apply, url() is left out.
  const styled = rows.filter({ hasText: 'styled' }).locator('.con-text span').first();
  await expect(styled).toHaveText('styled');
  await expect(styled).toHaveCSS('color', 'rgb(200, 0, 0)');
  await expect(styled).toHaveCSS('font-weight', '700');
  expect(await styled.getAttribute('style')).not.toContain('url');

  // console.table shows as a table; an object opens inline as a tree (Right on the selected row).
  const table = panel.getByTestId('console-table');
  await expect(table.locator('thead th')).toHaveText(['(index)', 'sku', 'qty']);
  await expect(table.locator('tbody tr').nth(1)).toContainText("'b-2'");
  await rows.filter({ hasText: 'order' }).click();
  await page.keyboard.press('ArrowRight');
  const opened = rows.filter({ hasText: 'order' }).getByTestId('console-opened');
  await expect(opened).toContainText('id');
  await expect(opened).toContainText('lines');

  // The source link opens the .ts source (from the Vite map's sourcesContent) in the window, line marked.
  await rows.filter({ hasText: 'styled' }).click();
  await page.keyboard.press('Tab');
  await expect(rows.filter({ hasText: 'styled' }).getByTestId('console-source')).toBeFocused();
  await expect(rows.filter({ hasText: 'styled' }).getByTestId('console-source')).toHaveText(
    `console-demo.ts:${lineOf('marker: styled')}`,
  );
  await page.keyboard.press('Enter');
  const source = panel.getByTestId('console-source-view');
  await expect(source.locator('[aria-current="location"]')).toContainText('marker: styled');
  await screenshot(page, 'console-devtools');

  // axe-core with a group open, a table, an opened object, a styled row and the source view: light and dark.
  for (const theme of ['light', 'dark']) {
    const results = await new AxeBuilder({ page })
      .include('[data-testid="console-panel"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    await page.bringToFront();
    const bad = results.violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => `${theme}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3)}`);
    expect(bad).toEqual([]);
    if (theme === 'dark') await screenshot(page, 'console-devtools-dark');
    await page.getByRole('button', { name: `Switch to the ${theme === 'dark' ? 'light' : 'dark'} theme` }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme === 'dark' ? 'light' : 'dark');
  }

  // An editor template: the link becomes the editor's URL (the project folder maps the page's paths).
  await panel.getByTestId('console-settings').click();
  await panel.getByTestId('console-open-in').selectOption('vscode');
  await panel.getByTestId('console-root').fill('/home/me/shop');
  const opening = page
    .waitForEvent('requestfailed', { predicate: (r) => r.url().startsWith('vscode:'), timeout: 3000 })
    .catch(() => undefined);
  await rows.filter({ hasText: 'styled' }).getByTestId('console-source').click();
  const link = await page.evaluate(() => localStorage.getItem('porthole.console.sourceLinks'));
  expect(JSON.parse(link!)).toMatchObject({ target: 'vscode', root: '/home/me/shop' });
  await opening;

  // Tab always moves on (never held by the list or a row), through the open rows' controls to the input.
  await panel.getByTestId('console-list').focus();
  const seen: string[] = [];
  for (
    let i = 0;
    i < 40 && !(await panel.getByTestId('console-repl').evaluate((el) => el === document.activeElement));
    i++
  ) {
    const before = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80) ?? '');
    await page.keyboard.press('Tab');
    const after = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80) ?? '');
    expect(after, `Tab from ${before}`).not.toBe(before);
    seen.push(after);
  }
  await expect(panel.getByTestId('console-repl')).toBeFocused();
  // Shift+Tab goes back the same way.
  await page.keyboard.press('Shift+Tab');
  await expect(panel.getByTestId('console-repl')).not.toBeFocused();
});

test('the input evaluates in the app through ui_evaluate: no prompt, recorded in the history, Up brings it back', async ({
  page,
}) => {
  await openWindow(page, env.inspector);
  const debuggee = await openDebuggee(page, ['console', 'ui']);
  await debuggee.evaluate(() => {
    (window as unknown as { cart: unknown }).cart = { items: [{ sku: 'a-1' }], total: 12.5 };
  });
  await page.bringToFront();
  await page.getByTestId('plugin').filter({ hasText: 'Console' }).click();
  const panel = page.getByTestId('console-panel');
  const input = panel.getByTestId('console-repl');
  await input.click();
  await input.fill('1 + 2');
  await page.keyboard.press('Enter');
  const results = panel.getByTestId('console-evaluation');
  await expect(results.last()).toContainText('1 + 2');
  await expect(results.last().locator('.con-result')).toContainText('3');
  await input.fill('window.cart');
  await page.keyboard.press('Enter');
  await expect(results.last().locator('.con-result')).toContainText('{');
  await results.last().getByRole('button').first().click();
  await expect(results.last()).toContainText('total');
  await input.fill('nope(');
  await page.keyboard.press('Enter');
  await expect(results.last().locator('.con-result')).toHaveClass(/level-error/);
  await expect(page.getByRole('dialog')).toHaveCount(0); // the person at the window is not asked
  await input.focus();
  await page.keyboard.press('ArrowUp');
  await expect(input).toHaveValue('nope(');
  await page.keyboard.press('ArrowUp');
  await expect(input).toHaveValue('window.cart');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(input).toHaveValue('');
  await screenshot(page, 'console-repl');
  // The call history has them, run from the window.
  await page.getByText('Call history').click();
  await expect(page.getByRole('row').filter({ hasText: 'ui_evaluate' })).toHaveCount(3);
});

test('100,000 messages: the list stays virtualized and scrolls to the first one', async ({ page }) => {
  test.setTimeout(120_000);
  await openWindow(page, env.inspector);
  const debuggee = await openDebuggee(page);
  await page.bringToFront();
  await page.getByTestId('plugin').filter({ hasText: 'Console' }).click();
  const panel = page.getByTestId('console-panel');
  await debuggee.evaluate(() => (window as unknown as DebuggeeWindow).porthole.consoleDemo.flood(100_000));
  await expect(panel.getByTestId('console-stats')).toHaveText(/^100,000 shown/, { timeout: 60_000 });
  const rows = panel.getByTestId('console-row');
  expect(await rows.count()).toBeLessThan(200);
  await expect(rows.filter({ hasText: 'flood message 99999' })).toHaveCount(1);
  await panel.getByTestId('console-list').evaluate((el) => {
    el.scrollTop = 0;
  });
  await expect(rows.filter({ hasText: 'flood message 0' })).toHaveCount(1);
  await screenshot(page, 'console-100k');
});
