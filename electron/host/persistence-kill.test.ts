import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect } from '../../agent/connection.js';
import { network } from '../../plugins/network/agent/index.js';
import { httpServer } from '../../plugins/network/host/testing.js';
import { PERSIST_INTERVAL_MS } from './persistence.js';
import { freePort, servedInspector } from './serve-testing.js';
import { cleanupAfterEach } from './test-cleanup.js';
import { waitFor } from './testing.js';

// Issue 30, data 11: in a kill -9 round, 17 of 4,633 transactions visible for more than 1.5 s were
// lost. docs/data-dir.md promises that a kill loses at most about the last second: here `porthole
// serve` runs in a child process under steady traffic large enough for its store's file to be
// rewritten whole several times, and is killed with SIGKILL in the middle of it.

/** What a kill may lose: changes of the last second (the write interval, then the write itself). */
const WINDOW_MS = 1000;

type Listed = { path: string; state: string };

describe('a kill -9', () => {
  const defer = cleanupAfterEach();

  it('loses nothing that was visible more than a second before it', { timeout: 180_000 }, async () => {
    expect(PERSIST_INTERVAL_MS).toBeLessThan(WINDOW_MS);
    const dataDir = mkdtempSync(join(tmpdir(), 'porthole-kill-'));
    defer(() => rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const body = 'k'.repeat(150 * 1024);
    const server = await httpServer((req, res) => res.end(`${req.url} ${body}`));
    defer(() => server.close());
    const inspector = () => servedInspector({ dataDir, port }, defer);
    const first = await inspector();
    const plugin = network({ ignoreUrls: ['/mcp'] });
    const agent = connect({
      url: `ws://127.0.0.1:${port}`,
      app: { id: 'com.test.kill', name: 'Kill' },
      plugins: [plugin],
      reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
    });
    defer(() => agent.disconnect());
    await waitFor(() => agent.status.state === 'connected', 'the app', 10_000);
    const sessionId = agent.status.sessionId!;
    const list = async (call: typeof first.call): Promise<Listed[]> => {
      const out: Listed[] = [];
      let cursor: string | undefined;
      do {
        const page = await call('network_list_transactions', {
          sessionId,
          urlContains: server.url,
          limit: 100,
          cursor,
        });
        if (!page) throw new Error('network_list_transactions failed');
        for (const t of page.transactions as { url: string; state: string }[])
          out.push({ path: new URL(t.url).pathname, state: t.state });
        cursor = page.nextCursor as string | undefined;
      } while (cursor);
      return out;
    };

    // Traffic the whole time: the store holds its cap (~8 MB) and its file is rewritten whole every ~17 MB.
    let sending = true;
    let sent = 0;
    const traffic = (async () => {
      while (sending) await (await fetch(`${server.url}/r/${sent++}`).catch(() => undefined))?.text();
    })();
    defer(async () => {
      sending = false;
      await traffic;
    });

    // When each request was first seen complete by an MCP client.
    const visibleAt = new Map<string, number>();
    let held: Listed[] = [];
    const started = Date.now();
    // At least 6 s and 200 requests (a loaded machine sends fewer a second), at most 40 s.
    while (Date.now() - started < 40_000 && (Date.now() - started < 6000 || sent < 200)) {
      held = await list(first.call);
      const now = Date.now();
      for (const t of held) if (t.state === 'complete' && !visibleAt.has(t.path)) visibleAt.set(t.path, now);
      await new Promise((r) => setTimeout(r, 100));
    }
    held = await list(first.call);
    first.child.kill('SIGKILL');
    const killedAt = Date.now();
    await first.exit;
    sending = false;
    await traffic;

    // Everything held at the last look and complete more than a second before the kill, but the few
    // oldest (the budget may have dropped them between that look and the kill).
    const expected = held
      .filter((t) => (visibleAt.get(t.path) ?? Number.POSITIVE_INFINITY) < killedAt - WINDOW_MS)
      .map((t) => t.path)
      .sort((a, b) => Number(a.split('/')[2]) - Number(b.split('/')[2]))
      .slice(5);
    expect(expected.length, `${held.length} held, ${sent} sent`).toBeGreaterThan(20);

    const second = await inspector();
    await waitFor(() => agent.status.state === 'connected', 'the app to resume', 10_000);
    const back = new Map((await list(second.call)).map((t) => [t.path, t.state]));
    const lost = expected.filter((path) => back.get(path) !== 'complete');
    expect(lost, `${lost.length} of ${expected.length} lost (${sent} sent)`).toEqual([]);
  });
});
