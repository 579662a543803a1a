import { networkInterfaces } from 'node:os';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { connect } from '../agent/index.js';
import { example } from '../plugins/example/agent/index.js';
import { type RunningInspector, startInspector } from './support/inspector.js';
import { buildRenderer, currentUiUrl, openWindow, screenshot } from './window.helpers.js';

// The headless window in Chromium: one-time links and the session cookie, the window's own CSP,
// and names an app chose shown inert.

let inspector: RunningInspector;

test.beforeAll(async () => {
  await buildRenderer();
});
test.beforeEach(async () => {
  inspector = await startInspector();
});
test.afterEach(async () => {
  await inspector.stop();
});

/** Critical or serious axe-core violations inside `selector`, in the light and the dark theme. */
async function axeBothThemes(page: Page, selector: string): Promise<string[]> {
  const found: string[] = [];
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => {
      document.documentElement.dataset.theme = t;
    }, theme);
    const results = await new AxeBuilder({ page })
      .include(selector)
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    await page.bringToFront();
    for (const v of results.violations) {
      if (v.impact === 'critical' || v.impact === 'serious') found.push(`${theme} ${v.id}: ${v.help}`);
    }
  }
  return found;
}

/** CSP violations the page reports, from its first script on. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

test("the window's own code keeps to its strict CSP: no eval on load, none after a reload", async ({ page }) => {
  const violations = await watchCsp(page);
  await openWindow(page, inspector);
  await page.getByRole('button', { name: 'MCP server' }).click();
  await expect(page.getByTestId('mcp-view')).toBeVisible();
  expect(await violations()).toEqual([]);
  await page.reload();
  await expect(page.getByTestId('connection-banner')).toHaveCount(0);
  expect(await violations()).toEqual([]);
});

test('a window link works once: the browser that opened it keeps access (reloads too), a copy opened elsewhere says so', async ({
  page,
  browser,
}) => {
  const link = currentUiUrl(inspector);
  await openWindow(page, inspector);
  // The cookie is for the bridge only, and page scripts cannot read it.
  const cookies = await page.context().cookies();
  expect(cookies).toHaveLength(1);
  expect(cookies[0]).toMatchObject({ path: '/bridge', httpOnly: true, sameSite: 'Strict', expires: -1 });
  expect(await page.evaluate(() => document.cookie)).toBe('');
  await page.reload();
  await expect(page.locator('.brand')).toContainText('Porthole');
  await expect(page.getByTestId('connection-banner')).toHaveCount(0);

  // The same link, copied to another browser (profile), after it was used.
  const elsewhere = await browser.newContext();
  const copy = await elsewhere.newPage();
  await copy.goto(link);
  expect(new URL(copy.url()).searchParams.has('token')).toBe(false);
  await expect(copy.getByTestId('connection-banner')).toContainText('the link you opened was used already');
  await expect(copy.getByTestId('connection-banner')).toContainText('porthole ui');
  await screenshot(copy, 'window-link-used');
  // The next link (porthole ui, instance.json) lets that browser in.
  await openWindow(copy, inspector);
  await elsewhere.close();
});

test('"Renew UI key" ends every browser\'s access and brings this window straight back', async ({ page, browser }) => {
  await openWindow(page, inspector);
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await openWindow(otherPage, inspector);
  const before = currentUiUrl(inspector);

  await page.getByRole('button', { name: 'MCP server' }).click();
  await expect(page.getByTestId('window-access')).toBeVisible();
  expect(await axeBothThemes(page, '[data-testid="window-access"]')).toEqual([]);
  await screenshot(page, 'window-access');
  await page.getByTestId('renew-ui-key').click();
  await page.waitForURL((url) => !url.searchParams.has('token') && url.hash === '');
  await expect(page.locator('.brand')).toContainText('Porthole');
  await expect(page.getByTestId('connection-banner')).toHaveCount(0);

  await expect(otherPage.getByTestId('connection-banner')).toContainText('this browser has no access', {
    timeout: 15_000,
  });
  expect(currentUiUrl(inspector)).not.toBe(before);
  await other.close();
});

test('names an app chose are shown inert (bidi controls as [RLO] …), a javascript: page URL as text, never a link', async ({
  page,
}) => {
  await openWindow(page, inspector);
  const agent = connect({
    url: inspector.info.debuggeeUrl,
    app: { id: 'com.e2e.bidi', name: 'invoice\u202Efdp.exe', version: '1.0\u2066x' },
    device: {
      id: 'e2e-bidi',
      name: 'phone\u202Bevil',
      platform: 'browser',
      page: { title: 'Pay\u200Fnow', url: 'javascript:alert(document.cookie)' },
    },
    plugins: [example()],
  });
  try {
    const session = page.getByTestId('session');
    await expect(session).toHaveCount(1);
    const sidebar = page.locator('nav.sidebar');
    await expect(sidebar).toContainText('invoice[RLO]fdp.exe');
    await expect(sidebar).toContainText('phone[RLE]evil');
    await expect(sidebar).toContainText('Pay[RLM]now');
    await expect(sidebar).toContainText('javascript:alert(document.cookie)');
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/);
    await session.click();
    await expect(page.locator('.view-header')).toContainText('invoice[RLO]fdp.exe');
    await expect(page.locator('.view-header')).toContainText('javascript:alert(document.cookie)');
    expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
    expect(await page.locator('[href*="alert("]').count()).toBe(0);
    await screenshot(page, 'inert-names');
  } finally {
    agent.disconnect();
  }
});

test('with --lan the window lists the paired LAN apps and the refused pairings', async ({ page }) => {
  const lanAddress = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
  test.skip(!lanAddress, 'no LAN address on this machine');
  await inspector.stop();
  inspector = await startInspector({ args: ['--lan'] });
  // The token line may come a moment after the line that says the inspector is up.
  let token = '';
  await expect
    .poll(() => (token = /LAN pairing token: (\S+)/.exec(inspector.output())?.[1] ?? ''), { timeout: 10_000 })
    .not.toBe('');
  await openWindow(page, inspector);
  await expect(page.getByTestId('lan-status')).toContainText('pairing on · no app paired');
  const url = `ws://${lanAddress}:${new URL(inspector.info.debuggeeUrl).port}`;
  const stranger = connect({ url, app: { id: 'com.e2e.stranger', name: 'Stranger' }, pairingToken: 'wrong' });
  const paired = connect({
    url,
    app: { id: 'com.e2e.phone', name: 'Phone App' },
    device: { id: 'phone', name: 'Phone', platform: 'react-native' },
    pairingToken: token,
    plugins: [example()],
  });
  try {
    await expect(page.getByTestId('lan-status')).toContainText(`paired: Phone App (${lanAddress})`);
    await expect(page.getByTestId('lan-refused')).toContainText(`refused · last from ${lanAddress}`);
    await expect(page.locator('.badge.lan').last()).toBeVisible();
    expect(await axeBothThemes(page, 'nav.sidebar')).toEqual([]);
    await screenshot(page, 'lan-status');
  } finally {
    stranger.disconnect();
    paired.disconnect();
  }
});
