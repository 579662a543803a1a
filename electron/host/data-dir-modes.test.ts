import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect } from '../../agent/connection.js';
import { example } from '../../plugins/example/agent/index.js';
import { network } from '../../plugins/network/agent/index.js';
import { connectMcpClient } from './mcp/mcp-testing.js';
import { cleanupAfterEach } from './test-cleanup.js';
import { startTestCore, waitFor } from './testing.js';

// Defect 5 of issue 9: the data dir is the user's alone, and no record carries a token.

function modes(dir: string, out = new Map<string, number>()): Map<string, number> {
  out.set(dir, lstatSync(dir).mode & 0o777);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isDirectory()) modes(path, out);
    else out.set(path, stat.mode & 0o777);
  }
  return out;
}

describe.skipIf(process.platform === 'win32')('the data dir', () => {
  const defer = cleanupAfterEach();

  it('is 0700 with every file 0600, old 0644 files included, and tokens stay out of results and history', async () => {
    const previous = process.umask(0o022);
    defer(() => void process.umask(previous));
    const dataDir = mkdtempSync(join(tmpdir(), 'porthole-modes-'));
    chmodSync(dataDir, 0o755);
    // What an older version left behind: world-readable history and plugin files.
    mkdirSync(join(dataDir, 'history'), { mode: 0o755 });
    writeFileSync(join(dataDir, 'history', 'calls.jsonl'), '', { mode: 0o644 });
    mkdirSync(join(dataDir, 'plugins', 'old'), { recursive: true, mode: 0o755 });
    writeFileSync(join(dataDir, 'plugins', 'old', 'x.json'), '{}', { mode: 0o644 });

    const t = await startTestCore({ dataDir });
    defer(() => t.stop());
    const agent = connect({
      url: t.urls.debuggeeUrl,
      app: { id: 'com.test.modes', name: 'Modes' },
      plugins: [example(), network()],
    });
    defer(() => agent.disconnect());
    await waitFor(() => agent.status.state === 'connected', 'the app to connect');

    const uiToken = t.core.ui.token;
    const mcpToken = t.core.mcp.token()!;
    const mcp = await connectMcpClient('http', { ...t.urls, dataDir, token: mcpToken });
    defer(() => mcp.close());
    const status = await mcp.client.callTool({ name: 'inspector_get_status', arguments: {} });
    await mcp.client.callTool({
      name: 'network_set_mock_rules',
      arguments: {
        op: 'add',
        rule: { match: { url: { kind: 'contains', value: '/api' } }, action: { type: 'respond', status: 204 } },
      },
    });
    // A tool that hands back what it was given: the token in the arguments and in the result.
    const echoed = await mcp.client.callTool({ name: 'example_echo', arguments: { text: `open ${t.urls.uiUrl}` } });
    expect(JSON.stringify(echoed)).toContain(uiToken); // the caller gets its own answer as is
    await waitFor(() => t.core.history.list().filter((c) => c.status !== 'running').length >= 3, 'three calls');

    const statusText = JSON.stringify(status);
    expect(statusText).not.toContain(uiToken);
    expect(statusText).not.toContain(mcpToken);
    expect((status.structuredContent as { urls: { ui: string } }).urls.ui).toBe(`${t.urls.controlUrl}/`);

    await t.core.history.flush();
    const history = readFileSync(t.core.history.path, 'utf8');
    expect(history).toContain('[redacted]');
    expect(history).not.toContain(uiToken);
    expect(history).not.toContain(mcpToken);
    const echoCall = t.core.history.list(10, { tool: 'example_echo' })[0]!;
    expect(JSON.stringify(t.core.history.get(echoCall.id))).not.toContain(uiToken);

    const all = modes(dataDir);
    for (const name of ['mcp-token', 'ui-token', 'instance.json', join('history', 'calls.jsonl')])
      expect(all.has(join(dataDir, name)), name).toBe(true);
    expect([...all.keys()].some((p) => p.endsWith('mock-config.json'))).toBe(true);
    for (const [path, mode] of all) {
      const isDir = lstatSync(path).isDirectory();
      expect({ path, mode: mode.toString(8) }).toEqual({ path, mode: isDir ? '700' : '600' });
    }
  });
});
