import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, test } from '@playwright/test';
import { startInspector } from './support/inspector.js';
import { packAgent, packPorthole, scratchApp } from './support/outside-app.js';

// The packed `porthole` tarball installed into a project outside the repo: `porthole serve` and
// `porthole mcp` run from the package alone (its build, its runtime dependencies), serve the
// window, and see an app that uses the packed @porthole/agent.

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

test('the porthole package runs `porthole serve` and `porthole mcp` from its tarball alone', async () => {
  const dir = scratchApp('cli', { 'app.mjs': APP }, [packPorthole(), packAgent()]);
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
  } finally {
    await mcp?.close();
    target.close();
    expect(await inspector.stop()).toBe(0);
  }
});
