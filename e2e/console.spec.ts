import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

async function openDebuggee(page: Page): Promise<Page> {
  const debuggee = await page.context().newPage();
  await debuggee.goto(
    env.served.pageUrl({ inspector: env.inspector.info.debuggeeUrl, plugins: ['console'], appName: 'Console Shop' }),
  );
  await expect(debuggee.locator('#status')).toHaveText('connected');
  return debuggee;
}

const demo = (debuggee: Page, call: 'logAll' | 'crashLater' | 'rejectLater') =>
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
    }).toPass({ timeout: 10_000 });
    const uncaught = errors!.groups.find((g) => g.text.startsWith('Uncaught TypeError'))!;
    expect(uncaught.site).toMatch(new RegExp(`console-demo\\.ts:${lineOf('marker: uncaught')}:\\d+$`));

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
  const detail = panel.getByTestId('console-detail');
  await expect(detail.getByTestId('console-frame').first()).toContainText(
    `console-demo.ts:${lineOf('marker: uncaught')}`,
  );
  await expect(detail.getByTestId('console-frame').first()).toContainText('/assets/');
  await rows.filter({ hasText: 'payment failed' }).click();
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

  // A reload (a new load: its marker says so): with Preserve log the old messages stay above the marker; without, only the new ones.
  await debuggee.reload();
  await expect(debuggee.locator('#status')).toHaveText('connected');
  await expect(rows.filter({ hasText: 'Load 2: ' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'hello page' })).toHaveCount(1);
  await panel.getByTestId('console-preserve').uncheck();
  await expect(rows.filter({ hasText: 'hello page' })).toHaveCount(0);
  await demo(debuggee, 'logAll');
  await expect(rows.filter({ hasText: 'hello page' })).toHaveCount(1);
  await panel.getByTestId('console-preserve').check();

  await panel.getByTestId('console-clear').click();
  await expect(panel.getByTestId('console-empty')).toBeVisible();
});

test('100,000 messages: the list stays virtualized and scrolls to the first one', async ({ page }) => {
  test.setTimeout(120_000);
  await openWindow(page, env.inspector);
  const debuggee = await openDebuggee(page);
  await page.bringToFront();
  await page.getByTestId('plugin').filter({ hasText: 'Console' }).click();
  const panel = page.getByTestId('console-panel');
  await debuggee.evaluate(() => (window as unknown as DebuggeeWindow).porthole.consoleDemo.flood(100_000));
  await expect(panel.getByTestId('console-stats')).toHaveText(/^100000 shown/, { timeout: 60_000 });
  const rows = panel.getByTestId('console-row');
  expect(await rows.count()).toBeLessThan(200);
  await expect(rows.filter({ hasText: 'flood message 99999' })).toHaveCount(1);
  await panel.getByTestId('console-list').evaluate((el) => {
    el.scrollTop = 0;
  });
  await expect(rows.filter({ hasText: 'flood message 0' })).toHaveCount(1);
  await screenshot(page, 'console-100k');
});
