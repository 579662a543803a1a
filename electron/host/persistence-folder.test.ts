import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect } from '../../agent/connection.js';
import { network } from '../../plugins/network/agent/index.js';
import { httpServer } from '../../plugins/network/host/testing.js';
import type { StorageStatus } from '../../shared/storage-status.js';
import { freePort, servedInspector } from './serve-testing.js';
import { cleanupAfterEach } from './test-cleanup.js';
import { waitFor } from './testing.js';

// Issue 30, data 12: a history file replaced by a folder answered calls but recorded nothing and
// logged nothing. Now: said once (log, inspector_get_status, the window), calls go on, and once the
// folder is gone what was recorded meanwhile is written. The same for a captured-traffic file.

describe('a data file replaced by a folder', () => {
  const defer = cleanupAfterEach();

  it('is said once, calls go on, and what was missed is written once it is fixed', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'porthole-folder-'));
    defer(() => rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const server = await httpServer((req, res) => res.end(`answer ${req.url}`));
    defer(() => server.close());
    const inspector = await servedInspector({ dataDir, port }, defer);
    const plugin = network({ ignoreUrls: ['/mcp'] });
    const agent = connect({
      url: `ws://127.0.0.1:${port}`,
      app: { id: 'com.test.folder', name: 'Folder' },
      plugins: [plugin],
      reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
    });
    defer(() => agent.disconnect());
    await waitFor(() => agent.status.state === 'connected', 'the app', 10_000);
    const sessionId = agent.status.sessionId!;
    await (await fetch(`${server.url}/first`)).text();
    await inspector.call('inspector_get_status');
    const historyFile = join(dataDir, 'history', 'calls.jsonl');
    const storeFile = join(dataDir, 'sessions', sessionId, 'network--transactions.jsonl');
    await waitFor(() => existsSync(storeFile) && existsSync(historyFile), 'the files to be written', 10_000);

    // Both files become folders behind the inspector's back.
    rmSync(historyFile);
    mkdirSync(historyFile);
    rmSync(storeFile);
    mkdirSync(storeFile);
    for (let i = 0; i < 5; i++) await (await fetch(`${server.url}/meanwhile/${i}`)).text();
    await waitFor(
      async () =>
        (
          (await inspector.call('network_list_transactions', { sessionId, urlContains: '/meanwhile/' }))
            .transactions as unknown[]
        ).length === 5,
      'the calls to go on answering',
    );
    for (let i = 0; i < 3; i++) await inspector.call('inspector_list_sessions');
    const status = async () => (await inspector.call('inspector_get_status')).storage as StorageStatus;
    const broken = await waitFor(
      async () => {
        const s = await status();
        return s.problems.length === 2 && s;
      },
      'both problems to be said',
      15_000,
    );
    expect(broken.writable).toBe(false);
    expect(broken.problems.map((p) => [p.area, p.kind, p.code]).sort()).toEqual([
      ['history', 'not-a-file', 'EISDIR'],
      ['sessions', 'not-a-file', 'EISDIR'],
    ]);
    expect(broken.problems.find((p) => p.area === 'history')?.message).toMatch(
      /a folder is where the file should be.*move it away/,
    );
    // Retried, not logged again.
    await new Promise((r) => setTimeout(r, 3000));
    expect(inspector.output().match(/a folder is where the file should be/g)).toHaveLength(2);

    rmSync(historyFile, { recursive: true });
    rmSync(storeFile, { recursive: true });
    await waitFor(async () => (await status()).writable, 'the files to be written again', 20_000);
    expect(inspector.output()).toMatch(/the call history can be written again/);
    expect(inspector.output()).toMatch(/sessions and their captured data can be written again/);
    // What was recorded while they were folders is in the files now.
    const history = readFileSync(historyFile, 'utf8');
    expect(history.match(/"tool":"inspector_list_sessions"/g)).toHaveLength(3);
    const saved = readFileSync(storeFile, 'utf8');
    for (let i = 0; i < 5; i++) expect(saved).toContain(`/meanwhile/${i}`);
  });
});
