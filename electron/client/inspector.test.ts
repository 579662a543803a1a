import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { connect } from '../../agent/connection.js';
import { network } from '../../plugins/network/agent/index.js';
import { HarSchema } from '../../plugins/network/har-schema.js';
import { httpServer } from '../../plugins/network/host/testing.js';
import { cleanupAfterEach } from '../host/test-cleanup.js';
import { startTestCore, waitFor } from '../host/testing.js';
import { connectInspector, InspectorUnavailableError, ToolCallError } from './index.js';

const defer = cleanupAfterEach();

async function setup() {
  const t = await startTestCore();
  defer(() => t.stop());
  // The app runs in this process too; its capture must not record the client's own MCP requests.
  const plugin = network({ ignoreUrls: [t.urls.mcpUrl] });
  await plugin.ready;
  defer(() => plugin.dispose());
  const agent = connect({ url: t.urls.debuggeeUrl, app: { id: 'com.test.client', name: 'Client' }, plugins: [plugin] });
  defer(() => agent.disconnect());
  await waitFor(() => agent.status.state === 'connected', 'the agent');
  const server = await httpServer((req, res) => {
    res.writeHead(req.url === '/broken' ? 500 : 200).end(`real ${req.url}`);
  });
  defer(() => server.close());
  const inspector = await connectInspector({ dataDir: t.dataDir, clientName: 'client-test' });
  defer(() => inspector.close());
  return { t, plugin, server, inspector };
}

describe('porthole/client', () => {
  it('answers with the raw values the window gets, typed from the tools, recorded as surface script', async () => {
    const { t, server, inspector } = await setup();
    const { sessions } = await inspector.listSessions();
    expect(sessions.map((s) => s.app.id)).toEqual(['com.test.client']);

    // A tool with an MCP projection: the client gets the handler's value (the whole config), not the summary.
    const added = await inspector.network.addMockRule({
      match: { url: { kind: 'contains', value: '/never' } },
      action: { type: 'respond', status: 204 },
    });
    expectTypeOf(inspector.network.replayRequest).toBeFunction();
    expectTypeOf(added.config.rules).toBeArray(); // typed from the handler, not from the MCP summary
    expect(added.config.rules.map((r) => r.id)).toEqual([added.rule.id]);
    expect(added).not.toHaveProperty('ruleCount');
    await inspector.network.removeMockRule({ id: added.rule.id });

    await (await fetch(`${server.url}/hello`)).text();
    const hello = { urlContains: '/hello' };
    await expect.poll(async () => (await inspector.network.listTransactions(hello)).transactions.length).toBe(1);
    const listed = await inspector.network.listTransactions(hello);
    expect(listed.transactions).toMatchObject([{ method: 'GET', url: `${server.url}/hello`, status: 200 }]);
    expect(await inspector.call('network_list_transactions', { limit: 1 })).toMatchObject({ transactions: [{}] });

    const recorded = t.core.history.list(10).find((c) => c.tool === 'inspector_list_sessions');
    expect(recorded).toMatchObject({ surface: 'script', client: { name: 'client-test' }, status: 'succeeded' });
  });

  it('sets a mock rule for a block only, saves a HAR file and checks for failed requests', async () => {
    const { server, inspector } = await setup();
    const inside = await inspector.network.mock(
      {
        name: 'teapot for the block',
        match: { url: { kind: 'contains', value: '/api' } },
        action: { type: 'respond', status: 418, body: { type: 'text', text: 'mocked' } },
      },
      async () => (await fetch(`${server.url}/api`)).status,
    );
    expect(inside).toBe(418);
    expect((await inspector.network.getMockConfig()).rules).toEqual([]);
    expect((await fetch(`${server.url}/api`)).status).toBe(200);

    await inspector.expectNoFailedRequests();
    await (await fetch(`${server.url}/broken`)).text();
    await expect
      .poll(async () => (await inspector.network.listTransactions({ status: 500 })).transactions.length)
      .toBe(1);
    await expect(inspector.expectNoFailedRequests()).rejects.toThrow(`GET ${server.url}/broken → 500`);

    const file = join(mkdtempSync(join(tmpdir(), 'porthole-har-')), 'session.har');
    await inspector.network.saveHar(file);
    const har = HarSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(har.log.entries.map((e) => e.response.status)).toEqual([418, 200, 500]);
  });

  it('throws typed errors that say what to do', async () => {
    const { inspector } = await setup();
    const failure = await inspector.network.getTransaction({ id: 'no-such-id' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ToolCallError);
    expect(failure).toMatchObject({ tool: 'network_get_transaction', status: 'failed' });
    expect((failure as ToolCallError).callId).toBeTruthy();

    // @ts-expect-error limit is a number: a wrong argument type does not compile
    const wrong = inspector.network.listTransactions({ limit: 'ten' }).catch((e: unknown) => e);
    expect(await wrong).toBeInstanceOf(ToolCallError);

    const unknown = await inspector.callRaw('network_list_transaction').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ToolCallError);
    expect(unknown).toMatchObject({ tool: 'network_list_transaction', status: 'failed' });
    expect((unknown as ToolCallError).message).toMatch(
      /^there is no tool named .*did you mean "network_list_transactions"/,
    );
    expect((unknown as ToolCallError).callId).toBeTruthy();

    const empty = mkdtempSync(join(tmpdir(), 'porthole-none-'));
    await expect(connectInspector({ dataDir: empty })).rejects.toThrow(InspectorUnavailableError);
    await expect(connectInspector({ dataDir: empty })).rejects.toThrow(/porthole serve --data-dir/);
  });
});
