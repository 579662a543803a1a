import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CallToolResult, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { type ServedPage, serveDebuggeePage } from './support/debuggee-page.js';
import { type RunningInspector, startInspector } from './support/inspector.js';
import { buildRenderer, mcpClient, openWindow, screenshot } from './window.helpers.js';

// Agent permissions from the window: the person at a real Chromium window answers an agent's
// question (allow, deny, no answer), denies a tool, and switches to read-only; a real MCP SDK client
// over HTTP sees what it may do. The debuggee is a real browser page with the network plugin.

type Result = CallToolResult & { structuredContent?: Record<string, unknown> };
const textOf = (r: Result) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');

const RULE = {
  op: 'add',
  rule: {
    name: 'user is down',
    match: { method: 'GET', url: { kind: 'contains', value: '/api/user' } },
    action: { type: 'respond', status: 500, body: { type: 'json', json: { error: 'boom' } } },
  },
};

let served: ServedPage;

test.beforeAll(async () => {
  await buildRenderer();
  served = await serveDebuggeePage({
    '/api/user': (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":1}'),
  });
});

test.afterAll(async () => {
  await served?.close();
});

async function connectDebuggee(context: BrowserContext, inspector: RunningInspector): Promise<Page> {
  const debuggee = await context.newPage();
  await debuggee.goto(
    served.pageUrl({ inspector: inspector.info.debuggeeUrl, plugins: ['network'], appName: 'Acme Shop' }),
  );
  await expect(debuggee.locator('#status')).toHaveText('connected');
  return debuggee;
}

async function openPermissions(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Permissions/ }).click();
  await expect(page.getByTestId('permissions-view')).toBeVisible();
}

const row = (page: Page, tool: string) => page.locator(`[data-testid="permission-row"][data-tool="${tool}"]`);

test.describe('with a window open', () => {
  let inspector: RunningInspector;

  test.beforeEach(async () => {
    inspector = await startInspector();
  });
  test.afterEach(async () => {
    await inspector.stop();
  });

  test('ask → Allow once in the window: the agent’s call runs; recorded as allowed by the user', async ({
    page,
    context,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openWindow(page, inspector);
    await connectDebuggee(context, inspector);
    await page.bringToFront();
    await openPermissions(page);
    await page.getByRole('button', { name: 'Ask before changes' }).click();
    await expect(row(page, 'network_set_mock_rules')).toHaveAttribute('data-permission', 'ask');
    await expect(row(page, 'network_list_transactions')).toHaveAttribute('data-permission', 'allow');

    const mcp = await mcpClient(inspector, 'e2e-agent');
    try {
      const pending = mcp.client.callTool({ name: 'network_set_mock_rules', arguments: RULE }) as Promise<Result>;
      const dialog = page.getByRole('dialog', { name: /e2e-agent 0\.9\.0 wants to run network_set_mock_rules/ });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(
        '"user is down": GET, URL contains "/api/user" → respond 500 with a json body',
      );
      await expect(dialog).toContainText('over HTTP');
      await expect(page.locator('.activity')).toContainText('Waiting for you: network_set_mock_rules');
      await expect(dialog.getByRole('region', { name: 'Arguments' })).toContainText('/api/user');
      // A change to mock rules is destructive: Deny, the safe answer, has the focus (Enter denies).
      await expect(dialog.getByRole('button', { name: 'Deny' })).toBeFocused();
      await screenshot(page, 'permissions-ask-dialog');

      await dialog.getByRole('button', { name: 'Allow once' }).click();
      const result = await pending;
      expect(result.isError ?? false, textOf(result)).toBe(false);
      await expect(dialog).toBeHidden();

      await page.getByRole('button', { name: /Call history/ }).click();
      const call = page.getByTestId('call-row').filter({ hasText: 'network_set_mock_rules' });
      await expect(call).toHaveAttribute('data-status', 'succeeded');
      await call.click();
      await expect(page.getByTestId('call-decision')).toHaveText('Allowed once by the user in the window');
    } finally {
      await mcp.close();
    }
  });

  test('ask → Deny in the window: the call is refused with “ask the user”; the history says the user declined', async ({
    page,
    context,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openWindow(page, inspector);
    const debuggee = await connectDebuggee(context, inspector);
    await page.bringToFront();
    await openPermissions(page);
    await row(page, 'network_set_mock_rules').getByRole('radio', { name: 'Ask me' }).check();
    await expect(row(page, 'network_set_mock_rules')).toHaveAttribute('data-permission', 'ask');

    const mcp = await mcpClient(inspector, 'e2e-agent');
    try {
      const pending = mcp.client.callTool({ name: 'network_set_mock_rules', arguments: RULE }) as Promise<Result>;
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Deny' }).click();
      const result = await pending;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/the user declined network_set_mock_rules .* ask the user/);
      // Nothing changed in the app: the request still gets the real answer.
      const status = await debuggee.evaluate(() => fetch('/api/user').then((r) => r.status));
      expect(status).toBe(200);

      await page.getByRole('button', { name: /Call history/ }).click();
      const call = page.getByTestId('call-row').filter({ hasText: 'network_set_mock_rules' });
      await expect(call).toHaveAttribute('data-status', 'refused');
      await expect(call).toContainText('Refused');
      await call.click();
      await expect(page.getByTestId('call-decision')).toHaveText('Declined by the user in the window');
      await expect(page.getByTestId('call-detail')).toContainText('ask the user what they want instead');
      await screenshot(page, 'permissions-history-declined');
    } finally {
      await mcp.close();
    }
  });

  test('Deny in the window: the tool leaves the agent’s tool list and a call to it is refused', async ({ page }) => {
    await openWindow(page, inspector);
    const mcp = await mcpClient(inspector, 'e2e-agent');
    let listChanged = 0;
    mcp.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged++;
    });
    try {
      const names = async () => (await mcp.client.listTools()).tools.map((t) => t.name);
      expect(await names()).toContain('network_clear_transactions');
      await openPermissions(page);
      await row(page, 'network_clear_transactions').getByRole('radio', { name: 'Deny' }).check();
      await expect(row(page, 'network_clear_transactions')).toHaveAttribute('data-permission', 'deny');
      await expect.poll(() => listChanged).toBeGreaterThan(0);
      expect(await names()).not.toContain('network_clear_transactions');

      const result = (await mcp.client.callTool({ name: 'network_clear_transactions', arguments: {} })) as Result;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/turned off: the user denied it to AI agents in the Porthole window/);

      await page.getByRole('button', { name: /Call history/ }).click();
      const call = page.getByTestId('call-row').filter({ hasText: 'network_clear_transactions' });
      await expect(call).toHaveAttribute('data-status', 'refused');
      await call.click();
      await expect(page.getByTestId('call-decision')).toHaveText('Denied by the permissions (the tool is set to deny)');
    } finally {
      await mcp.close();
    }
  });

  test('a per-client entry set in the window applies to that client only', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openWindow(page, inspector);
    const strict = await mcpClient(inspector, 'e2e-agent');
    const other = await mcpClient(inspector, 'other-agent');
    try {
      const names = async (c: typeof strict) => (await c.client.listTools()).tools.map((t) => t.name);
      await openPermissions(page);
      const scope = page.getByTestId('permission-scope');
      await expect(scope.locator('option')).toHaveCount(3);
      await scope.selectOption({ label: 'the client “e2e-agent”' });
      await row(page, 'network_clear_transactions').getByRole('radio', { name: 'Deny' }).check();
      await expect(row(page, 'network_clear_transactions')).toContainText('set for this client');
      await screenshot(page, 'permissions-per-client');
      await expect.poll(async () => (await names(strict)).includes('network_clear_transactions')).toBe(false);
      expect(await names(other)).toContain('network_clear_transactions');
      const refused = (await strict.client.callTool({ name: 'network_clear_transactions', arguments: {} })) as Result;
      expect(textOf(refused)).toMatch(/for the client "e2e-agent"/);

      // Back to the setting for all clients.
      await row(page, 'network_clear_transactions')
        .getByRole('button', { name: 'Use the setting for all clients' })
        .click();
      await expect.poll(async () => (await names(strict)).includes('network_clear_transactions')).toBe(true);
      await scope.selectOption({ label: 'all clients' });
      await expect(row(page, 'network_clear_transactions')).toHaveAttribute('data-permission', 'allow');
    } finally {
      await strict.close();
      await other.close();
    }
  });

  test('the read-only switch hides every tool that changes something from the agent', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openWindow(page, inspector);
    const mcp = await mcpClient(inspector, 'e2e-agent');
    let listChanged = 0;
    mcp.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged++;
    });
    try {
      const all = (await mcp.client.listTools()).tools;
      const changing = all.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name);
      expect(changing).toContain('network_set_mock_rules');
      await openPermissions(page);
      await page.getByRole('switch', { name: /Read-only for AI agents/ }).check();
      await expect(row(page, 'network_set_mock_rules')).toHaveAttribute('data-permission', 'deny');
      await expect(row(page, 'network_set_mock_rules')).toContainText('denied by the read-only switch');
      await expect(page.getByRole('button', { name: /^Permissions/ })).toContainText('read-only');
      await expect.poll(() => listChanged).toBeGreaterThan(0);
      const names = (await mcp.client.listTools()).tools.map((t) => t.name);
      for (const name of changing) expect(names).not.toContain(name);
      expect(names).toContain('network_list_transactions');
      expect(names.length).toBe(all.length - changing.length);
      await screenshot(page, 'permissions-read-only');

      // Switched off again in the window, the tools come back.
      await page.getByRole('switch', { name: /Read-only for AI agents/ }).uncheck();
      await expect.poll(async () => (await mcp.client.listTools()).tools.length).toBe(all.length);
    } finally {
      await mcp.close();
    }
  });
});

test('ask with no answer: the prompt closes by itself at the timeout and the call is refused', async ({
  page,
  context,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'porthole-e2e-'));
  writeFileSync(
    join(dataDir, 'permissions.json'),
    JSON.stringify({ tools: { network_set_mock_rules: 'ask' }, askTimeoutMs: 2000 }),
  );
  const inspector = await startInspector({ dataDir });
  try {
    await openWindow(page, inspector);
    await connectDebuggee(context, inspector);
    await page.bringToFront();
    const mcp = await mcpClient(inspector, 'e2e-agent');
    try {
      const started = Date.now();
      const pending = mcp.client.callTool({ name: 'network_set_mock_rules', arguments: RULE }) as Promise<Result>;
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(/No answer in \d s denies it/);
      const result = await pending;
      expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/nobody answered the permission prompt in the Porthole window within 2 s/);
      await expect(dialog).toBeHidden();

      await page.getByRole('button', { name: /Call history/ }).click();
      const call = page.getByTestId('call-row').filter({ hasText: 'network_set_mock_rules' });
      await expect(call).toHaveAttribute('data-status', 'refused');
      await call.click();
      await expect(page.getByTestId('call-decision')).toHaveText('Refused: nobody answered the prompt in time');
    } finally {
      await mcp.close();
    }
  } finally {
    await inspector.stop();
  }
});
