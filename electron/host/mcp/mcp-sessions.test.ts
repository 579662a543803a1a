import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../test-cleanup.js';
import { startTestCore } from '../testing.js';
import { SESSION_BASE_BYTES } from './mcp-http.js';
import { connectMcpClient } from './mcp-testing.js';

// 2025-era sessions under pressure: a client looping on initialize (or many of them) must not take
// the session of an SDK client that is there, idle for a moment; the sessions kept stay bounded.

type TestCore = Awaited<ReturnType<typeof startTestCore>>;

/** The two SDK clients that speak the 2025 era: the 1.x SDK and the v2 SDK (its default, legacy mode). */
const SDK_CLIENTS = {
  '1.x': async (t: TestCore, name: string) => {
    const c = await connectMcpClient(
      'http',
      { mcpUrl: t.urls.mcpUrl, dataDir: t.dataDir, token: t.core.mcp.token() },
      { name, version: '1' },
    );
    return { call: () => c.client.callTool({ name: 'inspector_get_status', arguments: {} }), close: c.close };
  },
  v2: async (t: TestCore, name: string) => {
    const client = new V2Client({ name, version: '2' });
    await client.connect(
      new V2HttpTransport(new URL(t.urls.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${t.core.mcp.token()}` } },
      }),
    );
    return {
      call: () => client.callTool({ name: 'inspector_get_status', arguments: {} }),
      close: () => client.close(),
    };
  },
};

/** A local client's bare HTTP requests: initialize (and, if asked, `notifications/initialized` and a tools/list). */
function rawClient(t: TestCore) {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${t.core.mcp.token()}`,
  };
  const post = async (body: unknown, session?: string) => {
    const res = await fetch(t.urls.mcpUrl, {
      method: 'POST',
      headers: session ? { ...headers, 'mcp-session-id': session } : headers,
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, session: res.headers.get('mcp-session-id') ?? undefined, text };
  };
  return {
    post,
    async initialize(name: string, { use = false, capabilities = {} as Record<string, unknown> } = {}) {
      const init = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities, clientInfo: { name, version: '1' } },
      });
      expect(init.status).toBe(200);
      if (use) {
        await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, init.session);
        expect((await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, init.session)).status).toBe(200);
      }
      return init.session!;
    },
  };
}

const idle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('2025-era MCP sessions under a flood of initialize', () => {
  const defer = cleanupAfterEach();

  for (const [sdk, connect] of Object.entries(SDK_CLIENTS)) {
    it(`keeps the session of a ${sdk} SDK client idle for 1 s through 40 initialize calls from one local client, and from 40`, async () => {
      const t = await startTestCore();
      defer(() => t.stop());
      const victim = await connect(t, `victim-${sdk}`);
      defer(victim.close);
      expect((await victim.call()).isError ?? false).toBe(false);
      await idle(1000);
      const flood = rawClient(t);
      for (let i = 0; i < 40; i++) await flood.initialize('looping-client');
      for (let i = 0; i < 40; i++) await flood.initialize(`client-${i}`, { use: true });
      const after = await victim.call();
      expect(after.isError ?? false).toBe(false);
    });
  }

  it('keeps sessions within the count and the byte budget, the clients there first, and still lets a new client in', async () => {
    const t = await startTestCore({ mcp: { maxSessions: 48, sessionBudgetBytes: 40 * 1024 * 1024 } });
    defer(() => t.stop());
    const v1 = await SDK_CLIENTS['1.x'](t, 'there-first-1');
    const v2 = await SDK_CLIENTS.v2(t, 'there-first-2');
    defer(v1.close);
    defer(v2.close);
    const flood = rawClient(t);
    // Bounded: 150 sessions of distinct names that were even used, then 60 declaring 1 MiB each.
    for (let i = 0; i < 150; i++) await flood.initialize(`flood-${i}`, { use: true });
    expect(t.core.mcp.sessions().count).toBeLessThanOrEqual(48);
    const big = { experimental: { pad: { data: 'x'.repeat(1024 * 1024) } } };
    for (let i = 0; i < 60; i++) await flood.initialize(`big-${i}`, { capabilities: big });
    const use = t.core.mcp.sessions();
    expect(use.count).toBeLessThanOrEqual(48);
    expect(use.bytes).toBeLessThanOrEqual(40 * 1024 * 1024);
    expect(use.bytes).toBeGreaterThan(30 * SESSION_BASE_BYTES);
    for (const client of [v1, v2]) expect((await client.call()).isError ?? false).toBe(false);
    const newcomer = await SDK_CLIENTS.v2(t, 'newcomer');
    defer(newcomer.close);
    expect((await newcomer.call()).isError ?? false).toBe(false);
  });

  it("limits one client's share: its own sessions make room for its next, nobody else's", async () => {
    const t = await startTestCore({ mcp: { maxSessionsPerClient: 4 } });
    defer(() => t.stop());
    const other = rawClient(t);
    const bystander = await other.initialize('bystander', { use: true });
    const looping = rawClient(t);
    const mine: string[] = [];
    for (let i = 0; i < 12; i++) mine.push(await looping.initialize('looping-client'));
    expect(t.core.mcp.sessions().count).toBe(5);
    expect((await other.post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, bystander)).status).toBe(200);
    // Its newest four are kept; the first went first.
    expect((await looping.post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, mine.at(-1))).status).toBe(200);
    const gone = await looping.post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, mine[0]);
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.text)).toMatchObject({
      error: { code: -32001, message: expect.stringContaining('Session not found') },
    });
  });

  for (const [sdk, connect] of Object.entries(SDK_CLIENTS)) {
    it(`answers a ${sdk} SDK client whose session is gone with the spec's 404; a new connect gets a new session`, async () => {
      const t = await startTestCore({ mcp: { maxSessionsPerClient: 1 } });
      defer(() => t.stop());
      const first = await connect(t, 'same-name');
      defer(first.close);
      expect((await first.call()).isError ?? false).toBe(false);
      // The same client name initializes again (e.g. a restarted client): its old session goes.
      const second = await connect(t, 'same-name');
      defer(second.close);
      // Neither SDK initializes again by itself (docs/mcp.md says so): the 404 reaches the caller.
      await expect(first.call()).rejects.toThrow(/404|Session not found/);
      expect((await second.call()).isError ?? false).toBe(false);
    });
  }
});
