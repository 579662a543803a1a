import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connect } from '../../../agent/connection.js';
import { connectMcpClient } from '../../../electron/host/mcp/mcp-testing.js';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { startTestCore, waitFor } from '../../../electron/host/testing.js';
import { network } from '../agent/index.js';
import { HarSchema } from '../har-schema.js';
import { connectSilentApp, httpServer } from './testing.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read answers of many shapes
type Result = CallToolResult & { structuredContent?: Record<string, any> };

const textOf = (r: Result) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');

describe('network tools over MCP (Streamable HTTP, real SDK client) with a Node debuggee', () => {
  const defer = cleanupAfterEach();

  async function setup(options: Parameters<typeof startTestCore>[0] = {}) {
    const t = await startTestCore(options);
    defer(() => t.stop());
    const mcp = await connectMcpClient('http', {
      mcpUrl: t.urls.mcpUrl,
      dataDir: t.dataDir,
      token: t.core.mcp.token(),
    });
    defer(() => mcp.close());
    await mcp.client.listTools(); // the SDK client checks structuredContent against the listed output schemas
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      (await mcp.client.callTool({ name, arguments: args })) as Result;
    return { t, client: mcp.client as Client, call };
  }

  it('lists the network tools with annotations and output schemas', async () => {
    const { client } = await setup();
    const { tools } = await client.listTools();
    const network = tools.filter((tool) => tool.name.startsWith('network_'));
    expect(network.map((tool) => tool.name).sort()).toEqual([
      'network_clear_transactions',
      'network_export_har',
      'network_get_mock_config',
      'network_get_transaction',
      'network_import_har',
      'network_inject_message',
      'network_list_messages',
      'network_list_transactions',
      'network_replay_request',
      'network_set_mock_rules',
    ]);
    for (const tool of network) {
      expect(tool.annotations, tool.name).toBeDefined();
      expect(tool.inputSchema.properties).toHaveProperty('sessionId');
      if (tool.name !== 'network_get_transaction')
        expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
    }
  });

  it('a rule added over MCP changes the next fetch; hits rise; turning mocking off restores the real answer', async () => {
    const { t, call } = await setup();
    const plugin = network({ ignoreUrls: [t.urls.mcpUrl] }); // the test's own MCP client runs in this process
    await plugin.ready;
    defer(() => plugin.dispose());
    const agent = connect({ url: t.urls.debuggeeUrl, app: { id: 'com.test.mcp-net', name: 'Net' }, plugins: [plugin] });
    defer(() => agent.disconnect());
    await waitFor(() => agent.status.state === 'connected', 'the agent');
    const s = await httpServer((req, res) => res.end(`real ${req.url}`));
    defer(() => s.close());

    const added = await call('network_set_mock_rules', {
      op: 'add',
      rule: {
        name: 'slow teapot',
        match: { method: 'GET', url: { kind: 'glob', value: `${s.url}/api/*` } },
        action: { type: 'respond', status: 418, body: { type: 'text', text: 'mocked over MCP' }, delayMs: 120 },
      },
    });
    expect(added.isError ?? false, textOf(added)).toBe(false);
    const ruleId = added.structuredContent!.rule.id as string;
    expect(added.structuredContent).toMatchObject({
      rule: {
        id: ruleId,
        name: 'slow teapot',
        match: `GET glob ${s.url}/api/*`,
        action: 'respond 418 text after 120 ms',
      },
      revision: 1,
      sync: { state: 'applied' },
    });

    const started = performance.now();
    const mocked = await fetch(`${s.url}/api/tea`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    expect([mocked.status, await mocked.text()]).toEqual([418, 'mocked over MCP']);
    await (await fetch(`${s.url}/api/more`)).text();

    await waitFor(() => plugin.mockConfig().revision === 1, 'the rule in the app');
    let config = await call('network_get_mock_config');
    for (let i = 0; i < 100 && config.structuredContent!.hits[ruleId] !== 2; i++) {
      await new Promise((r) => setTimeout(r, 20));
      config = await call('network_get_mock_config');
    }
    expect(config.structuredContent).toMatchObject({ hits: { [ruleId]: 2 }, rules: [{ id: ruleId }] });

    // The app sends its events in batches (within 10 ms): wait until both answers are in.
    const listed = await waitFor(async () => {
      const page = await call('network_list_transactions', { mockedOnly: true });
      const done = page.structuredContent!.transactions.filter((t: { status?: number }) => t.status === 418);
      return done.length === 2 && page;
    }, 'both mocked answers recorded');
    expect(listed.structuredContent!.transactions).toHaveLength(2);
    expect(listed.structuredContent!.transactions[0]).toMatchObject({ status: 418, mockRuleId: ruleId });
    expect((await call('network_list_transactions', { urlContains: '/mcp' })).structuredContent!.total).toBe(0);

    const off = await call('network_set_mock_rules', { op: 'disable' });
    expect(off.isError ?? false, textOf(off)).toBe(false);
    expect(await (await fetch(`${s.url}/api/tea`)).text()).toBe('real /api/tea');

    const bad = await call('network_set_mock_rules', {
      op: 'add',
      rule: {
        match: { url: { kind: 'regex', value: '*oops' } },
        action: { type: 'respond', status: 200 },
      },
    });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/invalid regular expression/);
    expect((await call('network_get_mock_config')).structuredContent!.rules).toHaveLength(1);

    // The unmocked answer's events arrive in the app's next batch (within 10 ms).
    const har = await waitFor(async () => {
      const exported = await call('network_export_har', {});
      return (exported.isError || exported.structuredContent!.log.entries.length >= 3) && exported;
    }, 'three entries in the HAR');
    expect(har.isError ?? false, textOf(har)).toBe(false);
    expect(HarSchema.safeParse(har.structuredContent).success).toBe(true);
    expect(har.structuredContent!.log.entries.length).toBeGreaterThanOrEqual(3);

    const history = t.core.history.list().find((c) => c.tool === 'network_set_mock_rules' && c.status === 'failed');
    expect(history?.error).toMatch(/invalid regular expression/);

    // Every change answers with what changed; the SDK client checks each against the listed schema.
    const updated = await call('network_set_mock_rules', { op: 'update', id: ruleId, rule: { enabled: false } });
    expect(updated.structuredContent).toMatchObject({ rule: { id: ruleId, enabled: false }, revision: 3 });
    const replaced = await call('network_set_mock_rules', {
      op: 'replace',
      rules: [
        {
          id: ruleId,
          match: { url: { kind: 'contains', value: '/x' }, headers: [{ name: 'x-a', equals: '1' }] },
          action: { type: 'networkError', message: 'offline' },
        },
      ],
    });
    expect(replaced.structuredContent).toMatchObject({
      rules: [{ id: ruleId, enabled: true, match: '* contains /x header x-a=1', action: 'networkError "offline"' }],
      revision: 4,
      ruleCount: 1,
    });
    const removed = await call('network_set_mock_rules', { op: 'remove', id: ruleId });
    expect(removed.structuredContent).toEqual({
      summary: expect.any(String),
      removed: ruleId,
      revision: 5,
      enabled: false,
      ruleCount: 0,
      sync: { state: 'applied', appliedRevision: 5, load: 1 },
    });
  });

  it('a push the app does not acknowledge is an isError result, and the rule is not kept', async () => {
    const { t, call } = await setup({ link: { requestTimeoutMs: 250 } });
    const agent = connectSilentApp(t.urls.debuggeeUrl);
    defer(() => agent.disconnect());
    await waitFor(() => agent.status.state === 'connected', 'the agent');

    const result = await call('network_set_mock_rules', {
      op: 'add',
      rule: {
        match: { url: { kind: 'contains', value: '/x' } },
        action: { type: 'respond', status: 500 },
      },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^failed to apply on the debuggee: no reply to network\.setMockConfig within 250 ms/,
    );
    const config = await call('network_get_mock_config');
    expect(config.structuredContent).toMatchObject({ revision: 0, rules: [], sync: { state: 'failed' } });
  });

  it("a disconnected app's stored traffic stays readable with its sessionId; changes need it connected", async () => {
    const { t, call } = await setup();
    const plugin = network({ ignoreUrls: [t.urls.mcpUrl] });
    await plugin.ready;
    defer(() => plugin.dispose());
    const agent = connect({ url: t.urls.debuggeeUrl, app: { id: 'com.test.gone', name: 'Gone' }, plugins: [plugin] });
    const sessionId = await waitFor(() => agent.status.state === 'connected' && agent.status.sessionId, 'the agent');
    const s = await httpServer((_req, res) => res.end('before the crash'));
    defer(() => s.close());
    await (await fetch(`${s.url}/last-words`)).text();
    for (let i = 0; i < 100; i++) {
      const seen = await call('network_list_transactions', { urlContains: '/last-words' });
      if (seen.structuredContent!.transactions[0]?.state === 'complete') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    agent.disconnect();
    await waitFor(() => !t.core.sessions.get(sessionId)!.info.active, 'the session to go inactive');

    const listed = await call('network_list_transactions', { sessionId, urlContains: '/last-words' });
    expect(listed.isError ?? false, textOf(listed)).toBe(false);
    const [summary] = listed.structuredContent!.transactions;
    const detail = await call('network_get_transaction', { sessionId, id: summary.id });
    expect(textOf(detail)).toContain('before the crash');

    const change = await call('network_set_mock_rules', { sessionId, op: 'disable' });
    expect(change.isError).toBe(true);
    expect(textOf(change)).toMatch(/is inactive: its app disconnected/);
    const implicit = await call('network_list_transactions');
    expect(implicit.isError).toBe(true);
    expect(textOf(implicit)).toContain(`inactive sessions that had it, most recent first: ${sessionId}`);
    expect(textOf(implicit)).toContain(`To read what the last one captured, call again with sessionId "${sessionId}"`);
    const toggle = await call('network_set_mock_rules', { op: 'disable' });
    expect(textOf(toggle)).toContain(
      `Tools that only read what was captured still work on them: pass sessionId "${sessionId}"`,
    );
  });
});
