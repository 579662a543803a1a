import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { connectMcpClient } from './mcp/mcp-testing.js';
import { waitFor } from './testing.js';

const BIN = resolve(import.meta.dirname, '../../bin/porthole.js');

/** A port free now, for an inspector that must come back on the same one after a restart. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/**
 * `porthole serve` as its own process (so a test can kill -9 it), with an MCP client connected.
 * `defer` registers the cleanups (the process is killed if the test did not stop it).
 */
export async function servedInspector(
  options: { dataDir: string; port: number; args?: string[] },
  defer: (cleanup: () => unknown) => void,
) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      BIN,
      'serve',
      '--data-dir',
      options.dataDir,
      '--debuggee-port',
      String(options.port),
      '--control-port',
      '0',
      '--mcp-auth',
      'none',
      '--no-open',
      ...(options.args ?? []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1' } },
  );
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  defer(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exit;
  });
  // A guard against a start that hangs, not a speed check: under the whole suite on two cores a
  // restart that replays a data dir has taken over 30 s with nothing printed yet.
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  await waitFor(() => out.includes('Press Ctrl+C') || ended(), 'the inspector to start', 90_000).catch((e) => {
    throw new Error(`${(e as Error).message}; pid ${child.pid}, its output so far: ${JSON.stringify(out)}`);
  });
  if (!out.includes('Press Ctrl+C'))
    throw new Error(`the inspector ended before it started (${child.exitCode ?? child.signalCode}): ${out}`);
  const mcpUrl = /MCP endpoint: +(\S+)/.exec(out)![1]!;
  const uiUrl = new URL(/UI: +(\S+)/.exec(out)![1]!);
  const mcp = await connectMcpClient('http', { mcpUrl, dataDir: options.dataDir });
  defer(() => mcp.close().catch(() => {}));
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await mcp.client.callTool({ name, arguments: args })).structuredContent as Record<string, unknown>;
  return {
    child,
    exit,
    call,
    output: () => out,
    /** Where a window connects: the control URL and the UI token it was printed with. */
    window: { controlUrl: uiUrl.origin, token: uiUrl.searchParams.get('token')! },
  };
}
