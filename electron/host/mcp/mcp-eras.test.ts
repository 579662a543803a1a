import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Agent, connect } from '../../../agent/connection.js';
import { defineAgentPlugin } from '../../../agent/plugin.js';
import { example } from '../../../plugins/example/agent/index.js';
import { exampleProtocol } from '../../../plugins/example/protocol.js';
import { defineTool } from '../../../shared/tool.js';
import { cleanupAfterEach } from '../test-cleanup.js';
import { startTestCore, waitFor } from '../testing.js';
import { connectMcpClient, connectModernClient, type McpTransportKind } from './mcp-testing.js';

type TestCore = Awaited<ReturnType<typeof startTestCore>>;
type Era = 'legacy' | 'modern';

/** What both clients can do: the 1.x client (2025 era, sessions) and the v2 client (2026-07-28, stateless). */
interface Caller {
  listTools(): Promise<{ tools: unknown[]; nextCursor?: string }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  request(method: string, params: Record<string, unknown>): Promise<unknown>;
}

/** The answer as the tool gave it: without the server identity the 2026-07-28 era stamps on every result. */
function withoutServerInfo(result: unknown): unknown {
  const { _meta, ...rest } = result as { _meta?: Record<string, unknown> };
  const { 'io.modelcontextprotocol/serverInfo': _, ...meta } = _meta ?? {};
  return Object.keys(meta).length ? { ...rest, _meta: meta } : rest;
}

/** A tool registered mid-test, to change the tool set. */
const failingTool = defineTool({
  name: 'inspector_test_added',
  title: 'Test: added',
  description: 'Registered by the test.',
  input: z.object({}),
  annotations: { readOnlyHint: true },
  handler: () => 'added',
});

const failure = (e: unknown) => ({ code: (e as { code?: number }).code, message: (e as Error).message });

describe.each<McpTransportKind>(['http', 'stdio'])('both protocol eras over %s give the same answers', (kind) => {
  const surface = kind === 'http' ? 'mcp-http' : 'mcp-stdio';
  let t: TestCore;
  const agents: Agent[] = [];
  const callers = {} as Record<Era, Caller>;
  const closers: (() => Promise<void>)[] = [];
  const clientNames: Record<Era, string> = { legacy: `old-client-${kind}`, modern: `new-client-${kind}` };

  beforeAll(async () => {
    t = await startTestCore({ link: { requestTimeoutMs: 1000 } });
    for (const id of ['one', 'two']) {
      const agent = connect({ url: t.urls.debuggeeUrl, app: { id: `com.test.${id}`, name: id }, plugins: [example()] });
      agents.push(agent);
      await waitFor(() => agent.status.state === 'connected' && agent.status.sessionId, `agent ${id}`);
    }
    const target = { mcpUrl: t.urls.mcpUrl, dataDir: t.dataDir, token: t.core.mcp.token() };
    const legacy = await connectMcpClient(kind, target, { name: clientNames.legacy, version: '1.0.0' });
    const modern = await connectModernClient(kind, target, { name: clientNames.modern, version: '2.0.0' });
    closers.push(legacy.close, modern.close);
    const old: LegacyClient = legacy.client;
    callers.legacy = {
      listTools: () => old.listTools(),
      callTool: (params) => old.callTool(params),
      request: (method, params) => old.request({ method, params } as never, ResultSchema),
    };
    callers.modern = {
      listTools: () => modern.client.listTools(),
      callTool: (params) => modern.client.callTool(params),
      request: (method, params) => modern.client.request({ method, params } as never),
    };
  });
  afterAll(async () => {
    for (const close of closers) await close().catch(() => {});
    for (const agent of agents) agent.disconnect();
    await t.stop();
  });

  const both = async <T>(run: (caller: Caller, era: Era) => Promise<T>): Promise<Record<Era, T>> => ({
    legacy: await run(callers.legacy, 'legacy'),
    modern: await run(callers.modern, 'modern'),
  });

  it('lists the same tools', async () => {
    const listed = await both((c) => c.listTools());
    expect(listed.modern.tools.length).toBeGreaterThan(10);
    expect(listed.modern.tools).toEqual(listed.legacy.tools);
    expect(listed.legacy).not.toHaveProperty('nextCursor'); // one page: every tool at once, in both eras
    expect(listed.modern).not.toHaveProperty('nextCursor');
  });

  it('calls a plugin tool against a real debuggee, and records each call with its client and surface', async () => {
    const sessionId = agents[0]!.status.sessionId!;
    const pinged = await both((c) => c.callTool({ name: 'example_send_ping', arguments: { sessionId } }));
    for (const era of ['legacy', 'modern'] as const) {
      const result = pinged[era] as { isError?: boolean; structuredContent?: { roundTripMs?: unknown } };
      expect(result.isError, era).toBe(false);
      expect(typeof result.structuredContent?.roundTripMs, era).toBe('number');
      const [call] = t.core.history
        .list(undefined, { tool: 'example_send_ping' })
        .filter((c) => c.client?.name === clientNames[era]);
      expect(call, era).toMatchObject({ status: 'succeeded', surface, sessionId, client: { name: clientNames[era] } });
    }
    const echoed = await both((c) => c.callTool({ name: 'example_echo', arguments: { sessionId, text: 'same' } }));
    expect(withoutServerInfo(echoed.modern)).toEqual(withoutServerInfo(echoed.legacy));
    expect(JSON.stringify(echoed.modern)).toContain('same');
  });

  it('fails the same way: an unknown tool (-32602), a call without name (-32602), arguments refused by name', async () => {
    const unknown = await both((c) => c.callTool({ name: 'example_send_pong', arguments: {} }).then(() => 0, failure));
    expect(unknown.modern).toMatchObject({
      code: -32602,
      message: expect.stringContaining('did you mean "example_send_ping"'),
    });
    expect(unknown.legacy).toMatchObject({
      code: -32602,
      message: expect.stringContaining('did you mean "example_send_ping"'),
    });

    const nameless = await both((c) => c.request('tools/call', { arguments: {} }).then(() => 0, failure));
    for (const era of ['legacy', 'modern'] as const) {
      expect(nameless[era], era).toMatchObject({
        code: -32602,
        message: expect.stringContaining('tools/call needs params.name'),
      });
    }

    const misspelled = await both((c) =>
      c.callTool({ name: 'inspector_list_sessions', arguments: { activeOnyl: true } }),
    );
    expect(withoutServerInfo(misspelled.modern)).toEqual(withoutServerInfo(misspelled.legacy));
    expect(misspelled.modern).toMatchObject({ isError: true });
    expect(JSON.stringify(misspelled.modern)).toContain('activeOnly');
  });

  it('pages a list the same way, cursor and all', async () => {
    const pages = await both(async (c) => {
      const first = (await c.callTool({ name: 'inspector_list_sessions', arguments: { limit: 1 } })) as {
        structuredContent: { nextCursor?: string };
      };
      const cursor = first.structuredContent.nextCursor;
      expect(cursor).toBeTruthy();
      const second = await c.callTool({ name: 'inspector_list_sessions', arguments: { limit: 1, cursor } });
      return [withoutServerInfo(first), withoutServerInfo(second)];
    });
    expect(pages.modern).toEqual(pages.legacy);
  });

  it('shows both clients as connected, the stateless one by the client info in its requests', () => {
    const names = t.core.mcp.clients().map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining([clientNames.legacy, clientNames.modern]));
    expect(t.core.mcp.clients().find((c) => c.name === clientNames.modern)).toMatchObject({
      surface,
      version: '2.0.0',
    });
  });
});

describe.each<McpTransportKind>(['http', 'stdio'])('a 2026-07-28 call cancelled over %s', (kind) => {
  const defer = cleanupAfterEach();

  it('stops the pending debuggee request and is recorded as cancelled', async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    let agentSignal: AbortSignal | undefined;
    const slow = defineAgentPlugin(exampleProtocol, (ctx) => {
      ctx.handle('echo', (_params, signal) => {
        agentSignal = signal;
        return new Promise<never>(() => {});
      });
    });
    const agent = connect({ url: t.urls.debuggeeUrl, app: { id: 'com.test.slow', name: 'slow' }, plugins: [slow] });
    defer(() => agent.disconnect());
    await waitFor(() => agent.status.state === 'connected', 'the agent');
    const modern = await connectModernClient(kind, {
      mcpUrl: t.urls.mcpUrl,
      dataDir: t.dataDir,
      token: t.core.mcp.token(),
    });
    defer(modern.close);
    const controller = new AbortController();
    const pending = modern.client.callTool(
      { name: 'example_echo', arguments: { text: 'never' } },
      {
        signal: controller.signal,
        timeout: 60_000,
      },
    );
    pending.catch(() => {});
    const running = await waitFor(
      () => t.core.history.list(1, { tool: 'example_echo', status: 'running' })[0],
      'the call to start',
    );
    await waitFor(() => agentSignal, 'the debuggee to receive the request');
    controller.abort('the test cancels');
    await expect(pending).rejects.toThrow();
    await waitFor(() => t.core.history.get(running.id)!.status === 'cancelled', 'the call to be recorded as cancelled');
    await waitFor(() => agentSignal!.aborted, 'the debuggee request to be cancelled');
  });
});

describe('the 2026-07-28 era without sessions', () => {
  const defer = cleanupAfterEach();
  const meta = (name: string) => ({
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name, version: '7' },
    'io.modelcontextprotocol/clientCapabilities': {},
  });
  const post = (t: TestCore, method: string, params: Record<string, unknown>, name: string, signal?: AbortSignal) =>
    fetch(t.urls.mcpUrl, {
      method: 'POST',
      signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${t.core.mcp.token()}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta(name) } }),
    });

  it('counts a client as connected by the client info in its requests, and only for presenceMs after the last', async () => {
    const t = await startTestCore({ mcp: { presenceMs: 300 } });
    defer(() => t.stop());
    const counts: number[] = [];
    defer(t.core.mcp.onStatus((s) => counts.push(s.clients.length)));
    for (const name of ['first', 'first', 'second']) {
      const res = await post(t, 'tools/call', { name: 'inspector_get_status', arguments: {} }, name);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ result: { resultType: 'complete', isError: false } });
    }
    expect(t.core.mcp.clients()).toMatchObject([
      { name: 'first', version: '7', surface: 'mcp-http', callsInFlight: 0 },
      { name: 'second', version: '7', surface: 'mcp-http', callsInFlight: 0 },
    ]);
    expect(t.core.mcp.clients().every((c) => c.id.startsWith('stateless:'))).toBe(true); // no session was opened
    await waitFor(() => counts.at(-1) === 0, 'the window to be told the stateless clients are gone', 5_000);
    expect(t.core.mcp.clients()).toEqual([]);
  });

  it('sends tools/list_changed on a subscriptions/listen stream when the tool set changes', async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    const abort = new AbortController();
    defer(() => abort.abort());
    const res = await post(
      t,
      'subscriptions/listen',
      { notifications: { toolsListChanged: true } },
      'listener',
      abort.signal,
    );
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    const readUntil = async (needle: string) => {
      for (let i = 0; i < 20 && !text.includes(needle); i++) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += new TextDecoder().decode(chunk.value);
      }
      return text.includes(needle);
    };
    expect(await readUntil('notifications/subscriptions/acknowledged')).toBe(true);
    expect(t.core.mcp.clients()).toMatchObject([{ name: 'listener', callsInFlight: 1 }]); // the open stream
    defer(t.core.tools.register([failingTool]));
    expect(await readUntil('notifications/tools/list_changed')).toBe(true);
  });
});
