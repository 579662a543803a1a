import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect } from '../../agent/connection.js';
import { network } from '../../plugins/network/agent/index.js';
import { httpServer } from '../../plugins/network/host/testing.js';
import { connectInspector } from '../client/index.js';
import { EXIT } from './cli-call.js';
import { cleanupAfterEach } from './test-cleanup.js';
import { startTestCore, waitFor } from './testing.js';

const BIN = resolve(import.meta.dirname, '../../bin/porthole.js');
const defer = cleanupAfterEach();

/** `porthole <args>` as a subprocess: its exit code, stdout and stderr. */
function porthole(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { timeout: 60_000, env: { ...process.env, CI: '1' } },
      (e, stdout, stderr) => {
        const killed = e?.killed ? `\n(killed by ${e.signal} after the 60 s timeout)` : '';
        done({ code: e ? Number(e.code ?? 1) : 0, stdout, stderr: stderr + killed });
      },
    );
  });
}

describe('porthole call / porthole tools', () => {
  it('calls tools of the running inspector: raw JSON on stdout, exit codes, messages on stderr, recorded as cli', async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    const plugin = network({ ignoreUrls: [t.urls.mcpUrl] });
    await plugin.ready;
    defer(() => plugin.dispose());
    const agent = connect({ url: t.urls.debuggeeUrl, app: { id: 'com.test.cli', name: 'CLI' }, plugins: [plugin] });
    defer(() => agent.disconnect());
    await waitFor(() => agent.status.state === 'connected', 'the agent');
    const server = await httpServer((req, res) => res.end(`real ${req.url}`));
    defer(() => server.close());
    await (await fetch(`${server.url}/hello`)).text();
    const dir = ['--data-dir', t.dataDir];

    const inspector = await connectInspector({ dataDir: t.dataDir });
    defer(() => inspector.close());
    await expect.poll(async () => (await inspector.network.listTransactions()).transactions[0]?.state).toBe('complete');

    const listed = await porthole([
      'call',
      'network_list_transactions',
      '--url-contains',
      '/hello',
      '--limit',
      '5',
      ...dir,
    ]);
    expect(listed.code, listed.stderr).toBe(EXIT.ok);
    expect(JSON.parse(listed.stdout)).toEqual(
      await inspector.network.listTransactions({ urlContains: '/hello', limit: 5 }),
    );

    const sessions = await porthole(['call', 'inspector_list_sessions', '--json', '{"activeOnly":true}', ...dir]);
    expect(JSON.parse(sessions.stdout).sessions.map((s: { app: { id: string } }) => s.app.id)).toEqual([
      'com.test.cli',
    ]);

    const out = join(mkdtempSync(join(tmpdir(), 'porthole-out-')), 'config.json');
    const written = await porthole(['call', 'network_get_mock_config', '--out', out, ...dir]);
    expect([written.code, written.stdout.trim()]).toEqual([EXIT.ok, out]);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ rules: [], enabled: true });

    const missing = await porthole(['call', 'network_get_transaction', '--id', 'no-such-id', ...dir]);
    expect(missing.code, missing.stderr).toBe(EXIT.failed);
    expect(missing.stderr).toContain('no-such-id');
    expect(missing.stdout).toBe('');

    const badValue = await porthole(['call', 'network_list_transactions', '--limit', 'ten', ...dir]);
    expect(badValue.code, badValue.stderr).toBe(EXIT.usage);
    expect(badValue.stderr).toContain('--limit expects integer, not "ten"');
    const badFlag = await porthole(['call', 'network_list_transactions', '--colour', 'red', ...dir]);
    expect([badFlag.code, badFlag.stderr]).toEqual([EXIT.usage, expect.stringContaining('no argument --colour')]);
    const unknown = await porthole(['call', 'network_teleport', ...dir]);
    expect([unknown.code, unknown.stderr]).toEqual([EXIT.usage, expect.stringContaining('porthole tools')]);

    const help = await porthole(['call', 'network_list_transactions', '--help', ...dir]);
    expect(help.stdout).toContain('--url-contains <string>');
    expect(help.stdout).toContain('Exit codes');
    const tools = await porthole(['tools', ...dir]);
    expect(tools.code, tools.stderr).toBe(EXIT.ok);
    expect(tools.stdout).toContain('network_set_mock_rules  (changes things)');

    const recorded = t.core.history.list(50).filter((c) => c.surface === 'cli');
    expect(recorded.map((c) => c.tool)).toContain('network_get_transaction');
    expect(recorded.every((c) => c.client?.name === 'porthole-cli')).toBe(true);

    const none = await porthole([
      'call',
      'inspector_list_sessions',
      '--data-dir',
      mkdtempSync(join(tmpdir(), 'none-')),
    ]);
    expect([none.code, none.stderr]).toEqual([
      EXIT.unavailable,
      expect.stringContaining('no Porthole inspector is running'),
    ]);
  }, 240_000);
});
