import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connect } from '../../../agent/connection.js';
import { connectMcpClient } from '../../../electron/host/mcp/mcp-testing.js';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { startTestCore, waitFor } from '../../../electron/host/testing.js';
import { BridgeClient } from '../../../electron/host/ui-bridge/bridge-testing.js';
import { network } from '../agent/index.js';
import { type AgentView, DEFAULT_REDACTION_RULES, REDACTED, type RedactionRules } from '../protocol.js';
import { httpServer } from './testing.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read answers of many shapes
type Result = CallToolResult & { structuredContent?: Record<string, any> };

const APP = 'com.test.agent-view';

describe("the window's Agent view: what an MCP client gets, redacted by the rules edited there", () => {
  const defer = cleanupAfterEach();

  async function start(dataDir?: string) {
    const t = await startTestCore(dataDir ? { dataDir } : {});
    const mcp = await connectMcpClient('http', {
      mcpUrl: t.urls.mcpUrl,
      dataDir: t.dataDir,
      token: t.core.mcp.token(),
    });
    await mcp.client.listTools();
    const ui = await BridgeClient.open(t);
    const plugin = network({ ignoreUrls: [t.urls.mcpUrl, t.urls.controlUrl], redact: { scope: 'mcp' } });
    await plugin.ready;
    const agent = connect({ url: t.urls.debuggeeUrl, app: { id: APP, name: 'Agent view' }, plugins: [plugin] });
    const sessionId = await waitFor(() => agent.status.state === 'connected' && agent.status.sessionId, 'the app');
    const stop = async (keepData = false) => {
      agent.disconnect();
      plugin.dispose();
      ui.ws.close();
      await mcp.close();
      await t.stop({ keepData });
    };
    const call = async (name: string, args: Record<string, unknown>) =>
      (await mcp.client.callTool({ name, arguments: args })) as Result;
    const panel = <T>(method: string, params: unknown = {}) =>
      ui.result<T>('panel.call', { sessionId, plugin: 'network', method, params });
    return { t, call, panel, ui, sessionId, stop };
  }

  async function captured(s: Awaited<ReturnType<typeof start>>, url: string, init: RequestInit) {
    await (await fetch(url, init)).text();
    const listed = await waitFor(
      () => s.t.core.plugins.instance(s.sessionId, 'network') && true,
      'the network host of the session',
    );
    expect(listed).toBe(true);
    for (let i = 0; i < 200; i++) {
      const page = await s.call('network_list_transactions', { urlContains: '/login' });
      const tx = page.structuredContent?.transactions[0];
      if (tx?.state === 'complete') return { id: tx.id as string, listedUrl: tx.url as string };
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('the request was not captured');
  }

  it('answers agentView with exactly the structuredContent network_get_transaction gives an MCP client', async () => {
    const s = await start();
    defer(() => s.stop());
    const server = await httpServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('set-cookie', 'sid=server-cookie');
      res.end(JSON.stringify({ token: 'issued-token', user: { name: 'ada', session: 'sess-1' } }));
    });
    defer(() => server.close());
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl';
    const { id, listedUrl } = await captured(s, `${server.url}/login?token=t-1&keep=yes&sig=abc`, {
      method: 'POST',
      headers: { authorization: 'Bearer top-secret', 'x-trace': 'trace-1', 'content-type': 'application/json' },
      body: JSON.stringify({ user: { name: 'ada', password: 'hunter2' }, note: `carry ${jwt}`, key: 'sk-12345' }),
    });
    expect(listedUrl).toBe(`${server.url}/login?token=${REDACTED}&keep=yes&sig=abc`);
    // A filter cannot probe a hidden value: it matches the URL as the agent sees it.
    expect((await s.call('network_list_transactions', { urlContains: 'token=t-1' })).structuredContent!.total).toBe(0);
    expect((await s.call('network_list_transactions', { urlContains: 'keep=yes' })).structuredContent!.total).toBe(1);
    const probe = await s.call('network_export_har', { urlContains: 'token=t-1' });
    expect(probe.structuredContent!.log.entries).toHaveLength(0);

    const compare = async () => {
      const mcp = await s.call('network_get_transaction', { id });
      expect(mcp.isError ?? false).toBe(false);
      const view = await s.panel<AgentView>('agentView', { id });
      expect(view.result).toEqual(mcp.structuredContent);
      return view;
    };

    // The defaults: auth headers, token query params, password/token body fields, bearer and JWT patterns.
    const first = await compare();
    expect(first.rules).toEqual(DEFAULT_REDACTION_RULES);
    // biome-ignore lint/suspicious/noExplicitAny: an answer read field by field
    const tx = first.result.transaction as any;
    const header = (list: { name: string; value: string }[], name: string) => list.find((h) => h.name === name)?.value;
    expect(header(tx.request.headers, 'authorization')).toBe(REDACTED);
    expect(header(tx.request.headers, 'x-trace')).toBe('trace-1');
    expect(header(tx.response.headers, 'set-cookie')).toBe(REDACTED);
    expect(tx.request.url).toBe(`${server.url}/login?token=${REDACTED}&keep=yes&sig=abc`);
    expect(JSON.parse(tx.request.body.data)).toEqual({
      user: { name: 'ada', password: REDACTED },
      note: `carry ${REDACTED}`,
      key: 'sk-12345',
    });
    expect(JSON.parse(tx.response.body.data)).toEqual({ token: REDACTED, user: { name: 'ada', session: 'sess-1' } });

    // The window itself keeps everything.
    // biome-ignore lint/suspicious/noExplicitAny: an answer read field by field
    const { transaction: full } = await s.panel<{ transaction: any }>('get', { id });
    expect(header(full.request.headers, 'authorization')).toBe('Bearer top-secret');
    expect(JSON.parse(full.request.body.data).user.password).toBe('hunter2');

    // Rules added in the window: a header, a query param, a body path, a pattern.
    const rules: RedactionRules = {
      headers: [...DEFAULT_REDACTION_RULES.headers, 'X-Trace'],
      query: [...DEFAULT_REDACTION_RULES.query, 'sig'],
      bodyFields: [...DEFAULT_REDACTION_RULES.bodyFields, 'user.session'],
      patterns: [...DEFAULT_REDACTION_RULES.patterns, 'sk-[0-9]+'],
    };
    expect(await s.panel('setRedactionRules', rules)).toEqual(rules);
    await waitFor(
      () => s.ui.events('plugin:event').find((e) => e.data.event === 'redaction-rules'),
      'the window to be told the rules changed',
    );
    const second = await compare();
    // biome-ignore lint/suspicious/noExplicitAny: an answer read field by field
    const tx2 = second.result.transaction as any;
    expect(header(tx2.request.headers, 'x-trace')).toBe(REDACTED);
    expect(tx2.request.url).toBe(`${server.url}/login?token=${REDACTED}&keep=yes&sig=${REDACTED}`);
    expect(JSON.parse(tx2.request.body.data).key).toBe(REDACTED);
    expect(JSON.parse(tx2.request.body.data).user.name).toBe('ada');
    expect(JSON.parse(tx2.response.body.data).user).toEqual({ name: 'ada', session: REDACTED });

    // Exports carry the same: the MCP HAR tool and the window's HAR file.
    const har = await s.call('network_export_har', { urlContains: '/login', maxBodyChars: 10_000 });
    const entry = har.structuredContent!.log.entries[0];
    expect(entry.request.url).toBe(tx2.request.url);
    expect(entry.request.postData.text).toBe(tx2.request.body.data);
    const file = await s.panel<{ log: { entries: { request: { headers: { name: string; value: string }[] } }[] } }>(
      'exportHar',
      { ids: [id] },
    );
    expect(header(file.log.entries[0]!.request.headers, 'x-trace')).toBe(REDACTED);

    // A pattern that cannot run in linear time is refused, with what to do.
    const bad = await s.ui.request('panel.call', {
      sessionId: s.sessionId,
      plugin: 'network',
      method: 'setRedactionRules',
      params: { ...rules, patterns: ['(a)\\1'] },
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-params' } });
    expect(JSON.stringify(bad)).toMatch(/backreference/);
    expect(await s.panel('redactionRules')).toEqual(rules);
  });

  it('keeps the rules in the data dir (0600) across a restart', async () => {
    const first = await start();
    const rules: RedactionRules = { headers: ['x-only'], query: [], bodyFields: ['pin'], patterns: ['\\d{16}'] };
    await first.panel('setRedactionRules', rules);
    await first.stop(true);
    const file = join(
      first.t.dataDir,
      'plugins',
      'network',
      encodeURIComponent(APP).replace(/\./g, '%2E'),
      'redaction-rules.json',
    );
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(rules);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = await start(first.t.dataDir);
    defer(() => second.stop());
    expect(await second.panel('redactionRules')).toEqual(rules);
  });
});
