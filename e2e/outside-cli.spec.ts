import { execFile, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, test } from '@playwright/test';
import { ROOT, startInspector } from './support/inspector.js';
import { packAgent, packPorthole, scratchApp } from './support/outside-app.js';

// The packed `porthole` tarball installed into a project outside the repo: `porthole serve`,
// `porthole mcp` and `porthole call` run from the package alone (its build, its runtime
// dependencies), serve the window, and see an app that uses the packed @porthole/agent; a test of
// the project's own uses `porthole/client`, and a TypeScript file type-checks against its types.

test.describe.configure({ timeout: 300_000 });

const APP = `import { connect } from '@porthole/agent';
import { network } from '@porthole/agent/network';
const net = network();
const agent = connect({ url: process.env.PORTHOLE_URL, app: { id: 'com.scratch.cli', name: 'Scratch CLI' }, plugins: [net] });
await net.ready;
if (agent.status.state !== 'connected') await new Promise((r) => agent.onStatus((s) => s.state === 'connected' && r()));
const res = await fetch(process.env.TARGET + '/from-the-package');
console.log(String(res.status));
await new Promise((r) => setTimeout(r, 300));
agent.disconnect();
`;

// A check of the user's own, run by node:test, with the client's helpers.
const CLIENT_TEST = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectInspector } from 'porthole/client';
test('the app made its request, none failed, the HAR is saved', async () => {
  const inspector = await connectInspector({ dataDir: process.env.PORTHOLE_DATA_DIR });
  try {
    // The app has exited: its session is named (a connected app's is found by itself).
    const sessionId = process.env.PORTHOLE_SESSION;
    const page = await inspector.network.listTransactions({ sessionId, urlContains: '/from-the-package' });
    assert.equal(page.transactions.length, 1);
    await inspector.expectNoFailedRequests({ sessionId });
    const har = await inspector.network.saveHar('session.har', { sessionId });
    assert.ok(har.log.entries.some((e) => e.request.url.endsWith('/from-the-package')));
  } finally {
    await inspector.close();
  }
});
`;

// The same from a Playwright test of the project's own (the runner only: no browser is launched).
const PLAYWRIGHT_TEST = `import { expect, test } from '@playwright/test';
import { connectInspector } from 'porthole/client';
test('the app request is there and did not fail', async () => {
  const inspector = await connectInspector({ dataDir: process.env.PORTHOLE_DATA_DIR });
  const sessionId = process.env.PORTHOLE_SESSION;
  const page = await inspector.network.listTransactions({ sessionId, status: 200 });
  expect(page.transactions.map((t) => new URL(t.url).pathname)).toContain('/from-the-package');
  await inspector.expectNoFailedRequests({ sessionId });
  await inspector.close();
});
`;

const TYPED = `import { connectInspector, type ToolValue } from 'porthole/client';
const inspector = await connectInspector();
const page: ToolValue<'network_list_transactions'> = await inspector.network.listTransactions({ limit: 5 });
export const urls: string[] = page.transactions.map((t) => t.url);
// @ts-expect-error: limit is a number
await inspector.network.listTransactions({ limit: 'five' });
`;

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    strict: true,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  },
  files: ['typed.ts'],
});

test('the porthole package runs `porthole serve` and `porthole mcp` from its tarball alone', async () => {
  const nodeTypes = `@types/node@${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies['@types/node']}`;
  const files = {
    'app.mjs': APP,
    'client-check.mjs': CLIENT_TEST,
    'tests/inspector.spec.mjs': PLAYWRIGHT_TEST,
    'typed.ts': TYPED,
    'tsconfig.json': TSCONFIG,
  };
  const playwright = `@playwright/test@${JSON.parse(readFileSync(join(ROOT, 'node_modules/@playwright/test/package.json'), 'utf8')).version}`;
  const dir = scratchApp('cli', files, [await packPorthole(), await packAgent(), nodeTypes, playwright]);
  const bin = join(dir, 'node_modules/porthole/bin/porthole.js');
  // Only what the CLI needs at run time comes along: no window framework, no Electron, no build tools.
  for (const devOnly of ['react', 'electron', 'vite', 'tsx', 'zustand'])
    expect(existsSync(join(dir, 'node_modules', devOnly)), devOnly).toBe(false);

  const target: Server = createServer((req, res) => res.writeHead(200).end(`hello ${req.url}`));
  target.listen(0, '127.0.0.1');
  await once(target, 'listening');
  const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'porthole-cli-data-'));
  const inspector = await startInspector({ bin, cwd: dir, dataDir });
  let mcp: Client | undefined;
  try {
    const ui = await fetch(inspector.info.uiUrl);
    expect(ui.status).toBe(200);
    const html = await ui.text();
    expect(html).toContain('<script type="module"');
    expect(html).not.toContain('npm run build:renderer');

    const { stdout } = await promisify(execFile)(process.execPath, ['app.mjs'], {
      cwd: dir,
      timeout: 30_000,
      env: { ...process.env, PORTHOLE_URL: inspector.info.debuggeeUrl, TARGET: targetUrl },
    });
    expect(stdout.trim()).toBe('200');

    mcp = new Client({ name: 'outside-cli-test', version: '1.0.0' });
    await mcp.connect(
      new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--data-dir', dataDir], cwd: dir }),
    );
    const sessions = await mcp.callTool({ name: 'inspector_list_sessions', arguments: {} });
    const listed = (sessions.structuredContent as { sessions: { id: string; app: { id: string } }[] }).sessions;
    const session = listed.find((s) => s.app.id === 'com.scratch.cli');
    expect(session, JSON.stringify(listed)).toBeTruthy();
    await expect
      .poll(async () => {
        const page = await mcp!.callTool({ name: 'network_list_transactions', arguments: { sessionId: session!.id } });
        return JSON.stringify(page.structuredContent);
      })
      .toContain(`${targetUrl}/from-the-package`);

    // The CLI and the typed client from the package, as a user's scripts and tests run them.
    const run = promisify(execFile);
    const called = await run(
      process.execPath,
      [bin, 'call', 'network_list_transactions', '--session', session!.id, '--data-dir', dataDir],
      { cwd: dir },
    );
    expect(JSON.parse(called.stdout).transactions[0]).toMatchObject({
      url: `${targetUrl}/from-the-package`,
      status: 200,
    });
    const tested = await run(process.execPath, ['--test', 'client-check.mjs'], {
      cwd: dir,
      env: { ...process.env, PORTHOLE_DATA_DIR: dataDir, PORTHOLE_SESSION: session!.id },
    }).catch((e: { stdout: string; stderr: string }) => ({ stdout: `${e.stdout}${e.stderr}` }));
    expect(tested.stdout).toContain('# pass 1');
    expect(JSON.parse(readFileSync(join(dir, 'session.har'), 'utf8')).log.entries.length).toBeGreaterThan(0);
    const cli = join(dir, 'node_modules/@playwright/test/cli.js');
    const ran = spawnSync(process.execPath, [cli, 'test', 'tests', '--reporter=line'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, PORTHOLE_DATA_DIR: dataDir, PORTHOLE_SESSION: session!.id },
    });
    expect(ran.status, `${ran.stdout}${ran.stderr}`).toBe(0);
    expect(ran.stdout).toContain('1 passed');
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const typed = spawnSync(process.execPath, [tsc, '-p', dir], { cwd: dir, encoding: 'utf8' });
    expect(typed.status, typed.stdout).toBe(0);
  } finally {
    await mcp?.close();
    target.close();
    expect(await inspector.stop()).toBe(0);
  }
});
