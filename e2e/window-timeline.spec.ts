import { expect, test } from '@playwright/test';
import { inspectorAndPage, openWindow, screenshotAllSizes } from './window.helpers.js';

// The session's timeline: requests, console messages and page loads of one session in time order,
// filtered by plugin, level and text, live, each row opening its plugin's detail.

const env = inspectorAndPage({
  '/api/cart': (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}'),
  '/api/boom': (_req, res) => void res.writeHead(503, { 'content-type': 'text/plain' }).end('down'),
});

test('one timeline across plugins: filters, live rows, and Enter opens the request in Network', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWindow(page, env.inspector);
  const debuggee = await context.newPage();
  await debuggee.goto(
    env.served.pageUrl({ inspector: env.inspector.info.debuggeeUrl, plugins: ['network', 'console'], appName: 'Shop' }),
  );
  await expect(debuggee.locator('#status')).toHaveText('connected');
  await debuggee.evaluate(async () => {
    await fetch('/api/cart');
    console.warn('cart is slow');
    await fetch('/api/boom');
    console.log('checkout done');
  });
  await page.bringToFront();
  await page.getByTestId('session').first().click();
  await page.getByTestId('timeline-item').click();
  const timeline = page.getByTestId('timeline');
  const rows = timeline.getByTestId('timeline-row');
  await expect(rows.filter({ hasText: 'checkout done' })).toHaveCount(1);
  // In time order across plugins: the request, the warning, the failed request, the log. Two
  // entries of the same millisecond (the warning and the next request's start) may come either way.
  const summaries = await rows.locator('.col-summary').allTextContents();
  const times = await rows.locator('.col-time').allTextContents();
  expect(times).toEqual([...times].sort());
  const timeOf = (s: string) => times[summaries.findIndex((line) => line.includes(s))];
  const order = ['/api/cart', 'cart is slow', '/api/boom', 'checkout done'].map(timeOf);
  expect(order.every((t) => t !== undefined)).toBe(true);
  expect(order).toEqual([...order].sort());
  await expect(rows.filter({ hasText: '/api/boom' })).toHaveClass(/level-error/);

  // Filters: text, level, plugin.
  const count = timeline.getByTestId('timeline-count');
  await timeline.getByRole('searchbox', { name: 'Filter the timeline by text' }).fill('cart');
  await expect(rows).toHaveCount(2);
  await timeline.getByRole('combobox', { name: 'Level' }).selectOption('warn');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('cart is slow');
  await timeline.getByRole('combobox', { name: 'Level' }).selectOption('');
  await timeline.getByTestId('timeline-plugin').filter({ hasText: 'Console' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('/api/cart');
  await expect(count).toContainText(/^1 of \d+ entries/);
  await screenshotAllSizes(page, 'timeline-filtered');
  await timeline.getByTestId('timeline-plugin').filter({ hasText: 'Console' }).click();
  await timeline.getByRole('searchbox', { name: 'Filter the timeline by text' }).fill('');

  // Live: what the app does next appears without asking.
  await debuggee.evaluate(() => console.error('payment failed'));
  await expect(rows.filter({ hasText: 'payment failed' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'payment failed' })).toHaveClass(/level-error/);
  await screenshotAllSizes(page, 'timeline');

  // Keyboard: the grid is one tab stop; End selects the newest, Up moves; Enter opens in Network.
  const grid = timeline.getByTestId('timeline-grid');
  await grid.focus();
  await page.keyboard.press('Home');
  // The page load comes first: it opens in Network, on its first request (one load: no header).
  await expect(timeline.locator('.timeline-foot')).toContainText('Load 1');
  await expect(timeline.locator('.timeline-foot').getByRole('button')).toHaveText('Open in Network');
  await page.keyboard.press('Enter');
  await expect(
    page.getByTestId('network-panel').getByTestId('network-row').filter({ hasText: '/api/cart' }),
  ).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('back-to-timeline').click();
  await grid.focus();
  await page.keyboard.press('Home');
  // Down moves to the request.
  await page.keyboard.press('ArrowDown');
  await expect(timeline.locator('.timeline-foot')).toContainText('/api/cart');
  await page.keyboard.press('Enter');
  const network = page.getByTestId('network-panel');
  await expect(network).toBeVisible();
  await expect(network.getByTestId('network-row').filter({ hasText: '/api/cart' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(network.getByRole('tab', { name: 'Headers' })).toBeVisible();
  await expect(page.getByTestId('network-table')).toBeFocused();
  await page.getByTestId('back-to-timeline').click();
  await expect(timeline).toBeVisible();
});

test('a console message and a state action opened from the timeline are selected in their panels, past the filters that hid them', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWindow(page, env.inspector);
  const debuggee = await context.newPage();
  await debuggee.goto(
    env.served.pageUrl({ inspector: env.inspector.info.debuggeeUrl, plugins: ['console', 'state'], appName: 'Cart' }),
  );
  await expect(debuggee.locator('#status')).toHaveText('connected');
  // A store as Zustand's devtools middleware reports one (through the extension's API the plugin puts on the page).
  await debuggee.evaluate(() => {
    type Ext = { connect(o: { name: string }): { init(s: unknown): void; send(a: unknown, s: unknown): void } };
    const store = (window as unknown as { __REDUX_DEVTOOLS_EXTENSION__: Ext }).__REDUX_DEVTOOLS_EXTENSION__.connect({
      name: 'cart',
    });
    store.init({ items: 0 });
    store.send({ type: 'cart/add' }, { items: 1 });
    console.log('added to the cart');
    store.send({ type: 'cart/remove' }, { items: 0 });
    for (let i = 0; i < 40; i++) console.info(`later message ${i}`);
  });
  await page.bringToFront();
  await page.getByTestId('session').first().click();

  // The console hides info messages and filters by text: the message asked for is shown anyway.
  await page.getByTestId('plugin').filter({ hasText: 'Console' }).click();
  const consolePanel = page.getByTestId('console-panel');
  await expect(consolePanel.getByTestId('console-row').filter({ hasText: 'later message 39' })).toHaveCount(1);
  await consolePanel.getByTestId('console-level-info').uncheck();
  await consolePanel.getByTestId('console-filter').fill('nothing like it');

  await page.getByTestId('timeline-item').click();
  const timeline = page.getByTestId('timeline');
  const rows = timeline.getByTestId('timeline-row');
  await rows.filter({ hasText: 'added to the cart' }).click();
  await page.keyboard.press('Enter');
  await expect(consolePanel).toBeVisible();
  const selected = consolePanel.getByRole('row', { selected: true });
  await expect(selected).toHaveCount(1);
  await expect(selected).toContainText('added to the cart');
  await expect(consolePanel.getByTestId('console-list')).toBeFocused();
  await expect(consolePanel.getByTestId('console-level-info')).toBeChecked();
  await expect(consolePanel.getByTestId('console-filter')).toHaveValue('');
  // The list is the tab stop it was: arrows go on from the message.
  await page.keyboard.press('ArrowDown');
  await expect(consolePanel.getByRole('row', { selected: true })).toContainText('later message 0');

  await page.getByTestId('back-to-timeline').click();
  await rows.filter({ hasText: 'cart/add' }).click();
  await page.keyboard.press('Enter');
  const statePanel = page.getByTestId('state-panel');
  await expect(statePanel).toBeVisible();
  const action = statePanel.getByRole('listbox', { name: 'Actions' }).getByRole('option', { selected: true });
  await expect(action).toContainText('cart/add');
  await expect(action).toBeFocused();
  await expect(statePanel.getByTestId('state-action-detail')).toContainText('cart/add');
});
