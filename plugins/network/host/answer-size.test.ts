import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
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
    // A whole session is too big to answer inline: it goes to a file in the data dir, linked.
    const whole = await mcp.client.callTool({
      name: 'network_export_har',
      arguments: { maxEntries: 5000, maxBodyChars: 0 },
    });
    expect(bytes(whole)).toBeLessThanOrEqual(4096);
    type Saved = { path: string; uri: string; bytes: number; entries: number; next: string };
    const file = (whole.structuredContent as { file: Saved }).file;
    expect(file).toMatchObject({ entries: REQUESTS, uri: pathToFileURL(file.path).href });
    expect(file.next).toMatch(/over 25 KB; toFile: false answers inline/);
    expect(dirname(file.path)).toBe(join(t.dataDir, 'exports'));
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    expect(statSync(file.path).size).toBe(file.bytes);
    expect(JSON.parse(readFileSync(file.path, 'utf8')).log.entries).toHaveLength(REQUESTS);
    expect(whole.content).toContainEqual({
      type: 'resource_link',
      uri: file.uri,
      name: basename(file.path),
      mimeType: 'application/json',
      description: `HAR 1.2, ${REQUESTS} entries`,
      size: file.bytes,
    });
    const asked = await mcp.client.callTool({ name: 'network_export_har', arguments: { toFile: true } });
    const askedFile = (asked.structuredContent as { file: Saved }).file;
    expect(askedFile.entries).toBe(REQUESTS);
    expect(askedFile.next).not.toMatch(/over 25 KB/);
    const inline = await mcp.client.callTool({
      name: 'network_export_har',
      arguments: { maxEntries: 5000, toFile: false },
    });
    expect((inline.structuredContent as { log: { entries: unknown[] } }).log.entries).toHaveLength(REQUESTS);
    // Clearing goes last: it empties the session the others answer about.
    const last = (name: string) => Number(name === 'network_clear_transactions');
    for (const tool of [...tools].sort((a, b) => last(a.name) - last(b.name))) {
      const result = await mcp.client.callTool({ name: tool.name, arguments: {} });
      expect(bytes(result), tool.name).toBeLessThanOrEqual(CAP);
    }

    // The file it wrote imports back by path (5-10 MB HARs need no JSON in the arguments).
    const imported = await mcp.client.callTool({ name: 'network_import_har', arguments: { path: file.path } });
    expect(imported.structuredContent).toEqual({ imported: REQUESTS });
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ path: 'exports/x.har' }, /path must be absolute \(got "exports\/x\.har"\)/],
      [
        { path: join(t.dataDir, 'nope.har') },
        /cannot read the HAR file .*nope\.har: there is no such file; check the path/,
      ],
      [{ path: t.dataDir }, /is a folder; pass the path of the HAR file/],
      [{ path: join(t.dataDir, 'mcp-token') }, /is in the inspector's data dir/],
      [{}, /^pass har \(the HAR itself\) or path \(a HAR file on this machine\)$/],
      [{ path: file.path, har: '{}' }, /pass either har .* not both/],
    ];
    for (const [args, message] of refusals) {
      const refused = await mcp.client.callTool({ name: 'network_import_har', arguments: args });
      expect(refused.isError, JSON.stringify(args)).toBe(true);
      expect((refused.content as { text: string }[])[0]!.text, JSON.stringify(args)).toMatch(message);
    }
  });
});
