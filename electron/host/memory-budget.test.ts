import { afterEach, describe, expect, it } from 'vitest';
import type { ConsoleHost } from '../../plugins/console/host/index.js';
import { consoleProtocol } from '../../plugins/console/protocol.js';
import type { ExampleHost } from '../../plugins/example/host/index.js';
import type { NetworkHost } from '../../plugins/network/host/index.js';
import { networkProtocol } from '../../plugins/network/protocol.js';
import { connectMcpClient } from './mcp/mcp-testing.js';
import { helloFrame, RawPeer, startTestCore, waitFor } from './testing.js';

// Defect 3 of issue 9: what the link feeds is bounded in bytes, globally, oldest first, and the drops are told.

const MiB = 1024 * 1024;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function core(options: Parameters<typeof startTestCore>[0]) {
  const c = await startTestCore({ mcp: { auth: 'none' }, ...options });
  cleanups.push(() => c.stop());
  return c;
}

async function peer(url: string, hello: Record<string, unknown>) {
  const p = await RawPeer.open(url);
  cleanups.push(() => p.close());
  p.send(helloFrame(hello));
  return { peer: p, welcome: await p.next((f) => f.type === 'welcome' || f.type === 'reject') };
}

const networkHello = (app: string) => ({
  app: { id: app, name: app },
  plugins: [{ id: 'network', version: networkProtocol.version }],
});

function sendTransactions(p: RawPeer, prefix: string, count: number, bodyBytes: number) {
  for (let i = 0; i < count; i++) {
    p.send(
      JSON.stringify({
        type: 'notification',
        plugin: 'network',
        method: 'started',
        params: {
          id: `${prefix}-${i}`,
          initiator: 'fetch',
          method: 'POST',
          url: `http://api.test/${prefix}/${i}`,
          headers: [],
          body: { encoding: 'text', data: 'x'.repeat(bodyBytes), size: bodyBytes, truncated: false },
          startedAt: Date.now(),
        },
      }),
    );
  }
}

describe('the global memory budget', () => {
  it('drops the oldest transactions of any session past the budget, and list tools say how much', async () => {
    const c = await core({ memoryBudgetBytes: 4 * MiB });
    const a = await peer(c.urls.debuggeeUrl, networkHello('app.a'));
    sendTransactions(a.peer, 'a', 10, 256 * 1024);
    const sessionA = String(a.welcome.sessionId);
    await waitFor(() => c.core.budget.stats().records >= 10, 'the first app to be stored');
    const b = await peer(c.urls.debuggeeUrl, networkHello('app.b'));
    sendTransactions(b.peer, 'b', 20, 256 * 1024);
    const sessionB = String(b.welcome.sessionId);
    const hostB = await waitFor(() => c.core.plugins.instance(sessionB, 'network') as NetworkHost | undefined);
    await waitFor(() => hostB.get('b-19'), 'the last request of the second app');

    const stats = c.core.budget.stats();
    expect(stats.usedBytes).toBeLessThanOrEqual(4 * MiB);
    expect(stats.usedBytes).toBeGreaterThan(3 * MiB);

    const mcp = await connectMcpClient('http', { ...c.urls, dataDir: c.dataDir });
    cleanups.push(() => mcp.close());
    const list = async (sessionId: string) =>
      (await mcp.client.callTool({ name: 'network_list_transactions', arguments: { sessionId, limit: 500 } }))
        .structuredContent as { transactions: { id: string }[]; dropped: { count: number; bytes: number } };
    const listA = await list(sessionA);
    const listB = await list(sessionB);
    // Oldest first: every request of the first app went before any of the second.
    expect(listA.transactions).toEqual([]);
    expect(listA.dropped.count).toBe(10);
    expect(listA.dropped.bytes).toBeGreaterThan(10 * 256 * 1024);
    expect(listB.transactions.map((t) => t.id)).toContain('b-19');
    expect(listB.transactions.length + listB.dropped.count).toBe(20);
    expect(listB.dropped.count).toBeGreaterThan(0);
  });

  it("bounds a plugin's log in bytes through ctx.records, whatever data the app attaches", async () => {
    const c = await core({ memoryBudgetBytes: 64 * MiB });
    const { peer: p, welcome } = await peer(c.urls.debuggeeUrl, {});
    const big = { blob: 'y'.repeat(1024 * 1024) };
    for (let i = 0; i < 20; i++) {
      p.send(
        JSON.stringify({
          type: 'notification',
          plugin: 'example',
          method: 'log',
          params: { level: 'info', message: `entry ${i}`, data: big, time: i },
        }),
      );
    }
    const host = await waitFor(
      () => c.core.plugins.instance(String(welcome.sessionId), 'example') as ExampleHost | undefined,
    );
    await waitFor(() => host.log().at(-1)?.message === 'entry 19', 'the last entry');
    const log = host.log();
    // The example plugin keeps 8 MiB of its log: the newest entries, the rest counted as dropped.
    expect(log.length).toBeLessThan(9);
    expect(log.length).toBeGreaterThan(4);
    expect(host.dropped()).toEqual({ count: 20 - log.length, bytes: expect.any(Number) });
    expect(host.dropped().bytes).toBeGreaterThan((20 - log.length) * 1024 * 1024);
    expect(c.core.budget.stats().stores['example:log']?.bytes).toBeLessThanOrEqual(8 * MiB);
  });

  it("holds the console's messages under the global budget too: the oldest go first and are counted", async () => {
    const c = await core({ memoryBudgetBytes: 4 * MiB });
    const { peer: p, welcome } = await peer(c.urls.debuggeeUrl, {
      plugins: [{ id: 'console', version: consoleProtocol.version }],
    });
    // Twelve messages of 512 KiB: 6 MiB, past the 4 MiB budget (the console's own bound is 32 MiB).
    for (let i = 0; i < 12; i++) {
      p.send(
        JSON.stringify({
          type: 'notification',
          plugin: 'console',
          method: 'batch',
          params: { messages: [{ kind: 'log', time: i, args: [`message ${i}`, 'y'.repeat(512 * 1024)] }] },
        }),
      );
    }
    const host = await waitFor(
      () => c.core.plugins.instance(String(welcome.sessionId), 'console') as ConsoleHost | undefined,
    );
    await waitFor(() => host.store.latest === 12, 'the last message');
    const stats = host.store.stats();
    expect(stats.bytes).toBeLessThanOrEqual(4 * MiB);
    expect(stats.stored).toBeLessThan(12);
    expect(stats.evicted).toBe(12 - stats.stored);
    expect(c.core.budget.usedBytes).toBeLessThanOrEqual(4 * MiB);
    expect(c.core.budget.stats().stores['console:messages']?.records).toBe(stats.stored);
    // The newest are kept, the oldest are gone.
    expect(host.store.get(12)?.text).toContain('message 11');
    expect(host.store.get(1)).toBeUndefined();
  });

  it('releases a session’s records when the session is removed', async () => {
    const c = await core({});
    const a = await peer(c.urls.debuggeeUrl, networkHello('app.a'));
    sendTransactions(a.peer, 'a', 5, 1000);
    await waitFor(() => c.core.budget.stats().records >= 5, 'records');
    a.peer.close();
    const id = String(a.welcome.sessionId);
    await waitFor(() => c.core.sessions.get(id)?.info.active === false, 'the session to be inactive');
    expect(c.core.sessions.remove(id)).toBe(true);
    expect(c.core.budget.stats().stores['network:transactions']).toBeUndefined();
  });
});

describe('the cap on sessions connected at once', () => {
  it('refuses a new session past the cap with too-many-sessions, still resumes known ones, and takes one when a place frees', async () => {
    const c = await core({ maxActiveSessions: 2 });
    const first = await peer(c.urls.debuggeeUrl, {});
    await peer(c.urls.debuggeeUrl, {});
    const third = await peer(c.urls.debuggeeUrl, {});
    expect(third.welcome).toMatchObject({ type: 'reject', reason: 'too-many-sessions' });
    expect(String(third.welcome.message)).toContain('--max-sessions');
    await waitFor(() => third.peer.closed, 'the refused link to close');
    expect(third.peer.closed?.code).toBe(4001);

    // A hello resuming a session it knows is not refused (it replaces the old connection).
    const resume = { sessionId: first.welcome.sessionId, secret: first.welcome.resumeSecret };
    const again = await peer(c.urls.debuggeeUrl, { resume });
    expect(again.welcome).toMatchObject({ type: 'welcome', resumed: true });
    await waitFor(() => first.peer.closed, 'the replaced link to close');
    expect(c.core.sessions.active).toBe(2);

    again.peer.close();
    await waitFor(() => c.core.sessions.active === 1, 'a place to free');
    const fourth = await peer(c.urls.debuggeeUrl, {});
    expect(fourth.welcome).toMatchObject({ type: 'welcome', resumed: false });
  });
});
