import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../test-cleanup.js';
import { startTestCore, waitFor } from '../testing.js';
import { connectMcpClient } from './mcp-testing.js';
import { ONE_SHOT_PRESENCE_MS } from './stateless-clients.js';

// Issue 37 §6: the connected-clients count no longer overstates for a minute after a burst of one-shot clients.
describe('the connected MCP clients', () => {
  const defer = cleanupAfterEach();

  it('forget a burst of one-shot clients within seconds, and keep a client that stays', async () => {
    const t = await startTestCore(); // presenceMs at its default, a minute
    defer(() => t.stop());
    const target = { mcpUrl: t.urls.mcpUrl, dataDir: t.dataDir, token: t.core.mcp.token() };
    const stays = await connectMcpClient('http', target, { name: 'stays', version: '1' });
    defer(() => stays.close());
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${target.token}`,
    };
    const rpc = (id: number, method: string, params: object) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
    // Ten one-shot clients: initialize and one call each, then gone without DELETE (as a killed CLI is).
    for (let i = 0; i < 10; i++) {
      const init = await fetch(t.urls.mcpUrl, {
        method: 'POST',
        headers,
        body: rpc(1, 'initialize', {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: `one-shot-${i}`, version: '1' },
        }),
      });
      await init.text();
      const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id')! };
      await (await fetch(t.urls.mcpUrl, { method: 'POST', headers: session, body: rpc(2, 'tools/list', {}) })).text();
    }
    expect(t.core.mcp.clients().length).toBe(11);
    const started = Date.now();
    await waitFor(
      () => t.core.mcp.clients().length === 1,
      'the one-shot clients to be gone',
      ONE_SHOT_PRESENCE_MS + 5000,
    );
    expect(Date.now() - started).toBeLessThan(ONE_SHOT_PRESENCE_MS + 5000);
    expect(t.core.mcp.clients()).toMatchObject([{ name: 'stays' }]);
    expect(t.core.mcp.status().clients).toHaveLength(1);
  });

  it('forget real SDK clients that connect, call once and close (the GET stream they open is not a request), and keep no more than the session limit', async () => {
    const t = await startTestCore({ mcp: { maxSessions: 8 } });
    defer(() => t.stop());
    const target = { mcpUrl: t.urls.mcpUrl, dataDir: t.dataDir, token: t.core.mcp.token() };
    const stays = await connectMcpClient('http', target, { name: 'stays', version: '1' });
    defer(() => stays.close());
    const listeners = () => t.core.bus.listenerCount('tools:changed');
    const before = { listeners: listeners(), records: t.core.budget.usedBytes };
    for (let i = 0; i < 20; i++) {
      const once = await connectMcpClient('http', target, { name: `one-shot-${i}`, version: '1' });
      const status = await once.client.callTool({ name: 'inspector_get_status', arguments: {} });
      expect(status.isError ?? false).toBe(false);
      await once.close(); // ends its GET stream; no DELETE, so the server keeps its session
    }
    const listed = t.core.mcp.clients().map((c) => c.name);
    expect(listed).toContain('stays');
    expect(listed).toContain('one-shot-19');
    await waitFor(
      () => t.core.mcp.clients().length === 1,
      'the one-shot SDK clients to be gone',
      ONE_SHOT_PRESENCE_MS + 5000,
    );
    expect(t.core.mcp.clients()).toMatchObject([{ name: 'stays' }]);
    // Nothing piles up: sessions within the limit (the one that stays among them), a listener per
    // kept session and no more, no records of their own.
    const kept = t.core.mcp.sessions().count;
    expect(kept).toBeLessThanOrEqual(8);
    expect(listeners()).toBe(before.listeners + kept - 1);
    expect(t.core.budget.usedBytes).toBe(before.records);
    // The client that stayed, idle through the burst, was not evicted for them.
    const again = await stays.client.callTool({ name: 'inspector_get_status', arguments: {} });
    expect(again.isError ?? false).toBe(false);
  });
});
