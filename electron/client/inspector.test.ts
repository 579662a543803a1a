import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { connect } from '../../agent/connection.js';
import { console as consolePlugin } from '../../plugins/console/agent/index.js';
import { example } from '../../plugins/example/agent/index.js';
import { network } from '../../plugins/network/agent/index.js';
import { HarSchema } from '../../plugins/network/har-schema.js';
import { httpServer } from '../../plugins/network/host/testing.js';
import type { ToolResultJson } from '../../shared/call-record.js';
import { cleanupAfterEach } from '../host/test-cleanup.js';
import { startTestCore, waitFor } from '../host/testing.js';
import { connectInspector, InspectorUnavailableError, PortholeExpectationError, ToolCallError } from './index.js';

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
    const added = await inspector.network.setMockRules({
      op: 'add',
      rule: { match: { url: { kind: 'contains', value: '/never' } }, action: { type: 'respond', status: 204 } },
    });
    expectTypeOf(inspector.network.replayRequest).toBeFunction();
    expectTypeOf(added.config.rules).toBeArray(); // typed from the handler, not from the MCP summary
    expect(added.config.rules.map((r) => r.id)).toEqual([added.rule?.id]);
    expect(added).not.toHaveProperty('ruleCount');
    await inspector.network.setMockRules({ op: 'remove', id: added.rule?.id });

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
    await expect(inspector.expectNoFailedRequests()).rejects.toThrow(
      `1 request failed:\n  GET ${server.url}/broken → 500`,
    );

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

/** A second app in this process, with console and example too (the network taps are shared with the first). */
async function secondApp(t: Awaited<ReturnType<typeof startTestCore>>, id: string) {
  const net = network({ ignoreUrls: [t.urls.mcpUrl] });
  const logs = consolePlugin({ flushMs: 5 });
  defer(() => logs.dispose());
  defer(() => net.dispose());
  const agent = connect({ url: t.urls.debuggeeUrl, app: { id, name: id }, plugins: [net, logs, example()] });
  defer(() => agent.disconnect());
  await waitFor(() => agent.status.state === 'connected' && agent.status.sessionId, id);
  return { agent, logs, sessionId: agent.status.sessionId as string };
}

describe('porthole/client checks that cannot pass by mistake', () => {
  it('takes a time as a Date and a console position as afterSeq, and refuses a bare number or both', async () => {
    const { t, inspector } = await setup();
    const { logs } = await secondApp(t, 'com.test.console');
    const app = inspector.session((await inspector.waitForSession({ appId: 'com.test.console' })).id);
    const before = new Date();
    console.error('the cart total is NaN', { cart: 3 });
    logs.flush();
    await expect.poll(async () => (await app.console.listErrors()).groups.length).toBe(1);
    const { latest } = await app.console.listErrors();

    // The defect: a time in ms given where a seq was meant passed whatever had been logged.
    // @ts-expect-error since is a Date: a number could be ms or a seq
    const bare = app.expectNoConsoleErrors({ since: Date.now() - 60_000 });
    await expect(bare).rejects.toThrow(/since must be a Date, not the number \d+.*\{ afterSeq \} for a console seq/);
    // @ts-expect-error the two units are one option or the other
    const both = app.expectNoConsoleErrors({ since: before, afterSeq: latest });
    await expect(both).rejects.toThrow(/not both/);
    // @ts-expect-error requests have no console seq
    await expect(app.expectNoFailedRequests({ afterSeq: 1 })).rejects.toThrow(/takes no afterSeq/);
    // @ts-expect-error a number is not a time here either
    await expect(app.expectNoFailedRequests({ since: Date.now() })).rejects.toThrow(/since must be a Date/);
    // @ts-expect-error unknown options are refused, not ignored
    await expect(app.expectNoConsoleErrors({ after: before })).rejects.toThrow(/no option "after"/);
    await expect(app.expectNoConsoleErrors({ afterSeq: -1 })).rejects.toThrow(/whole number/);

    await expect(app.expectNoConsoleErrors({ since: before })).rejects.toThrow(PortholeExpectationError);
    await expect(app.expectNoConsoleErrors({ afterSeq: latest - 1 })).rejects.toThrow('the cart total is NaN');
    await app.expectNoConsoleErrors({ afterSeq: latest });
    await new Promise((r) => setTimeout(r, 5));
    await app.expectNoConsoleErrors({ since: new Date() });
  });

  it('names what failed: the logged text and where, the method, URL and status or error of each request', async () => {
    const { t, server, inspector } = await setup();
    const { logs } = await secondApp(t, 'com.test.messages');
    const app = inspector.session((await inspector.waitForSession({ appId: 'com.test.messages' })).id);
    for (let i = 0; i < 2; i++) console.error('payment declined for order %d', 42);
    logs.flush();
    await expect.poll(async () => (await app.console.listErrors()).groups[0]?.count).toBe(2);
    const logged = await app.expectNoConsoleErrors().catch((e: unknown) => e);
    expect(logged).toBeInstanceOf(PortholeExpectationError);
    expect((logged as Error).message).toMatch(
      /^the app logged 1 error:\n {2}payment declined for order 42 \(×2\) at .*inspector\.test\.ts:\d+:\d+$/,
    );
    expect((logged as PortholeExpectationError).failures).toMatchObject([
      { text: 'payment declined for order 42', count: 2 },
    ]);

    const since = new Date();
    await (await fetch(`${server.url}/broken`)).text();
    const closed = await httpServer((_req, res) => res.end());
    const refusedUrl = `${closed.url}/gone`;
    await closed.close();
    await fetch(refusedUrl).catch(() => {});
    await expect.poll(async () => (await app.failedRequests({ since })).length).toBe(2);
    const failed = await app.expectNoFailedRequests({ since }).catch((e: Error) => e.message);
    expect(failed).toContain('2 requests failed:');
    expect(failed).toContain(`GET ${server.url}/broken → 500`);
    expect(failed).toMatch(new RegExp(`GET ${refusedUrl.replace(/[.]/g, '\\.')} → failed: .+`));
    // Only what started after `since` counts.
    await app.expectNoFailedRequests({ since: new Date(Date.now() + 60_000) });
  });

  it('calls argument-less tools on a named session when two apps are connected', async () => {
    const { t, inspector } = await setup();
    const a = await secondApp(t, 'com.test.a');
    const b = await secondApp(t, 'com.test.b');
    // Without a session the inspector cannot choose, and says so.
    await expect(inspector.network.getMockConfig()).rejects.toThrow(/pass sessionId/);
    expect((await inspector.network.getMockConfig({ sessionId: a.sessionId })).rules).toEqual([]);
    expect(await inspector.network.clearTransactions({ sessionId: a.sessionId })).toEqual({
      cleared: expect.any(Number),
    });
    expect(await inspector.console.clear({ sessionId: b.sessionId })).toEqual({ cleared: expect.any(Number) });
    expect(await inspector.example.sendPing({ sessionId: b.sessionId })).toMatchObject({
      roundTripMs: expect.any(Number),
    });
    // A scoped client needs no sessionId at all.
    const scoped = inspector.session(b.sessionId);
    expect(await scoped.sessionIds()).toEqual([b.sessionId]);
    expect(await scoped.example.sendPing()).toMatchObject({ roundTripMs: expect.any(Number) });
    expect(await scoped.console.clear()).toEqual({ cleared: 0 });
  });

  it('answers network_get_transaction with the typed transaction, not MCP text', async () => {
    const { server, inspector } = await setup();
    await (await fetch(`${server.url}/typed`)).text();
    await expect
      .poll(async () => (await inspector.network.listTransactions({ urlContains: '/typed' })).transactions)
      .toHaveLength(1);
    const [summary] = (await inspector.network.listTransactions({ urlContains: '/typed' })).transactions;
    const got = await inspector.network.getTransaction({ id: summary!.id, includeSnippets: true });
    expectTypeOf(got.transaction.request.url).toEqualTypeOf<string>();
    expectTypeOf(got.transaction.response?.status).toEqualTypeOf<number | undefined>();
    expect(got.transaction).toMatchObject({ id: summary!.id, request: { method: 'GET', url: `${server.url}/typed` } });
    expect(got.transaction.response).toMatchObject({ status: 200, body: { data: 'real /typed' } });
    expect(got.snippets?.curl).toContain(`${server.url}/typed`);
    expect(await inspector.call('network_get_transaction', { id: summary!.id })).toMatchObject({
      transaction: { id: summary!.id },
    });
    // An image answer stays content: asking for one of a text body fails, typed as content.
    const image = inspector.network.getTransaction({ id: summary!.id, responseBodyAsImage: true });
    expectTypeOf(image).resolves.toEqualTypeOf<ToolResultJson>();
    await expect(image).rejects.toThrow(/not a PNG, JPEG, GIF or WebP image/);
  });
});
