import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { type DebuggeeWindow, type ServedPage, serveDebuggeePage } from './support/debuggee-page.js';
import { type RunningInspector, startInspector } from './support/inspector.js';
import { buildRenderer, openWindow, screenshot, screenshotAllSizes } from './window.helpers.js';

// The Storage panel in a real window: the person picks an area, searches, reads a value as a JSON
// tree and as the agent gets it, edits and deletes; the page's own writes show up live. Keyboard
// alone reaches every part; axe-core finds nothing critical or serious, light and dark.

type Demo = DebuggeeWindow['porthole']['storageDemo'];
let served: ServedPage;
let inspector: RunningInspector;

test.beforeAll(async () => {
  await buildRenderer();
  served = await serveDebuggeePage();
  inspector = await startInspector();
});
test.afterAll(async () => {
  await served?.close();
  await inspector?.stop();
});

async function axe(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .include('[data-testid="storage-panel"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  await page.bringToFront();
  return results.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

test('areas, search, a JSON tree, Agent view, edit, delete, live updates; keyboard and axe in both themes', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWindow(page, inspector);
  const app = await context.newPage();
  await app.goto(served.pageUrl({ inspector: inspector.info.debuggeeUrl, plugins: ['storage'], appName: 'Shop' }));
  await expect(app.locator('#status')).toHaveText('connected');
  await app.evaluate(`window.porthole.storageDemo.fill(300)`);
  const demo = (run: (d: Demo) => unknown) => app.evaluate(`(${run.toString()})(window.porthole.storageDemo)`);

  await page.bringToFront();
  await page.getByTestId('plugin').filter({ hasText: 'Storage' }).click();
  const panel = page.getByTestId('storage-panel');
  const areas = panel.getByRole('navigation', { name: 'Storage areas' });
  await expect(areas.getByTestId('storage-area')).toHaveCount(6);
  await expect(areas.locator('[data-area="indexedDB/shop/orders"]')).toContainText('300');

  // localStorage first: its keys with previews and sizes; search by key or value.
  const rows = panel.getByTestId('storage-key');
  // Five of the page's keys and the agent's device id (porthole.deviceId).
  await expect(rows).toHaveCount(6);
  await panel.getByTestId('storage-search').fill('hunter');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('user');
  await rows.first().click();
  const detail = panel.getByTestId('storage-detail');
  await expect(detail.getByRole('region', { name: 'Value' })).toContainText('hunter2');
  await detail.getByTestId('storage-tab-agent').click();
  await expect(detail.getByTestId('storage-agent-hidden')).toHaveText('1 value hidden from AI agents as [redacted]');
  await expect(detail.getByRole('region', { name: 'What the agent receives' })).toContainText('[redacted]');
  await expect(detail.getByRole('region', { name: 'What the agent receives' })).not.toContainText('hunter2');
  await screenshot(page, 'storage-agent-view');

  // Edit: the page reads the new value.
  await detail.getByTestId('storage-tab-value').click();
  await detail.getByTestId('storage-edit').click();
  await detail.getByTestId('storage-editor').fill('{"name":"Grace","password":"x"}');
  await detail.getByTestId('storage-save').click();
  await expect(detail.getByRole('region', { name: 'Value' })).toContainText('Grace');
  expect(await app.evaluate(() => localStorage.getItem('user'))).toBe('{"name":"Grace","password":"x"}');

  // Live: the page writes, the table follows.
  await panel.getByTestId('storage-search').fill('');
  await app.evaluate(() => localStorage.setItem('added-by-page', '{"at":1}'));
  await expect(rows.filter({ hasText: 'added-by-page' })).toHaveCount(1);
  await app.evaluate(() => localStorage.removeItem('added-by-page'));
  await expect(rows.filter({ hasText: 'added-by-page' })).toHaveCount(0);

  // Delete (asks in place first).
  await rows.filter({ hasText: 'notes' }).click();
  await detail.getByTestId('storage-delete').click();
  await detail.getByTestId('storage-delete-confirm').click();
  await expect(rows.filter({ hasText: 'notes' })).toHaveCount(0);
  expect(await app.evaluate(() => localStorage.getItem('notes'))).toBeNull();

  // An IndexedDB record with dates and binary data; the store pages on demand. A row is clicked once
  // its store is the one shown and its keys are read (the count says so), never a row of the area before.
  const openStore = async (area: string, keys: number) => {
    await areas.locator(`[data-area="${area}"]`).click();
    await expect(areas.locator(`[data-area="${area}"]`)).toHaveAttribute('aria-current', 'true');
    await expect(panel.getByTestId('storage-count')).toHaveText(new RegExp(`^${keys} keys\\b`));
  };
  await openStore('indexedDB/shop/files', 3);
  await expect(rows).toHaveCount(3);
  await rows.filter({ hasText: 'logo.png' }).click();
  await expect(detail.getByRole('region', { name: 'Value' })).toContainText('image/png');
  await openStore('indexedDB/shop/orders', 300);
  await rows.filter({ hasText: /^42\b/ }).click();
  await expect(detail.getByRole('region', { name: 'Value' })).toContainText('2024-01-01T00:42:00.000Z');
  await screenshotAllSizes(page, 'storage-panel');

  // Keyboard alone: Tab reaches the areas, the search, the table; arrows move in the table.
  await areas.locator('[data-area="localStorage"]').focus();
  await page.keyboard.press('Enter');
  await expect(rows.first()).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(areas.getByRole('button').nth(2)).toBeFocused();
  await panel.getByTestId('storage-search').focus();
  let reached = false;
  for (let i = 0; i < 8 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await panel.getByTestId('storage-keys').evaluate((el) => el.contains(document.activeElement));
  }
  expect(reached).toBe(true);
  await page.keyboard.press('ArrowDown');
  await expect(detail).toBeVisible();

  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => {
      document.documentElement.dataset.theme = t;
    }, theme);
    expect(await axe(page), theme).toEqual([]);
  }
  await demo((d) => d.freeQuota());
});
