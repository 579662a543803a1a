import { describe, expect, it } from 'vitest';
import { type Agent, connect } from '../../agent/connection.js';
import { console as consolePlugin } from '../../plugins/console/agent/index.js';
import { example } from '../../plugins/example/agent/index.js';
import { connectMcpClient } from './mcp/mcp-testing.js';
import { cleanupAfterEach } from './test-cleanup.js';
import { startTestCore, waitFor } from './testing.js';

const CAP = 25 * 1024;
const APPS = 100;
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('answers fit a context window (a real SDK client, 100 apps, a noisy console)', () => {
  const defer = cleanupAfterEach();

  it('answers no argument-less call with more than 25 KB; the session list pages', { timeout: 60_000 }, async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    const mcp = await connectMcpClient('http', {
      mcpUrl: t.urls.mcpUrl,
      dataDir: t.dataDir,
      token: t.core.mcp.token(),
    });
    defer(() => mcp.close());
    // The app's console plugin wraps this process's console: keep the test's output quiet.
    const real = { log: console.log, error: console.error };
    console.log = console.error = () => {};
    defer(() => Object.assign(console, real));
    const agents: Agent[] = [];
    defer(() => {
      for (const agent of agents) agent.disconnect();
    });
    for (let i = 0; i < APPS; i++) {
      agents.push(
        connect({
          url: t.urls.debuggeeUrl,
          app: { id: `com.test.app${i}`, name: `App number ${i}`, version: '1.2.3' },
          device: {
            id: `device-${i}`,
            name: `Device ${i}`,
            platform: 'browser',
            runtime: 'x'.repeat(300),
            page: { title: 't'.repeat(200), url: `https://example.test/${'p'.repeat(500)}` },
          },
          plugins: i === 0 ? [example(), consolePlugin()] : [example()],
        }),
      );
    }
    await waitFor(() => agents.every((a) => a.status.state === 'connected'), 'the apps to connect', 20_000);
    for (let i = 0; i < 500; i++) {
      if (i % 10 === 0) console.error(new Error(`failure ${i} ${'y'.repeat(400)}`));
      else console.log(`message ${i} ${'x'.repeat(800)}`, { i, nested: { deep: 'z'.repeat(300) } });
    }
    const consoleSession = t.core.sessions.list().find((s) => s.app.id === 'com.test.app0')!.id;
    for (let i = 0; i < 200; i++) {
      const page = await mcp.client.callTool({
        name: 'console_list_messages',
        arguments: { sessionId: consoleSession },
      });
      if ((page.structuredContent as { latest: number }).latest >= 500) break;
      await new Promise((r) => setTimeout(r, 20));
    }

    const errors = await mcp.client.callTool({ name: 'console_list_errors', arguments: {} });
    expect((errors.structuredContent as { groups: unknown[] }).groups).toHaveLength(20);
    const { tools } = await mcp.client.listTools();
    // Clearing goes last: it empties what the others answer about.
    const last = (name: string) => Number(name.includes('clear'));
    for (const tool of [...tools].sort((a, b) => last(a.name) - last(b.name))) {
      const result = await mcp.client.callTool({ name: tool.name, arguments: {} });
      expect(bytes(result), tool.name).toBeLessThanOrEqual(CAP);
    }

    // A failure that names the choices names ten of them and says where the rest are.
    const ping = await mcp.client.callTool({ name: 'example_send_ping', arguments: {} });
    expect(ping.isError).toBe(true);
    expect(JSON.stringify(ping.content)).toContain(
      `${APPS} connected apps have the example plugin; pass sessionId to choose one of: `,
    );
    expect(JSON.stringify(ping.content)).toContain('and 90 more (inspector_list_sessions lists them)');

    // Every session, once, by following nextCursor.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await mcp.client.callTool({
        name: 'inspector_list_sessions',
        arguments: cursor ? { cursor } : {},
      });
      const body = page.structuredContent as { sessions: { id: string }[]; total: number; nextCursor?: string };
      expect(body.total).toBe(APPS);
      expect(body.sessions.length).toBeGreaterThan(0);
      seen.push(...body.sessions.map((s) => s.id));
      cursor = body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(APPS);
    expect(seen).toHaveLength(APPS);
    const bad = await mcp.client.callTool({ name: 'inspector_list_sessions', arguments: { cursor: 'nope' } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('call again without cursor');
  });
});
