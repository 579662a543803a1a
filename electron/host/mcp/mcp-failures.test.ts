import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../test-cleanup.js';
import { startTestCore, waitFor } from '../testing.js';
import { connectMcpClient, type McpTransportKind, ROOT } from './mcp-testing.js';

const MUTE_APP = join(import.meta.dirname, 'mute-app-testing.ts');
const textOf = (r: CallToolResult) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');

describe.each<McpTransportKind>(['http', 'stdio'])('failures an agent can act on, over %s', (kind) => {
  const defer = cleanupAfterEach();

  it('an app killed mid-call: the call ends at once, says the debuggee disconnected, and names the session still readable', async () => {
    const t = await startTestCore({ link: { requestTimeoutMs: 30_000 } });
    defer(() => t.stop());
    const { client, close } = await connectMcpClient(kind, {
      mcpUrl: t.urls.mcpUrl,
      dataDir: t.dataDir,
      token: t.core.mcp.token(),
    });
    defer(close);
    const app: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MUTE_APP], {
      cwd: ROOT,
      env: { ...process.env, PORTHOLE_URL: t.urls.debuggeeUrl },
      stdio: 'pipe',
    });
    defer(() => {
      if (app.exitCode === null && app.signalCode === null) app.kill('SIGKILL');
    });
    const session = await waitFor(
      () => t.core.sessions.list().find((s) => s.active && s.app.id === 'com.test.mute'),
      'the app to connect',
      15_000,
    );

    const started = Date.now();
    const pending = client.callTool({ name: 'example_send_ping', arguments: {} }) as Promise<CallToolResult>;
    await waitFor(
      () => t.core.history.list(1, { tool: 'example_send_ping', status: 'running' })[0],
      'the call to start',
    );
    app.kill('SIGKILL');
    const result = await pending;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/the debuggee disconnected \(1006: the connection dropped without a close\)/);
    expect(textOf(result)).toMatch(/Start it again \(or wait for it to reconnect\) and retry/);
    expect(textOf(result)).toContain(`readable with sessionId "${session.id}"`);
    expect(t.core.history.list(1, { tool: 'example_send_ping' })[0]).toMatchObject({ status: 'failed' });

    // Only that disconnected session left: the next call names it.
    await waitFor(() => !t.core.sessions.get(session.id)!.info.active, 'the session to go inactive');
    const after = (await client.callTool({ name: 'example_send_ping', arguments: {} })) as CallToolResult;
    expect(after.isError).toBe(true);
    expect(textOf(after)).toMatch(/no connected app has the example plugin/);
    expect(textOf(after)).toContain(session.id);
  });
});
