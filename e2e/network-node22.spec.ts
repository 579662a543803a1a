import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { ROOT } from './support/inspector.js';
import { mcpTools } from './support/mcp-tools.js';

// CI runs on Node 20; apps run on 22 and 24, where fetch is a newer undici and the agent links to the
// inspector with Node's own WebSocket (undici inside). The network agent's Node suites (the fidelity
// matrix, mock rules for every client, observe-not-intercept) run again under Node 22 here.

const run = promisify(execFile);
const SUITES = [
  'plugins/network/agent/fidelity.test.ts',
  'plugins/network/agent/mock-clients.test.ts',
  'plugins/network/agent/mock-path.test.ts',
  'plugins/network/agent/observe.test.ts',
  'plugins/network/agent/index.test.ts',
  'plugins/network/agent/websocket.test.ts',
  'plugins/network/agent/streams.test.ts',
  'plugins/network/agent/mock-socket.test.ts',
  'plugins/network/host/mock.test.ts',
];

test('the network agent suites pass under Node 22', async () => {
  test.setTimeout(300_000);
  const { node } = await mcpTools();
  const vitest = join(ROOT, 'node_modules/vitest/vitest.mjs');
  const result = await run(node, [vitest, 'run', '--reporter=dot', ...SUITES], {
    cwd: ROOT,
    timeout: 240_000,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  }).catch((e: { stdout?: string; stderr?: string; code?: number }) => ({
    stdout: `${e.stdout ?? ''}\n${e.stderr ?? ''}`,
    stderr: `exit ${e.code}`,
  }));
  const version = (await run(node, ['--version'])).stdout.trim();
  expect(version).toMatch(/^v22\./);
  expect(result.stdout, result.stderr).toMatch(/Test Files\s+\d+ passed \(\d+\)/);
  expect(result.stdout).not.toMatch(/failed/);
});
