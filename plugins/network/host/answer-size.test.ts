import { describe, expect, it } from 'vitest';
import { connect } from '../../../agent/connection.js';
import { connectMcpClient } from '../../../electron/host/mcp/mcp-testing.js';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { startTestCore, waitFor } from '../../../electron/host/testing.js';
import { example } from '../../example/agent/index.js';
import { network } from '../agent/index.js';
import { httpServer } from './testing.js';

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const REQUESTS = 500;
const CAP = 25 * 1024;

describe('answers fit a context window (a real SDK client, a session of 500 captured requests)', () => {
  const defer = cleanupAfterEach();

  it('answers no argument-less call with more than 25 KB', { timeout: 120_000 }, async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    // Connected before the app's network plugin wraps fetch in this process.
    const mcp = await connectMcpClient('http', {
      mcpUrl: t.urls.mcpUrl,
      dataDir: t.dataDir,
      token: t.core.mcp.token(),
    });
    defer(() => mcp.close());
    const plugin = network({ ignoreUrls: [t.urls.mcpUrl] });
    await plugin.ready;
    defer(() => plugin.dispose());
    const agent = connect({
      url: t.urls.debuggeeUrl,
      app: { id: 'com.test.size', name: 'Size' },
      plugins: [plugin, example()],
    });
    defer(() => agent.disconnect());
    await waitFor(() => agent.status.state === 'connected', 'the agent');
    const body = JSON.stringify({ items: Array.from({ length: 40 }, (_, i) => ({ id: i, name: `item ${i}` })) });
    const s = await httpServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    defer(() => s.close());
    for (let i = 0; i < REQUESTS; i++) {
      const post = i % 5 === 0;
      await (
        await fetch(`${s.url}/api/items/${i}`, { method: post ? 'POST' : 'GET', body: post ? body : undefined })
      ).text();
    }
    const { tools } = await mcp.client.listTools();
    let listed = await mcp.client.callTool({ name: 'network_list_transactions', arguments: { limit: 1 } });
    for (let i = 0; i < 200 && (listed.structuredContent as { total: number }).total < REQUESTS; i++) {
      await new Promise((r) => setTimeout(r, 20));
      listed = await mcp.client.callTool({ name: 'network_list_transactions', arguments: { limit: 1 } });
    }
    expect((listed.structuredContent as { total: number }).total).toBe(REQUESTS);

    const har = await mcp.client.callTool({ name: 'network_export_har', arguments: {} });
    expect((har.structuredContent as { log: { entries: unknown[] } }).log.entries).toHaveLength(5);
    const whole = await mcp.client.callTool({
      name: 'network_export_har',
      arguments: { maxEntries: 5000, maxBodyChars: 0 },
    });
    expect((whole.structuredContent as { log: { entries: unknown[] } }).log.entries).toHaveLength(REQUESTS);
    // Clearing goes last: it empties the session the others answer about.
    const last = (name: string) => Number(name === 'network_clear_transactions');
    for (const tool of [...tools].sort((a, b) => last(a.name) - last(b.name))) {
      const result = await mcp.client.callTool({ name: tool.name, arguments: {} });
      expect(bytes(result), tool.name).toBeLessThanOrEqual(CAP);
    }
  });
});
