import { createReadStream } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, type Page, test } from '@playwright/test';
import { build } from 'vite';
import { contentTypeOf, resolveRendererFile } from '../electron/host/ui-bridge/static-ui.js';
import { ROOT, type RunningInspector, startInspector } from './support/inspector.js';
import { buildRenderer, mcpClient, openWindow, screenshot, toolJson } from './window.helpers.js';

// A Vite-built page with Redux Toolkit (devTools at its default), a Zustand store with the devtools
// middleware and a TanStack QueryClient, plus connect() and the state plugin and nothing else
// (e2e/fixtures/state-app), in Chromium; an outside MCP SDK client lists, reads by path, follows an
// action's diff and dispatches with Ask answered in the window; the State panel is used by keyboard
// and passes axe-core in both themes.

type Result = CallToolResult & { structuredContent?: Record<string, unknown> };
const textOf = (r: Result) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');

const OUT = join(ROOT, 'out/e2e-state-app');
let server: Server;
let appUrl: string;
let inspector: RunningInspector;

test.beforeAll(async () => {
  await buildRenderer();
  // Development mode, as an app being debugged runs (Zustand's devtools turn themselves off in production).
  await build({
    root: join(ROOT, 'e2e/fixtures/state-app'),
    mode: 'development',
    base: './',
    logLevel: 'warn',
    build: { outDir: OUT, emptyOutDir: true, minify: true },
  });
  server = createServer((req, res) => {
    const file = resolveRendererFile(OUT, new URL(req.url ?? '/', 'http://x').pathname);
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': contentTypeOf(file) });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
test.afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));
test.beforeEach(async () => {
  inspector = await startInspector();
});
test.afterEach(async () => {
  await inspector?.stop();
});

async function openApp(page: Page): Promise<void> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${appUrl}?${new URLSearchParams({ inspector: inspector.info.debuggeeUrl })}`);
  await expect(page.locator('#status')).toHaveText('connected');
  await expect(page.locator('#todos li')).toHaveCount(1);
  expect(errors).toEqual([]);
}

test('an outside MCP client lists, reads by path, follows a diff, and dispatches with Ask answered', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWindow(page, inspector);
  const app = await context.newPage();
  await openApp(app);
  const mcp = await mcpClient(inspector, 'e2e-agent');
  try {
    const call = (name: string, args: Record<string, unknown> = {}) =>
      mcp.client.callTool({ name, arguments: args }) as Promise<Result>;

    await expect
      .poll(async () =>
        ((toolJson(await call('state_list_stores')).stores as { name: string }[]) ?? []).map((s) => s.name),
      )
      .toEqual(['redux', 'bears']);
    const stores = toolJson(await call('state_list_stores'));
    expect(stores.stores).toEqual([
      expect.objectContaining({ name: 'redux', library: 'redux', early: expect.any(String) }),
      expect.objectContaining({ name: 'bears', library: 'zustand', can: ['dispatch', 'set', 'jump'] }),
    ]);
    expect(stores.queryCount).toBe(1);

    const title = toolJson(await call('state_get', { store: 'redux', path: 'items[0].title' }));
    expect(title).toMatchObject({ path: 'items[0].title', value: 'milk' });
    const session = toolJson(await call('state_get', { store: 'redux', path: 'session' }));
    expect(session.value).toEqual({ user: 'ann', token: '[redacted]' });

    // The person clicks in the app; the agent follows the action and its diff.
    await app.locator('#add').click();
    await app.locator('#todos input').first().check();
    await expect
      .poll(
        async () =>
          (toolJson(await call('state_list_actions', { store: 'redux', since: 0 })).actions as unknown[]).length,
      )
      .toBe(2);
    const actions = toolJson(await call('state_list_actions', { store: 'redux', since: 0 })).actions as Record<
      string,
      unknown
    >[];
    expect(actions).toEqual([
      expect.objectContaining({
        seq: 1,
        type: 'todos/added',
        payload: { payload: 'todo 2' },
        diff: [{ path: 'items[1]', after: { id: 2, title: 'todo 2', done: false } }],
      }),
      expect.objectContaining({
        seq: 2,
        type: 'todos/toggled',
        diff: [{ path: 'items[0].done', before: false, after: true }],
      }),
    ]);
    const queries = toolJson(await call('state_list_stores', { queries: true }));
    expect(queries.queries).toEqual([expect.objectContaining({ key: ['todos', 'remote'], status: 'success' })]);

    // state_dispatch asks by default: the window's prompt, answered by the person.
    await page.bringToFront();
    const pending = call('state_dispatch', {
      store: 'redux',
      action: { type: 'todos/added', payload: 'from the agent' },
    });
    const dialog = page.getByRole('dialog', { name: /e2e-agent 0\.9\.0 wants to run state_dispatch/ });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(
      'Dispatches {"type":"todos/added","payload":"from the agent"} to store "redux" in the app.',
    );
    await screenshot(page, 'state-ask-dialog');
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    const done = await pending;
    expect(done.isError ?? false, textOf(done)).toBe(false);
    expect(toolJson(done)).toMatchObject({ actions: [{ seq: 3, type: 'todos/added', diff: [{ path: 'items[2]' }] }] });
    await expect(app.locator('#todos li')).toHaveCount(3);
    await expect(app.locator('#todos li').last()).toHaveText('from the agent');

    // Time travel, then Zustand's set, both allowed for the session.
    const jumping = call('state_dispatch', { store: 'redux', mode: 'jump', action: 1 });
    await page.getByRole('dialog').getByRole('button', { name: 'Allow for this session' }).click();
    expect((await jumping).isError ?? false).toBe(false);
    await expect(app.locator('#todos li')).toHaveCount(2);
    await expect(app.locator('#todos input').first()).not.toBeChecked();
    expect((await call('state_dispatch', { store: 'bears', mode: 'set', action: { bears: 4 } })).isError ?? false).toBe(
      false,
    );
    await expect(app.locator('#bear')).toHaveText('Bears: 4');
  } finally {
    await mcp.close();
  }
});

test('the State panel: stores, timeline with diffs, state tree with search, dispatch and jump; keyboard and axe in both themes', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWindow(page, inspector);
  const app = await context.newPage();
  await openApp(app);
  await app.locator('#add').click();
  await page.bringToFront();
  await page.getByTestId('plugin').filter({ hasText: 'State' }).click();
  const panel = page.getByTestId('state-panel');
  await expect(panel.getByTestId('state-store')).toHaveCount(2);
  await expect(panel.getByTestId('state-action')).toHaveCount(2);

  // The newest action is selected: its diff.
  await expect(panel.getByTestId('state-action-detail')).toContainText('todos/added');
  await expect(panel.getByTestId('state-action-detail')).toContainText('items[1]');
  await expect(panel.getByTestId('state-tree')).toContainText('milk');

  // Keyboard: the timeline is one Tab stop; arrows move the selection.
  const timeline = panel.getByRole('listbox', { name: 'Actions' });
  await timeline.getByRole('option').last().focus();
  await page.keyboard.press('ArrowUp');
  await expect(timeline.getByRole('option', { selected: true })).toContainText('@@INIT');
  await expect(timeline.getByRole('option', { selected: true })).toBeFocused();
  await expect(panel.getByTestId('state-action-detail')).toContainText('The first state.');

  // Search the state, go to a path.
  await panel.getByRole('searchbox', { name: /Search the state/ }).fill('todo 2');
  await expect(panel.getByRole('list', { name: 'Matches' })).toContainText('items[1].title');
  await panel.getByRole('list', { name: 'Matches' }).getByRole('button', { name: 'items[1].title' }).click();
  await expect(panel.getByTestId('state-tree')).toContainText('todo 2');
  await panel.getByRole('searchbox', { name: /Search the state/ }).fill('');
  await panel.getByRole('button', { name: 'Root', exact: true }).click();

  // Dispatch from the panel, then jump back.
  await panel.getByLabel('The action, as JSON').fill('{"type":"todos/added","payload":"from the window"}');
  await panel.getByRole('button', { name: 'Dispatch', exact: true }).click();
  await expect(app.locator('#todos li')).toHaveCount(3);
  await expect(panel.getByTestId('state-action')).toHaveCount(3);
  await panel.getByTestId('state-action').first().click();
  await panel.getByRole('button', { name: 'Jump to this state' }).click();
  await expect(app.locator('#todos li')).toHaveCount(1);
  await page.bringToFront();

  // The Agent view: what state_get answers an agent.
  await panel.getByRole('tab', { name: 'Agent view' }).click();
  await expect(panel.getByTestId('state-agent-result')).toContainText('[redacted]');

  const found: string[] = [];
  for (const theme of ['light', 'dark']) {
    const toggle = page.getByRole('button', { name: `Switch to the ${theme} theme` });
    if (await toggle.isVisible()) await toggle.click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    for (const view of ['agent', 'state', 'queries']) {
      if (view === 'state') await panel.getByRole('tab', { name: 'State', exact: true }).click();
      if (view === 'queries') {
        await panel.getByTestId('state-queries').click();
        await panel.getByTestId('state-query').first().getByRole('button').click();
        await expect(panel.getByTestId('state-query-detail')).toContainText('from the server');
      }
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      await page.bringToFront();
      for (const v of results.violations) {
        if (v.impact === 'critical' || v.impact === 'serious') {
          found.push(`${theme} ${view}: ${v.impact} ${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
        }
      }
      await screenshot(page, `state-panel-${view}-${theme}`);
      if (view === 'queries') await panel.getByTestId('state-store').first().click();
    }
  }
  expect(found, found.join('\n')).toEqual([]);
});
