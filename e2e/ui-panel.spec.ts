import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { startInspector } from './support/inspector.js';
import { serveUiApps } from './support/ui-apps.js';
import { buildRenderer, mcpClient, openWindow, screenshot } from './window.helpers.js';

// The UI and Actions panels in the real window of a real `porthole serve`, beside a React to-do
// app in Chromium: the outline live, hover and keyboard focus outlining the element in the app, the
// agent's actions listed and replayed by the person, the app's debug actions run from their forms;
// by keyboard, and axe-clean in both themes.

test.beforeAll(async () => {
  await buildRenderer();
});

async function axe(page: Page, what: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .include(`[data-testid="${what}"]`)
    .withTags(['wcag2a', 'wcag2aa'])
    .analyze();
  await page.bringToFront();
  return results.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('the UI panel: a live outline, inspect on hover and focus, the actions agents took, replayed', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const inspector = await startInspector();
  let id = 7;
  const served = await serveUiApps({
    '/api/todos': (req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: id++ })));
    },
  });
  const mcp = await mcpClient(inspector, 'panel-agent');
  try {
    await openWindow(page, inspector);
    const app = await context.newPage();
    await app.goto(served.url('todo', inspector.info.debuggeeUrl));
    await expect(app.locator('#porthole-status')).toHaveText('connected');
    await page.bringToFront();
    await page.getByTestId('plugin').filter({ hasText: 'UI' }).click();
    const panel = page.getByTestId('ui-panel');
    const lines = panel.locator('.ui-line');
    await expect(lines.filter({ hasText: 'heading "todos"' })).toHaveCount(1);

    // Live: what the person does in the app shows up in the outline.
    await app.locator('.new-todo').fill('water the plants');
    await app.locator('.new-todo').press('Enter');
    await expect(lines.filter({ hasText: 'checkbox "Toggle water the plants"' })).toHaveCount(1, { timeout: 10_000 });

    // Hover: the element is outlined in the app, where it is.
    await lines.filter({ hasText: 'button "Delete water the plants"' }).hover();
    const box = () =>
      app.evaluate(() => {
        const host = document.querySelector('porthole-highlight');
        const el = host?.shadowRoot?.querySelector('.box') as HTMLElement | null;
        return host?.isConnected && el ? el.getBoundingClientRect().toJSON() : null;
      });
    const target = (await app.getByRole('button', { name: 'Delete water the plants' }).boundingBox())!;
    await expect.poll(box).toMatchObject({ x: target.x, y: target.y, width: target.width, height: target.height });
    // The highlight is not part of what the agent sees.
    expect((await mcp.client.callTool({ name: 'ui_snapshot', arguments: {} })).content).not.toContainEqual(
      expect.objectContaining({ text: expect.stringContaining('porthole') }),
    );

    // Keyboard: one tab stop, arrows move through the lines, the focused line is outlined.
    await lines.first().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(lines.nth(2)).toBeFocused();
    await expect(lines.nth(2)).toHaveText(/textbox "What needs to be done\?"/);
    const input = (await app.locator('.new-todo').boundingBox())!;
    await expect.poll(box).toMatchObject({ x: input.x, y: input.y });
    await page.keyboard.press('Tab');
    await expect(lines.nth(3)).not.toBeFocused();
    await page.mouse.move(5, 5);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await expect.poll(box).toBeNull();

    // What an agent does is listed, with who did it; the person can run it again.
    const outline = (await mcp.client.callTool({ name: 'ui_snapshot', arguments: {} })) as {
      content: { text: string }[];
    };
    const ref = outline.content[0]!.text.match(/textbox "What needs to be done\?" (e\d+)/)![1]!;
    await mcp.client.callTool({ name: 'ui_act', arguments: { ref, action: 'fill', value: 'call mum', submit: true } });
    const entries = panel.getByTestId('ui-action');
    await expect(entries).toHaveCount(1);
    await expect(entries.first()).toContainText(/fill textbox "What needs to be done\?" e\d+/);
    await expect(entries.first()).toContainText('by panel-agent');
    await entries.first().locator('summary').click();
    await expect(entries.first().locator('.ui-result')).toContainText('POST http://127.0.0.1');
    await expect(entries.first().locator('.ui-result')).toContainText('checkbox "Toggle call mum"');
    await expect(app.locator('.todo-list li')).toHaveCount(2);
    await entries
      .first()
      .getByRole('button', { name: /^Replay: fill/ })
      .click();
    await expect(entries).toHaveCount(2);
    await expect(entries.first()).toContainText('by window');
    await expect(app.locator('.todo-list li')).toHaveCount(3);
    await expect(app.locator('.todo-list li').last()).toHaveText('call mum×');

    await expect(lines.filter({ hasText: 'text "3 items left"' })).toHaveCount(1);
    await screenshot(page, 'ui-panel-light');
    expect(await axe(page, 'ui-panel')).toEqual([]);
    await page.getByRole('button', { name: /Switch to the dark theme/ }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await screenshot(page, 'ui-panel-dark');
    expect(await axe(page, 'ui-panel')).toEqual([]);

    // The Actions panel: the app's debug actions, run from their forms; a destructive one confirmed.
    await page.getByTestId('plugin').filter({ hasText: 'Actions' }).click();
    const actions = page.getByTestId('actions-panel');
    const seed = actions.getByTestId('action-card').filter({ hasText: 'seed' });
    await seed.getByLabel(/count/i).fill('2');
    await seed.getByRole('button', { name: 'Run' }).click();
    await expect(seed.getByTestId('action-result')).toContainText('added');
    await expect(app.locator('.todo-list li')).toHaveCount(5);
    const clear = actions.getByTestId('action-card').filter({ hasText: 'clearAll' });
    await expect(clear).toContainText('destructive');
    await clear.getByRole('button', { name: 'Run' }).click();
    await expect(clear.getByRole('alert')).toContainText('deletes or overwrites data in the app');
    await expect(app.locator('.todo-list li')).toHaveCount(5);
    await clear.getByRole('button', { name: 'Run it' }).click();
    await expect(clear.getByTestId('action-result')).toContainText('cleared');
    await expect(app.locator('.todo-list li')).toHaveCount(0);
    await screenshot(page, 'actions-panel-dark');
    expect(await axe(page, 'actions-panel')).toEqual([]);
    await page.getByRole('button', { name: /Switch to the light theme/ }).click();
    await screenshot(page, 'actions-panel-light');
    expect(await axe(page, 'actions-panel')).toEqual([]);
  } finally {
    await mcp.close();
    await served.close();
    await inspector.stop();
  }
});
