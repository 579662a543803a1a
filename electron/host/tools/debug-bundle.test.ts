import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { connect } from '../../../agent/connection.js';
import type { AgentPlugin } from '../../../agent/plugin.js';
import { console as consolePlugin } from '../../../plugins/console/agent/index.js';
import { network } from '../../../plugins/network/agent/index.js';
import { httpServer } from '../../../plugins/network/host/testing.js';
import { type DebugBundle, SLOW_MS } from '../../../shared/debug-bundle.js';
import { connectMcpClient } from '../mcp/mcp-testing.js';
import { cleanupAfterEach } from '../test-cleanup.js';
import { startTestCore, waitFor } from '../testing.js';

// Issue 37 §4: one call when something is wrong, on a broken app (a real agent with the console
// and network plugins in this process, real HTTP requests, a real MCP client).
describe('inspector_debug_bundle', () => {
  const defer = cleanupAfterEach();

  it('groups the errors with the failed and slow requests and console lines around them, the loads and the mocks, in 25 KB', async () => {
    const printed: string[] = [];
    const previous = globalThis.console;
    globalThis.console = new Console({
      stdout: new Writable({ write: (c, _e, done) => done(void printed.push(String(c))) }),
      stderr: new Writable({ write: (c, _e, done) => done(void printed.push(String(c))) }),
    });
    defer(() => {
      globalThis.console = previous;
    });
    const server = await httpServer((req, res) => {
      if (req.url === '/slow') setTimeout(() => res.end('late'), SLOW_MS + 100);
      else if (req.url === '/boom') res.writeHead(500).end('{"error":"db down"}');
      else res.end('ok');
    });
    defer(() => server.close());
    const t = await startTestCore();
    defer(() => t.stop());
    const net = network();
    await net.ready;
    const agent = connect({
      url: t.urls.debuggeeUrl,
      app: { id: 'com.test.broken', name: 'Broken' },
      plugins: [consolePlugin({ flushMs: 10 }) as unknown as AgentPlugin, net as unknown as AgentPlugin],
    });
    defer(() => agent.disconnect());
    await waitFor(() => agent.status.sessionId, 'the app to connect');
    const mcp = await connectMcpClient('http', {
      mcpUrl: t.urls.mcpUrl,
      dataDir: t.dataDir,
      token: t.core.mcp.token(),
    });
    defer(() => mcp.close());
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      (await mcp.client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        structuredContent: Record<string, unknown>;
        content: { text: string }[];
      };

    const empty = await call('inspector_debug_bundle');
    expect(empty.isError).toBeFalsy();
    expect(empty.structuredContent.summary).toMatch(/no errors.*Next: nothing wrong was captured/);

    const rule = await call('network_set_mock_rules', {
      op: 'add',
      rule: {
        match: { url: { kind: 'glob', value: '*/mocked' } },
        action: { type: 'respond', status: 503 },
      },
    });
    expect(rule.isError, rule.content[0]?.text).toBeFalsy();
    await fetch(`${server.url}/ok`);
    console.log('loading the cart');
    await fetch(`${server.url}/slow`);
    await fetch(`${server.url}/boom`);
    for (let i = 0; i < 2; i++) console.error('cart failed: HTTP 500 from /boom');
    let last: DebugBundle | undefined;
    await waitFor(async () => {
      const b = (await call('inspector_debug_bundle')).structuredContent as DebugBundle;
      last = b;
      return b.errors[0]?.count === 2 && b.failedRequests.length === 2 && b.errors[0].console.length >= 2;
    }, 'the errors and requests to arrive').catch((e) => {
      throw new Error(`${e.message}: ${JSON.stringify(last)}`);
    });

    const answer = await call('inspector_debug_bundle');
    const bundle = answer.structuredContent as DebugBundle & { summary: string };
    expect(Buffer.byteLength(answer.content[0]!.text)).toBeLessThan(25 * 1024);
    expect(bundle.app).toBe('Broken');
    const [group] = bundle.errors;
    expect(group).toMatchObject({ plugin: 'console', text: 'cart failed: HTTP 500 from /boom', count: 2 });
    // The failed and the slow request around it; the plain one is not there.
    const urls = group!.requests.map((r) => r.summary);
    expect(urls.some((s) => s.includes('/boom') && s.includes('500'))).toBe(true);
    expect(urls.some((s) => s.includes('/slow'))).toBe(true);
    expect(urls.some((s) => s.includes('/ok'))).toBe(false);
    expect(group!.console.map((c) => c.summary)).toEqual(
      expect.arrayContaining(['loading the cart', expect.stringContaining('cart failed')]),
    );
    expect(bundle.sections['network.mocks']).toMatchObject({
      enabled: true,
      rules: [expect.objectContaining({ match: expect.stringContaining('*/mocked'), action: 'respond 503' })],
    });
    expect(bundle.summary).toMatch(/^Broken: 1 error group \(latest: cart failed.*×2\), 2 failed or slow requests/);
    expect(bundle.summary).toContain(`console_get_message {seq: ${group!.ref}}`);
    // The ref leads to the detail.
    const detail = await call('console_get_message', { seq: Number(group!.ref) });
    expect(detail.isError).toBeFalsy();

    // since leaves out what came before.
    const later = await call('inspector_debug_bundle', { since: Date.now() + 60_000 });
    expect((later.structuredContent as DebugBundle).errors).toEqual([]);
    // A session that does not exist: the next step named.
    const wrong = await call('inspector_debug_bundle', { sessionId: 'nope' });
    expect(wrong.isError).toBe(true);
    expect(wrong.content[0]!.text).toMatch(/inspector_list_sessions/);
  }, 30_000);
});
