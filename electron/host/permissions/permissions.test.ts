import { statSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setMockRules } from '../../../plugins/network/host/tools.js';
import { describeAction, describeMatch } from '../../../plugins/network/mock-describe.js';
import type { PermissionAsk } from '../../../shared/permissions.js';
import { defineTool } from '../../../shared/tool.js';
import { connectMcpClient, type McpTransportKind } from '../mcp/mcp-testing.js';
import { startTestCore, waitFor } from '../testing.js';
import { registeredTool } from '../tools/tool-registry.js';
import { BridgeClient } from '../ui-bridge/bridge-testing.js';
import { describeChange, MAX_ASK_ARGS_CHARS, Permissions } from './permissions.js';
import { permissionsPath } from './permissions-file.js';

type TestCore = Awaited<ReturnType<typeof startTestCore>>;
type Result = CallToolResult & { structuredContent?: Record<string, unknown> };

const CHANGE = 'inspector_test_change';
const READ = 'inspector_test_read';
let changes = 0;

/** A host tool that changes something (a counter) and one that only reads. */
const testTools = [
  defineTool({
    name: CHANGE,
    title: 'Test: change something',
    description: 'Adds one to a counter.',
    input: z.object({ by: z.number().int().optional() }),
    annotations: { readOnlyHint: false, destructiveHint: false },
    describeChange: ({ by }) => `adds ${by ?? 1} to the test counter`,
    handler: ({ by }) => {
      changes += by ?? 1;
      return `counter is ${changes}`;
    },
  }),
  defineTool({
    name: READ,
    title: 'Test: read something',
    description: 'Reads the counter.',
    input: z.object({}),
    annotations: { readOnlyHint: true },
    handler: () => `counter is ${changes}`,
  }),
];

const textOf = (r: Result) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each<McpTransportKind>(['http', 'stdio'])('agent permissions over MCP %s', (kind) => {
  const clientInfo = { name: `perm-client-${kind}`, version: '1.0.0' };
  let t: TestCore;
  let mcp: Client;
  let closeClient: () => Promise<void>;
  let listChanged = 0;
  const windows: BridgeClient[] = [];

  const call = (name: string, args: Record<string, unknown> = {}) =>
    mcp.callTool({ name, arguments: args }) as Promise<Result>;
  const listed = async () => (await mcp.listTools()).tools.map((tool) => tool.name);
  const lastCall = (tool: string) => t.core.history.list(undefined, { tool })[0]!;
  const openWindow = async () => {
    const w = await BridgeClient.open(t);
    windows.push(w);
    await w.result('app.snapshot');
    return w;
  };
  const nextAsk = async (w: BridgeClient, seen = 0) => {
    const event = await waitFor(() => w.events('permission:ask')[seen], 'the window to be asked');
    return event.data.ask as PermissionAsk;
  };

  beforeAll(async () => {
    t = await startTestCore();
    t.core.tools.register(testTools);
    const connected = await connectMcpClient(
      kind,
      { mcpUrl: t.urls.mcpUrl, dataDir: t.dataDir, token: t.core.mcp.token() },
      clientInfo,
    );
    mcp = connected.client;
    closeClient = connected.close;
    mcp.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged++;
    });
    // Notifications travel on the client's standalone stream (over stdio, the bridge's), which opens
    // just after initialize: under load, later than the first test would change the policy.
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    for (let i = 0; i < 50 && listChanged === 0; i++) {
      t.core.permissions.set({ tools: { [CHANGE]: 'deny' } });
      await sleep(50);
      t.core.permissions.set({});
      await sleep(50);
    }
    await sleep(200);
  });
  afterEach(async () => {
    for (const w of windows.splice(0)) w.ws.close();
    await waitFor(() => t.core.ui.bridge.connectionCount === 0, 'the windows to close');
    t.core.permissions.set({});
  });
  afterAll(async () => {
    await closeClient();
    await t.stop();
  });

  it('a denied tool is not listed (list_changed is sent), a call to it is refused and recorded as refused by the policy', async () => {
    expect(await listed()).toContain(CHANGE);
    const before = listChanged;
    t.core.permissions.set({ tools: { [CHANGE]: 'deny' } });
    await waitFor(() => listChanged > before, 'notifications/tools/list_changed');
    const names = await listed();
    expect(names).not.toContain(CHANGE);
    expect(names).toContain(READ);

    const count = changes;
    const result = await call(CHANGE);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/turned off: the user denied it .* in the Porthole window \(Permissions\)/);
    expect(textOf(result)).toMatch(/ask the user to allow it there/);
    expect(changes).toBe(count);
    const record = lastCall(CHANGE);
    expect(record).toMatchObject({ status: 'refused', decision: { outcome: 'denied', by: 'policy' } });
    expect(record.surface).toBe(kind === 'http' ? 'mcp-http' : 'mcp-stdio');

    // The window's own tool runner is not gated.
    const run = await t.core.tools.run(CHANGE, {});
    expect(run.result.isError).toBe(false);
    expect(changes).toBe(count + 1);

    t.core.permissions.set({});
    await eventually(async () => (await listed()).includes(CHANGE), 'the tool to come back');
  });

  it('the read-only switch hides every tool that changes something and refuses calls to them', async () => {
    const before = listChanged;
    t.core.permissions.set({ readOnly: true });
    await waitFor(() => listChanged > before, 'notifications/tools/list_changed');
    await new Promise((r) => setTimeout(r, 150));
    // One notification for the whole change, not one per tool.
    expect(listChanged).toBe(before + 1);
    const names = await listed();
    for (const tool of t.core.tools.list()) {
      expect(names.includes(tool.name), tool.name).toBe(tool.annotations.readOnlyHint === true);
    }
    expect(names).toContain('network_list_transactions');
    expect(names).not.toContain('network_set_mock_rules');
    expect(names).not.toContain('console_clear');

    const result = await call(CHANGE);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/read-only for AI agents/);
    expect(lastCall(CHANGE)).toMatchObject({ status: 'refused', decision: { outcome: 'denied', by: 'read-only' } });
    expect((await call(READ)).isError).toBe(false);
  });

  it('ask: the window is asked with tool, client, arguments and the change; allowed once, the call runs', async () => {
    t.core.permissions.set({ tools: { [CHANGE]: 'ask' } });
    const w = await openWindow();
    const count = changes;
    const progress: string[] = [];
    const pending = mcp.callTool({ name: CHANGE, arguments: { by: 5 } }, undefined, {
      onprogress: ({ message }) => progress.push(message ?? ''),
    }) as Promise<Result>;
    const ask = await nextAsk(w);
    // A client that asked for progress hears that the call waits for the user.
    await waitFor(() => progress[0], 'a progress notification');
    expect(progress[0]).toMatch(
      /^waiting for the user to allow inspector_test_change in the Porthole window \(\d+ s left/,
    );
    expect(ask).toMatchObject({
      tool: CHANGE,
      client: clientInfo,
      args: { by: 5 },
      change: 'adds 5 to the test counter',
      surface: kind === 'http' ? 'mcp-http' : 'mcp-stdio',
    });
    expect(changes).toBe(count);
    expect(t.core.history.get(ask.callId)?.status).toBe('running');
    // The question is in the view too, for a window opened later.
    const view = await w.result<{ asks: PermissionAsk[] }>('permissions.get');
    expect(view.asks.map((a) => a.id)).toEqual([ask.id]);

    await w.result('permissions.answer', { askId: ask.id, answer: 'allow-once' });
    const result = await pending;
    expect(result.isError).toBe(false);
    expect(changes).toBe(count + 5);
    expect(lastCall(CHANGE)).toMatchObject({
      status: 'succeeded',
      decision: { outcome: 'allowed', by: 'user', scope: 'once' },
    });
    await waitFor(() => w.events('permission:settled').length === 1, 'permission:settled');

    // Once was once: the next call asks again.
    const again = call(CHANGE);
    const second = await nextAsk(w, 1);
    await w.result('permissions.answer', { askId: second.id, answer: 'allow-once' });
    expect((await again).isError).toBe(false);
    // A settled question cannot be answered again.
    const late = await w.request('permissions.answer', { askId: second.id, answer: 'deny' });
    expect(late).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('the window sets the policy through the bridge: a preset, a bad policy refused with what is wrong', async () => {
    const w = await openWindow();
    const view = await w.result<{ tools: { name: string; permission: string }[] }>('permissions.preset', {
      preset: 'ask-before-changes',
    });
    const of = (name: string) => view.tools.find((tool) => tool.name === name)?.permission;
    expect(of(CHANGE)).toBe('ask');
    expect(of('network_set_mock_rules')).toBe('ask');
    expect(of(READ)).toBe('allow');
    await waitFor(() => w.events('permissions:changed').length > 0, 'permissions:changed');
    const bad = await w.request('permissions.set', { policy: { tools: { [CHANGE]: 'maybe' } } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-params' } });
    expect(!bad.ok && bad.error.message).toMatch(/allow.*ask.*deny/);
    expect(t.core.permissions.policy().tools[CHANGE]).toBe('ask');
  });

  it('ask: declined in the window, the call is refused with a message to ask the user, recorded as declined', async () => {
    t.core.permissions.set({ tools: { [CHANGE]: 'ask' } });
    const w = await openWindow();
    const count = changes;
    const pending = call(CHANGE);
    const ask = await nextAsk(w);
    await w.result('permissions.answer', { askId: ask.id, answer: 'deny' });
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/the user declined .* ask the user what they want instead/);
    expect(changes).toBe(count);
    expect(lastCall(CHANGE)).toMatchObject({ status: 'refused', decision: { outcome: 'declined', by: 'user' } });
  });

  it('ask: allowed for this session, later calls of the client run without asking', async () => {
    t.core.permissions.set({ tools: { [CHANGE]: 'ask' } });
    const w = await openWindow();
    const pending = call(CHANGE);
    const ask = await nextAsk(w);
    await w.result('permissions.answer', { askId: ask.id, answer: 'allow-session' });
    expect((await pending).isError).toBe(false);
    expect(lastCall(CHANGE).decision).toEqual({ outcome: 'allowed', by: 'user', scope: 'session', where: 'window' });
    expect((await call(CHANGE)).isError).toBe(false);
    expect(lastCall(CHANGE).decision).toEqual({ outcome: 'allowed', by: 'session-grant' });
    expect(w.events('permission:ask')).toHaveLength(1);
    const view = await w.result<{ grants: { client: string; tool: string }[] }>('permissions.get');
    expect(view.grants).toContainEqual(expect.objectContaining({ client: clientInfo.name, tool: CHANGE }));
  });

  it('ask: a client that gives up while the window is asking closes the prompt; the call is cancelled', async () => {
    t.core.permissions.set({ tools: { [CHANGE]: 'ask' } });
    const w = await openWindow();
    const count = changes;
    const controller = new AbortController();
    const pending = mcp.callTool({ name: CHANGE, arguments: {} }, undefined, { signal: controller.signal });
    const ask = await nextAsk(w);
    controller.abort();
    await expect(pending).rejects.toThrow();
    const settled = await waitFor(() => w.events('permission:settled')[0], 'permission:settled');
    expect(settled.data).toEqual({ askId: ask.id, callId: ask.callId });
    await waitFor(() => t.core.history.get(ask.callId)?.status === 'cancelled', 'the call to be cancelled');
    expect(t.core.permissions.asks()).toEqual([]);
    expect(changes).toBe(count);
  });

  it('ask: no answer within the timeout is a denial that says to ask the user', async () => {
    t.core.permissions.set({ tools: { [CHANGE]: 'ask' }, askTimeoutMs: 300 });
    const w = await openWindow();
    const count = changes;
    const started = Date.now();
    const result = await call(CHANGE);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/nobody answered the permission prompt .* within 300 ms. Ask the user/);
    expect(changes).toBe(count);
    expect(lastCall(CHANGE)).toMatchObject({ status: 'refused', decision: { outcome: 'timed-out', by: 'timeout' } });
    await waitFor(() => w.events('permission:settled').length === 1, 'permission:settled');
  });

  it('ask without a window: denied by the headless setting, which says so; allowed when set to allow', async () => {
    t.core.permissions.set({ tools: { [CHANGE]: 'ask' } });
    expect(t.core.ui.bridge.connectionCount).toBe(0);
    const count = changes;
    const result = await call(CHANGE);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/no Porthole window is open to ask in, and the inspector is set to deny/);
    expect(changes).toBe(count);
    expect(lastCall(CHANGE)).toMatchObject({
      status: 'refused',
      decision: { outcome: 'denied', by: 'headless-setting' },
    });

    t.core.permissions.set({ tools: { [CHANGE]: 'ask' }, headlessAsk: 'allow' });
    expect((await call(CHANGE)).isError).toBe(false);
    expect(lastCall(CHANGE)).toMatchObject({
      status: 'succeeded',
      decision: { outcome: 'allowed', by: 'headless-setting' },
    });
  });

  it('inspector_get_status tells the client its permissions; a per-client entry applies to that client only', async () => {
    t.core.permissions.set({
      tools: { [READ]: 'ask' },
      clients: { [clientInfo.name]: { tools: { [CHANGE]: 'deny' } }, 'another-client': { readOnly: true } },
    });
    await eventually(async () => !(await listed()).includes(CHANGE), 'the client-specific deny to apply');
    const status = await call('inspector_get_status');
    const permissions = status.structuredContent?.permissions as {
      readOnly: boolean;
      windowOpen: boolean;
      whenNoWindow: string;
      tools: { name: string; permission: string; reason: string }[];
    };
    expect(permissions).toMatchObject({ readOnly: false, windowOpen: false, whenNoWindow: 'deny' });
    const of = (name: string) => permissions.tools.find((tool) => tool.name === name);
    expect(of(CHANGE)).toEqual({ name: CHANGE, permission: 'deny', reason: 'client' });
    expect(of(READ)).toEqual({ name: READ, permission: 'ask', reason: 'tool' });
    expect(of('network_set_mock_rules')).toEqual({
      name: 'network_set_mock_rules',
      permission: 'allow',
      reason: 'default',
    });
    expect(textOf(await call(CHANGE))).toMatch(/for the client "perm-client-/);
  });
});

describe('the permissions file', () => {
  it('is written 0600 in the data dir, survives a restart, and a damaged one is kept aside for the defaults', async () => {
    const first = await startTestCore();
    first.core.permissions.set({ readOnly: true, tools: { network_list_transactions: 'ask' } });
    const path = permissionsPath(first.dataDir);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const refused = await first.core.tools.call('network_set_mock_rules', {}, { surface: 'mcp-http' });
    expect(refused.status).toBe('refused');
    await first.stop({ keepData: true });

    const second = await startTestCore({ dataDir: first.dataDir });
    try {
      expect(second.core.permissions.policy()).toMatchObject({
        readOnly: true,
        tools: { network_list_transactions: 'ask' },
      });
      // The decision is in the history read back from disk.
      expect(second.core.history.get(refused.callId)).toMatchObject({
        status: 'refused',
        decision: { outcome: 'denied', by: 'read-only' },
      });
      const mcp = await connectMcpClient('http', {
        mcpUrl: second.urls.mcpUrl,
        dataDir: second.dataDir,
        token: second.core.mcp.token(),
      });
      const names = (await mcp.client.listTools()).tools.map((tool) => tool.name);
      expect(names).not.toContain('network_set_mock_rules');
      expect(names).toContain('network_list_transactions');
      await mcp.close();
    } finally {
      await second.stop({ keepData: true });
    }

    const { writeFileSync, readdirSync } = await import('node:fs');
    writeFileSync(path, '{"readOnly": "yes"}');
    const third = await startTestCore({ dataDir: first.dataDir });
    try {
      expect(third.core.permissions.policy().readOnly).toBe(false);
      expect(readdirSync(first.dataDir).some((name) => name.startsWith('permissions.json.invalid-'))).toBe(true);
    } finally {
      await third.stop();
    }
  });
});

describe('what the prompt says a call changes', () => {
  it("describes a mock rule as the Mocks tab does, and falls back to the tool's annotations", () => {
    const rule = {
      match: { method: 'GET', url: { kind: 'contains' as const, value: '/api/user' } },
      action: { type: 'respond' as const, status: 500, body: { type: 'json' as const, json: { error: 'boom' } } },
    };
    const add = registeredTool(setMockRules, 'network');
    expect(describeChange(add, { op: 'add', rule })).toBe(
      `Adds a mock rule, so matching requests get this answer inside the app: ${describeMatch(rule.match)} → ${describeAction(rule.action)}.`,
    );
    expect(describeChange(add, { op: 'add', rule })).toContain(
      'GET, URL contains "/api/user" → respond 500 with a json body',
    );
    const plain = registeredTool(
      defineTool({
        name: 'inspector_test_wipe',
        title: 'Wipe',
        description: 'Wipes.',
        input: z.object({}),
        annotations: { destructiveHint: true },
        handler: () => 'ok',
      }),
    );
    expect(describeChange(plain, {})).toMatch(/^Wipe: .* may delete or overwrite/);
  });
});

describe('a question with very long arguments', () => {
  it('shows a preview of them in the prompt, and the answer still decides the call', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { EventBus } = await import('../event-bus.js');
    const dataDir = mkdtempSync(join(tmpdir(), 'porthole-perm-'));
    try {
      const bus = new EventBus();
      const tool = registeredTool(testTools[0]!);
      const permissions = new Permissions({ dataDir, bus, tools: () => [tool], windows: () => 1 });
      const asks: PermissionAsk[] = [];
      bus.on('permission:ask', ({ ask }) => asks.push(ask));
      const har = 'x'.repeat(MAX_ASK_ARGS_CHARS + 10);
      const decided = permissions.decide({
        callId: 'c1',
        tool,
        args: { har },
        surface: 'mcp-http',
        signal: new AbortController().signal,
      });
      expect(asks).toHaveLength(1);
      const shown = asks[0]!.args as Record<string, string>;
      expect(shown['(not all shown)']).toMatch(/^the arguments are \d+ characters of JSON; the first 65536 follow$/);
      expect(shown.preview).toHaveLength(MAX_ASK_ARGS_CHARS);
      expect(permissions.answer(asks[0]!.id, 'allow-once')).toBe(true);
      expect(await decided).toEqual({
        allowed: true,
        decision: { outcome: 'allowed', by: 'user', scope: 'once', where: 'window' },
      });
      expect(permissions.answer(asks[0]!.id, 'allow-once')).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
