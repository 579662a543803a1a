import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect } from '../../agent/connection.js';
import { network } from '../../plugins/network/agent/index.js';
import { httpServer } from '../../plugins/network/host/testing.js';
import { freePort, servedInspector } from './serve-testing.js';
import { cleanupAfterEach } from './test-cleanup.js';
import { waitFor } from './testing.js';
import { BridgeClient, type Started } from './ui-bridge/bridge-testing.js';

// Issue 9, defects 3 and 9: what the byte budgets dropped is still said after a restart, clean or kill -9.

type Dropped = { count: number; bytes: number };

describe('drop counts across restarts', () => {
  const defer = cleanupAfterEach();

  /**
   * A data dir and a port kept across restarts, `porthole serve` on them with a budget of `megabytes`,
   * and an app that connected to the first one and fetched 24 answers of 1 MiB each.
   */
  async function restartable(megabytes: number, app: { id: string; name: string }) {
    const dataDir = mkdtempSync(join(tmpdir(), 'porthole-drops-'));
    defer(() => rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const body = 'z'.repeat(1024 * 1024);
    const server = await httpServer((_req, res) => res.end(body));
    defer(() => server.close());
    const inspector = (mb = megabytes) =>
      servedInspector({ dataDir, port, args: ['--memory-budget', String(mb)] }, defer);

    const first = await inspector();
    const agent = connect({
      url: `ws://127.0.0.1:${port}`,
      app,
      // The MCP client's calls, the window's sign-in and its bridge socket from this process are not captured: the counts
      // stay still between reads.
      plugins: [network({ ignoreUrls: ['/mcp', '/?token=', '/bridge'] })],
      reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
    });
    defer(() => agent.disconnect());
    const sessionId = await waitFor(() => agent.status.sessionId, 'the app to connect', 10_000);
    for (let i = 0; i < 24; i++) await (await fetch(`${server.url}/big/${i}`)).text();
    return { dataDir, server, inspector, first, agent, sessionId };
  }

  it('the tools and the window say how much was dropped before a kill -9 and a clean stop', {
    timeout: 240_000,
  }, async () => {
    // The smallest global budget: 16 MiB; 24 answers of 1 MiB each are past it.
    const { dataDir, server, inspector, first, agent, sessionId } = await restartable(16, {
      id: 'com.test.drops',
      name: 'Drops',
    });

    const listed = async (call: typeof first.call) =>
      (await call('network_list_transactions', { sessionId, limit: 1 })) as {
        dropped: Dropped;
        total: number;
        pending: number;
      };
    const statusDropped = async (call: typeof first.call) =>
      ((await call('inspector_get_status')).memory as { dropped: Dropped }).dropped;
    // Every answer is in (none pending): the counts stay as they are now.
    const before = await waitFor(async () => {
      const page = await listed(first.call);
      return page.total + page.dropped.count === 24 && page.pending === 0 ? page : undefined;
    }, 'the oldest answers to be dropped');
    expect(before.dropped.count).toBeGreaterThan(0);
    expect(before.dropped.bytes).toBeGreaterThan(before.dropped.count * 1024 * 1024);
    const globalBefore = await statusDropped(first.call);
    expect(globalBefore.count).toBeGreaterThanOrEqual(before.dropped.count);

    // Written within a second: the session's store file and sessions.json carry the counts.
    const storeFile = join(dataDir, 'sessions', sessionId, 'network--transactions.jsonl');
    const sessionsFile = join(dataDir, 'sessions', 'sessions.json');
    /** The records the store file holds when read back (a line still being written is skipped). */
    const savedRecords = () => {
      const kept = new Set<string>();
      for (const line of readFileSync(storeFile, 'utf8').split('\n')) {
        try {
          const record = JSON.parse(line) as unknown;
          if (Array.isArray(record) && record.length === 1) kept.delete(record[0]);
          else if (Array.isArray(record)) kept.add(record[0]);
        } catch {}
      }
      return kept.size;
    };
    // The 15 MiB of kept answers take a moment to write: the kill comes once they are all in the file.
    const saved = () =>
      existsSync(storeFile) &&
      readFileSync(storeFile, 'utf8').includes(JSON.stringify({ dropped: before.dropped })) &&
      savedRecords() === before.total &&
      existsSync(sessionsFile) &&
      (JSON.parse(readFileSync(sessionsFile, 'utf8')) as { dropped?: Dropped }).dropped?.count === globalBefore.count;
    await waitFor(saved, 'the counts to be saved', 5000).catch((e) => {
      const lines = existsSync(storeFile) ? readFileSync(storeFile, 'utf8').match(/\{"dropped".*/g) : 'no store file';
      const sessions = existsSync(sessionsFile) ? readFileSync(sessionsFile, 'utf8').slice(-80) : 'no sessions file';
      throw new Error(
        `${(e as Error).message}: want ${JSON.stringify([before.dropped, globalBefore])}, have ${lines} / ${sessions}`,
      );
    });

    first.child.kill('SIGKILL');
    await first.exit;
    await waitFor(() => agent.status.state !== 'connected', 'the app to notice');

    const second = await inspector();
    await waitFor(() => agent.status.state === 'connected', 'the app to resume', 10_000);
    expect(agent.status.sessionId).toBe(sessionId);
    expect((await listed(second.call)).dropped).toEqual(before.dropped);
    expect(await statusDropped(second.call)).toEqual(globalBefore);
    // The window's network panel reads the same counts (its `stats` call through the UI bridge).
    const window = await BridgeClient.open({
      urls: { controlUrl: second.window.controlUrl },
      core: { ui: { token: second.window.token } },
    } as unknown as Started);
    defer(() => window.ws.close());
    const stats = await window.result<{ dropped: number; droppedBytes: number }>('panel.call', {
      sessionId,
      plugin: 'network',
      method: 'stats',
      params: {},
    });
    expect({ count: stats.dropped, bytes: stats.droppedBytes }).toEqual(before.dropped);

    // More drops after the resume add to the count; a clean stop keeps the sum.
    for (let i = 0; i < 4; i++) await (await fetch(`${server.url}/more/${i}`)).text();
    let seen: unknown;
    const after = await waitFor(async () => {
      const page = await listed(second.call);
      seen = page;
      return page.total + page.dropped.count === 28 && page.pending === 0 ? page : undefined;
    }, 'more answers to be dropped').catch(async (e) => {
      const urls = await second.call('network_list_transactions', { sessionId, limit: 50 });
      throw new Error(
        `${(e as Error).message}: ${JSON.stringify(seen).slice(0, 600)} ${JSON.stringify(urls).slice(0, 3000)}`,
      );
    });
    expect(after.dropped.count).toBeGreaterThan(before.dropped.count);
    const globalAfter = await statusDropped(second.call);
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
    const third = await inspector();
    await waitFor(() => agent.status.state === 'connected', 'the app to resume again', 10_000);
    expect((await listed(third.call)).dropped).toEqual(after.dropped);
    expect(await statusDropped(third.call)).toEqual(globalAfter);
  });

  it('a restart with a smaller budget keeps the session and drops its oldest records, counted', {
    timeout: 240_000,
  }, async () => {
    const { inspector, first, agent, sessionId } = await restartable(64, { id: 'com.test.smaller', name: 'Smaller' });
    const page = async (call: typeof first.call) =>
      (await call('network_list_transactions', { sessionId, limit: 50 })) as {
        transactions: { url: string }[];
        dropped: Dropped;
        total: number;
        pending: number;
      };
    await waitFor(async () => {
      const p = await page(first.call);
      return p.total === 24 && p.pending === 0 && p.dropped.count === 0;
    }, 'all 24 answers to be kept');
    agent.disconnect();
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);

    // 24 MiB saved, 16 MiB of budget: the session stays, with its newest answers and a count of the rest.
    const second = await inspector(16);
    const sessions = (await second.call('inspector_list_sessions')) as { sessions: { id: string }[] };
    expect(sessions.sessions.map((s) => s.id)).toEqual([sessionId]);
    const restored = await page(second.call);
    expect(restored.total).toBeGreaterThan(8);
    expect(restored.total).toBeLessThan(16);
    expect(restored.dropped.count).toBe(24 - restored.total);
    expect(restored.dropped.bytes).toBeGreaterThan(restored.dropped.count * 1024 * 1024);
    const urls = restored.transactions.map((t) => new URL(t.url).pathname);
    expect(urls).toContain('/big/23');
    expect(urls).not.toContain('/big/0');
    expect(second.output()).not.toContain('could not start');
  });
});
