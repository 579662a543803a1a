import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { ROOT } from './inspector.js';

export interface AgentApp {
  /** The app's own API server, where its requests went. */
  api: string;
  /** Closes its stdin: the app disconnects and exits. */
  stop(): Promise<void>;
}

/**
 * Starts e2e/support/agent-app.ts as a process of its own (Node and tsx, the agent from source),
 * connected to `debuggeeUrl`; resolves once it has made its `requests` requests.
 */
export async function startAgentApp(
  debuggeeUrl: string,
  options: { requests: number; appId: string },
): Promise<AgentApp> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'e2e/support/agent-app.ts')], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, PORTHOLE_URL: debuggeeUrl, REQUESTS: String(options.requests), APP_ID: options.appId },
  });
  let output = '';
  child.stderr.on('data', (d) => (output += d));
  const exited = once(child, 'exit');
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the agent app did not make its ${options.requests} requests within 90 s:\n${output}`));
    }, 90_000);
    child.stdout.on('data', (d) => {
      output += d;
      const first = output.split('\n').find((l) => l.startsWith('{"requests"'));
      if (first) {
        clearTimeout(timer);
        resolve(first);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the agent app exited (${code}):\n${output}`));
    });
  });
  return {
    api: (JSON.parse(line) as { api: string }).api,
    async stop() {
      if (child.exitCode !== null) return;
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
