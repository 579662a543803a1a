import { expect, type Page, test } from '@playwright/test';
import type { DebuggeeWindow } from './support/debuggee-page.js';
import { inspectorAndPage, mcpClient, openWindow } from './window.helpers.js';

// The main tasks by keyboard alone, with the focus tracked at each step: select an app, find a
// request and read its body, open the timeline, expand a console group and object and open a source
// link, run a tool, answer a prompt.

const env = inspectorAndPage({
  '/api/cart': (_req, res) =>
    void res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[{"sku":"A-1"}]}'),
  '/api/other': (_req, res) => void res.end('other'),
});

/** What has the focus: its role or tag, and its accessible label or text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return 'nothing';
    const label = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
    return `${el.getAttribute('role') ?? el.tagName.toLowerCase()}: ${label}`;
  });

/** Tab (at most `max` times) until `match` has the focus. */
async function tabTo(page: Page, match: RegExp, max = 25, key = 'Tab'): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (match.test(await focused(page))) return;
    await page.keyboard.press(key);
  }
  await expect.poll(() => focused(page)).toMatch(match);
}

test('a keyboard-only walk: app, request body, timeline, a tool run and a prompt, focus tracked', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWindow(page, env.inspector);
  const debuggee = await context.newPage();
  await debuggee.goto(
    env.served.pageUrl({
      inspector: env.inspector.info.debuggeeUrl,
      plugins: ['network', 'example', 'console'],
      appName: 'Shop',
    }),
  );
  await expect(debuggee.locator('#status')).toHaveText('connected');
  await debuggee.evaluate(async () => {
    await fetch('/api/other').then((r) => r.text());
    await fetch('/api/cart').then((r) => r.text());
  });
  await page.bringToFront();

  // Select the app: Tab into the sidebar, Enter on the session; it opens on Network.
  await page.locator('body').focus();
  await tabTo(page, /^button: Shop/);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('network-panel')).toBeVisible();

  // Find a request: '/' to the filter, type, Tab leaves the box as typed (no suggestion taken).
  await page.keyboard.press('/');
  await expect.poll(() => focused(page)).toMatch(/^combobox: Filter requests/);
  await page.keyboard.type('cart');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: 'Filter requests' })).toHaveValue('cart');
  expect(await focused(page)).not.toMatch(/Filter requests/);
  await tabTo(page, /^grid: Requests/);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const detail = page.getByTestId('network-detail');
  await expect(detail).toBeVisible();
  // Into the detail's tabs, then → to Response: the body.
  await tabTo(page, /^tab: Headers/);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => focused(page)).toMatch(/^tab: Response/);
  await expect(detail).toContainText('A-1');
  // Escape closes the detail and gives the grid the focus back.
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();
  await expect.poll(() => focused(page)).toMatch(/^grid: Requests/);

  // The timeline: Shift+Tab back to the sidebar's Timeline entry, Enter, Tab to its grid, End, Enter.
  await tabTo(page, /^button: Timeline/, 40, 'Shift+Tab');
  await page.keyboard.press('Enter');
  await tabTo(page, /^grid: Timeline/);
  await page.keyboard.press('End');
  await expect(page.locator('.timeline-foot')).toContainText('/api/cart');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('network-row').filter({ hasText: '/api/cart' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  // The Network panel mounts, then its grid takes the focus (in a later frame).
  await expect.poll(() => focused(page)).toMatch(/^grid: Requests/);

  // The app logs groups (one closed), %c, a table and an object, each with its call site.
  await debuggee.evaluate(() => (window as unknown as DebuggeeWindow).porthole.consoleDemo.logRich());
  // The console: its sidebar entry, Tab to the messages; a group closes and opens with ←/→, → steps
  // into it and opens the collapsed group inside; End and → open an object inline.
  await tabTo(page, /^button: Console/, 40, 'Shift+Tab');
  await page.keyboard.press('Enter');
  const consolePanel = page.getByTestId('console-panel');
  await expect(consolePanel).toBeVisible();
  await tabTo(page, /^treegrid: Console messages/);
  const messages = consolePanel.getByTestId('console-row');
  const selectedMessage = consolePanel.getByRole('row', { selected: true });
  await page.keyboard.press('End');
  await expect(selectedMessage).toContainText('order');
  await page.keyboard.press('ArrowRight');
  await expect(selectedMessage.getByTestId('console-opened')).toContainText('lines');
  await page.keyboard.press('Home');
  await expect(selectedMessage).toContainText('checkout');
  await page.keyboard.press('ArrowLeft');
  await expect(messages.filter({ hasText: 'inside checkout' })).toHaveCount(0);
  await page.keyboard.press('ArrowRight');
  await expect(messages.filter({ hasText: 'inside checkout' })).toHaveCount(1);
  await page.keyboard.press('ArrowRight');
  await expect(selectedMessage).toContainText('inside checkout');
  await page.keyboard.press('ArrowDown');
  await expect(selectedMessage).toContainText('details');
  await page.keyboard.press('ArrowRight');
  await expect(messages.filter({ hasText: 'hidden detail' })).toHaveCount(1);
  // The selected message's source link is the next Tab stop; Enter opens the source in the window
  // (which takes the focus), Escape closes it and the messages have the focus again.
  await page.keyboard.press('ArrowUp');
  await expect(selectedMessage).toContainText('inside checkout');
  await page.keyboard.press('Tab');
  await expect.poll(() => focused(page)).toMatch(/^button: console-demo/);
  await page.keyboard.press('Enter');
  const source = consolePanel.getByTestId('console-source-view');
  await expect(source).toContainText("console.log('inside checkout')");
  await expect.poll(() => focused(page)).toMatch(/^section: Source/);
  await page.keyboard.press('Escape');
  await expect(source).toBeHidden();
  // The list takes the focus back in the next frame.
  await expect.poll(() => focused(page)).toMatch(/^treegrid: Console messages/);

  // Run a tool: the Tools entry, '/' to its search, Enter on the match, Tab to Run; the focus stays.
  await tabTo(page, /^button: Tools/, 40, 'Shift+Tab');
  await page.keyboard.press('Enter');
  await page.keyboard.press('/');
  await page.keyboard.type('example_send_ping');
  await tabTo(page, /^option: example_send_ping/);
  await page.keyboard.press('Enter');
  await tabTo(page, /^button: Run$/, 40);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Open in the call history' })).toBeVisible();
  await expect.poll(() => focused(page)).toMatch(/^button: Run$/);

  // Answer a prompt: a destructive call that asks; Deny has the focus, Enter answers, focus returns.
  const mcp = await mcpClient(env.inspector, 'walk-agent');
  try {
    await page.getByRole('button', { name: /^Permissions/ }).focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-tool="network_clear_transactions"]').getByRole('radio', { name: 'Ask me' }).focus();
    await page.keyboard.press('Space');
    const before = await focused(page);
    const call = mcp.client.callTool({ name: 'network_clear_transactions', arguments: {} }).catch((e: Error) => e);
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect.poll(() => focused(page)).toMatch(/^button: Deny/);
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    const result = (await call) as { isError?: boolean } | Error;
    expect(result instanceof Error || result.isError === true).toBe(true);
    expect(await focused(page)).toBe(before);
  } finally {
    await mcp.close();
  }
});
