import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { type Agent, connect } from '../../../agent/connection.js';
import type { AgentPlugin } from '../../../agent/plugin.js';
import { consolePlugin } from '../../../plugins/console/agent/index.js';
import { example } from '../../../plugins/example/agent/index.js';
import { connectInspector } from '../../client/inspector.js';
import { connectMcpClient, connectModernClient } from '../mcp/mcp-testing.js';
import { cleanupAfterEach } from '../test-cleanup.js';
import { startTestCore, waitFor } from '../testing.js';
import { BridgeClient } from '../ui-bridge/bridge-testing.js';
import { LISTED_PLUGINS_FILE } from './plugin-listing.js';

// Issue 37 §3: a plugin's tools are listed once an app offered the plugin to this inspector
// (remembered in the data dir) or the user enabled it in the window; a client narrows its list with
// ?plugins= (HTTP) or `porthole mcp --plugins` (stdio); notifications/tools/list_changed when the set changes.

const prefixes = (names: string[]) => [...new Set(names.map((name) => name.slice(0, name.indexOf('_'))))].sort();

describe('which plugins tools/list shows (real SDK clients, 1.x and v2)', () => {
  const defer = cleanupAfterEach();

  const app = async (url: string, plugins: AgentPlugin[]): Promise<Agent> => {
    const agent = connect({ url, app: { id: 'com.test.listing', name: 'Listing' }, plugins });
    defer(() => agent.disconnect());
    await waitFor(() => agent.status.state === 'connected', 'the app to connect');
    return agent;
  };

  it("lists a plugin's tools once an app offered it, remembers it across restarts, and says when the list changes", async () => {
    const first = await startTestCore({ listedPlugins: 'offered' });
    let stopped = false;
    defer(() => (stopped ? undefined : first.stop()));
    const target = { mcpUrl: first.urls.mcpUrl, dataDir: first.dataDir, token: first.core.mcp.token() };
    const legacy = await connectMcpClient('http', target);
    defer(() => legacy.close());
    const modern = await connectModernClient('http', target);
    defer(() => modern.close());
    let changed = 0;
    legacy.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });

    // No app yet: the inspector's own tools only, in both eras.
    expect(prefixes((await legacy.client.listTools()).tools.map((t) => t.name))).toEqual(['inspector']);
    expect(prefixes((await modern.client.listTools()).tools.map((t) => t.name))).toEqual(['inspector']);
    // A script (porthole/client, porthole call) sees every plugin's tools: it connects before its app.
    const script = await connectInspector({ url: first.urls.mcpUrl, token: first.core.mcp.token() });
    defer(() => script.close());
    expect(prefixes((await script.tools()).map((t) => t.name))).toEqual([
      'actions',
      'console',
      'example',
      'inspector',
      'network',
      'react',
      'state',
      'storage',
      'ui',
    ]);
    // Listing is not calling: a tool named from the docs still runs (and says there is no app).
    const unlisted = await legacy.client.callTool({ name: 'example_send_ping', arguments: {} });
    expect(unlisted.isError).toBe(true);
    expect(JSON.stringify(unlisted.content)).toMatch(/no connected app|no session|connect/i);

    const agent = await app(first.urls.debuggeeUrl, [example(), consolePlugin()]);
    await waitFor(() => changed > 0, 'notifications/tools/list_changed');
    expect(prefixes((await legacy.client.listTools()).tools.map((t) => t.name))).toEqual([
      'console',
      'example',
      'inspector',
    ]);
    expect(prefixes((await modern.client.listTools()).tools.map((t) => t.name))).toEqual([
      'console',
      'example',
      'inspector',
    ]);
    expect(JSON.parse(readFileSync(join(first.dataDir, LISTED_PLUGINS_FILE), 'utf8'))).toEqual({
      offered: ['console', 'example'],
      enabled: [],
    });

    // The same plugins offered again change nothing; the app leaving does not unlist them.
    const seen = changed;
    agent.disconnect();
    await app(first.urls.debuggeeUrl, [example()]);
    expect(prefixes((await legacy.client.listTools()).tools.map((t) => t.name))).toEqual([
      'console',
      'example',
      'inspector',
    ]);
    expect(changed).toBe(seen);

    // The user enables network in the window (its bridge): listed, and said; disabled again: gone, and said.
    const window = await BridgeClient.open(first);
    defer(() => window.ws.close());
    const shown = await window.request('mcp.plugins', {});
    expect(shown.ok && shown.result).toMatchObject({
      all: false,
      plugins: expect.arrayContaining([
        { id: 'console', offered: true, enabled: false },
        { id: 'network', offered: false, enabled: false },
      ]),
    });
    const on = await window.request('mcp.enablePlugin', { id: 'network', enabled: true });
    expect(on.ok && on.result).toMatchObject({
      plugins: expect.arrayContaining([{ id: 'network', offered: false, enabled: true }]),
    });
    await waitFor(() => changed > seen, 'list_changed after enabling network');
    expect(prefixes((await legacy.client.listTools()).tools.map((t) => t.name))).toContain('network');
    const enabled = changed;
    await window.request('mcp.enablePlugin', { id: 'network', enabled: false });
    await waitFor(() => changed > enabled, 'list_changed after disabling network');
    expect(prefixes((await legacy.client.listTools()).tools.map((t) => t.name))).not.toContain('network');
    const unknown = await window.request('mcp.enablePlugin', { id: 'nope', enabled: true });
    expect(unknown.ok).toBe(false);
    expect(JSON.stringify(unknown)).toMatch(/no \\"nope\\" plugin/);
    expect(() => first.core.pluginListing.setEnabled('nope', true)).toThrow(/no "nope" plugin/);
    expect(JSON.parse(readFileSync(join(first.dataDir, LISTED_PLUGINS_FILE), 'utf8')).enabled).toEqual([]);

    // A restart on the same data dir remembers what apps offered, with no app connected.
    await legacy.close();
    await modern.close();
    await first.stop({ keepData: true });
    stopped = true;
    const second = await startTestCore({ dataDir: first.dataDir, listedPlugins: 'offered' });
    defer(() => second.stop());
    const again = await connectMcpClient('http', {
      mcpUrl: second.urls.mcpUrl,
      dataDir: second.dataDir,
      token: second.core.mcp.token(),
    });
    defer(() => again.close());
    expect(prefixes((await again.client.listTools()).tools.map((t) => t.name))).toEqual([
      'console',
      'example',
      'inspector',
    ]);
  });

  it('narrows to ?plugins= on the URL (both eras) and to porthole mcp --plugins (stdio)', async () => {
    const t = await startTestCore({ listedPlugins: 'offered' });
    defer(() => t.stop());
    await app(t.urls.debuggeeUrl, [example(), consolePlugin()]);
    const token = t.core.mcp.token();
    const narrowed = { mcpUrl: `${t.urls.mcpUrl}?plugins=console`, dataDir: t.dataDir, token };

    const legacy = await connectMcpClient('http', narrowed);
    defer(() => legacy.close());
    expect(prefixes((await legacy.client.listTools()).tools.map((t) => t.name))).toEqual(['console', 'inspector']);
    const modern = await connectModernClient('http', narrowed);
    defer(() => modern.close());
    expect(prefixes((await modern.client.listTools()).tools.map((t) => t.name))).toEqual(['console', 'inspector']);
    // Narrowing never lists a plugin no app offered.
    const wider = await connectMcpClient('http', { ...narrowed, mcpUrl: `${t.urls.mcpUrl}?plugins=network,example` });
    defer(() => wider.close());
    expect(prefixes((await wider.client.listTools()).tools.map((t) => t.name))).toEqual(['example', 'inspector']);

    const stdio = await connectMcpClient('stdio', {
      mcpUrl: t.urls.mcpUrl,
      dataDir: t.dataDir,
      token,
      plugins: 'example',
    });
    defer(() => stdio.close());
    expect(prefixes((await stdio.client.listTools()).tools.map((t) => t.name))).toEqual(['example', 'inspector']);
    const modernStdio = await connectModernClient('stdio', {
      mcpUrl: t.urls.mcpUrl,
      dataDir: t.dataDir,
      token,
      plugins: 'example',
    });
    defer(() => modernStdio.close());
    expect(prefixes((await modernStdio.client.listTools()).tools.map((t) => t.name))).toEqual(['example', 'inspector']);
  }, 30_000);
});
