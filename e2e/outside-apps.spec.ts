import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { build } from 'esbuild';
import { ROOT, type RunningInspector, startInspector } from './support/inspector.js';
import { packAgent, scratchApp } from './support/outside-app.js';
import { mcpClient } from './window.helpers.js';

// The packed @porthole/agent tarball installed with npm into projects outside the repo, used there
// as apps use it: nothing below reaches into the repo's sources.

test.describe.configure({ mode: 'serial', timeout: 240_000 });

let tarball: string;
let inspector: RunningInspector;
let target: Server;
let targetUrl: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  tarball = packAgent();
  inspector = await startInspector();
  target = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${req.url}`));
  target.listen(0, '127.0.0.1');
  await once(target, 'listening');
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  target?.close();
  await inspector?.stop();
});

/** The URLs the inspector captured for the app with this id, read over MCP. */
async function capturedUrls(appId: string): Promise<string> {
  const mcp = await mcpClient(inspector);
  try {
    const sessions = await mcp.client.callTool({ name: 'inspector_list_sessions', arguments: {} });
    const listed = (sessions.structuredContent as { sessions: { id: string; app: { id: string } }[] }).sessions;
    const session = listed.find((s) => s.app.id === appId);
    if (!session) return `(no session for ${appId})`;
    const page = await mcp.client.callTool({ name: 'network_list_transactions', arguments: { sessionId: session.id } });
    return JSON.stringify(page.structuredContent);
  } finally {
    await mcp.close();
  }
}

const nodeApp = (syntax: 'esm' | 'cjs', appId = `com.scratch.${syntax}`) => {
  const imports =
    syntax === 'esm'
      ? "import { connect } from '@porthole/agent';\nimport { network } from '@porthole/agent/network';"
      : "const { connect } = require('@porthole/agent');\nconst { network } = require('@porthole/agent/network');";
  return `${imports}
const net = network();
const agent = connect({
  url: process.env.PORTHOLE_URL,
  app: { id: '${appId}', name: 'Scratch ${syntax}' },
  plugins: [net],
});
(async () => {
  await net.ready;
  if (agent.status.state !== 'connected') await new Promise((r) => agent.onStatus((s) => s.state === 'connected' && r()));
  const res = await fetch(process.env.TARGET + '/${syntax}-hello');
  console.log(JSON.stringify({ status: res.status, body: await res.text() }));
  await new Promise((r) => setTimeout(r, 300));
  agent.disconnect();
})();
`;
};

for (const syntax of ['esm', 'cjs'] as const) {
  test(`a Node ${syntax === 'esm' ? 'ES module' : 'CommonJS'} service`, async () => {
    const file = syntax === 'esm' ? 'app.mjs' : 'app.cjs';
    const dir = scratchApp(`node-${syntax}`, { [file]: nodeApp(syntax) }, [tarball]);
    // Not execFileSync: the target server runs in this process and must answer meanwhile.
    const { stdout } = await promisify(execFile)(process.execPath, [file], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, PORTHOLE_URL: inspector.info.debuggeeUrl, TARGET: targetUrl },
    });
    expect(JSON.parse(stdout.trim())).toEqual({ status: 200, body: `hello /${syntax}-hello` });
    await expect.poll(() => capturedUrls(`com.scratch.${syntax}`)).toContain(`${targetUrl}/${syntax}-hello`);
  });
}

test('a Node service with the preload (`node --import @porthole/agent/register`) hands early requests to its agent', async () => {
  const early = "await fetch(process.env.TARGET + '/before-network');\n";
  const dir = scratchApp('node-register', { 'app.mjs': early + nodeApp('esm', 'com.scratch.register') }, [tarball]);
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', '@porthole/agent/register', 'app.mjs'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, PORTHOLE_URL: inspector.info.debuggeeUrl, TARGET: targetUrl },
  });
  expect(JSON.parse(stdout.trim())).toEqual({ status: 200, body: 'hello /esm-hello' });
  await expect.poll(() => capturedUrls('com.scratch.register')).toContain(`${targetUrl}/before-network`);
});

test('a TypeScript project type-checks against the published types', async () => {
  const app = `import { connect, type AgentStatus } from '@porthole/agent';
import { example } from '@porthole/agent/example';
import { network } from '@porthole/agent/network';
const events = example();
const agent = connect({ app: { id: 'com.scratch.ts', name: 'TS' }, plugins: [events, network({ maxBodyBytes: 1024 })] });
const state: AgentStatus['state'] = agent.status.state;
events.log('info', 'typed', { state });
// @ts-expect-error: the log levels are the protocol's
events.log('loud', 'no such level');
`;
  const tsconfig = {
    compilerOptions: {
      strict: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      noEmit: true,
      skipLibCheck: false,
      lib: ['es2022', 'dom'],
      types: [],
    },
    files: ['app.ts'],
  };
  const dir = scratchApp('typescript', { 'app.ts': app, 'tsconfig.json': JSON.stringify(tsconfig) }, [tarball]);
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const run = () => execFileSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8', cwd: dir });
  expect(run).not.toThrow();
});

test('a Vite + React page in Chromium', async ({ page }) => {
  const main = `import { createElement as h, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { connect } from '@porthole/agent';
import { network } from '@porthole/agent/network';

const agent = connect({
  url: new URLSearchParams(location.search).get('inspector'),
  app: { id: 'com.scratch.vite', name: 'Scratch Vite' },
  plugins: [network()],
});

function App() {
  const [state, setState] = useState(agent.status.state);
  const [answer, setAnswer] = useState('');
  useEffect(() => agent.onStatus((s) => setState(s.state)), []);
  const load = async () => setAnswer(await (await fetch('/api/hello')).text());
  return h('main', null, h('p', { id: 'status' }, state), h('button', { onClick: load }, 'load'), h('p', { id: 'answer' }, answer));
}
createRoot(document.getElementById('root')).render(h(App));
`;
  const html =
    '<!doctype html><html><body><div id="root"></div><script type="module" src="/main.js"></script></body></html>';
  const dir = scratchApp('vite-react', { 'index.html': html, 'main.js': main }, [tarball, 'react@19', 'react-dom@19']);
  execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], {
    cwd: dir,
    timeout: 120_000,
  });
  const site = createServer((req, res) => {
    if (req.url === '/api/hello') return res.writeHead(200, { 'content-type': 'text/plain' }).end('hello from the api');
    const path = req.url?.split('?')[0] === '/' ? '/index.html' : (req.url?.split('?')[0] ?? '/');
    const file = join(dir, 'dist', path);
    if (!file.startsWith(join(dir, 'dist')) || !existsSync(file)) return res.writeHead(404).end();
    const type = file.endsWith('.js') ? 'text/javascript' : 'text/html';
    res.writeHead(200, { 'content-type': type }).end(readFileSync(file));
  });
  site.listen(0, '127.0.0.1');
  await once(site, 'listening');
  try {
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    await page.goto(`${origin}/?inspector=${encodeURIComponent(inspector.info.debuggeeUrl)}`);
    await expect(page.locator('#status')).toHaveText('connected');
    await page.getByRole('button', { name: 'load' }).click();
    await expect(page.locator('#answer')).toHaveText('hello from the api');
    await expect.poll(() => capturedUrls('com.scratch.vite')).toContain(`${origin}/api/hello`);
  } finally {
    site.close();
  }
});

for (const plugins of [['example'], ['console', 'example', 'network', 'storage']]) {
  const name = `a React Native bundle with ${plugins.join(' + ')} compiles with Hermes`;
  test(name, async () => {
    const app = `import { connect } from '@porthole/agent';
${plugins.map((p) => `import { ${p} } from '@porthole/agent/${p}';`).join('\n')}
connect({ url: 'ws://10.0.2.2:7360', app: { id: 'com.scratch.rn', name: 'RN' }, plugins: [${plugins.map((p) => `${p}()`).join(', ')}] });
`;
    const dir = scratchApp('react-native', { 'index.js': app }, [tarball, 'hermes-compiler@260318099.0.6']);
    // As Metro resolves for React Native: its condition first, then the browser's, no Node built-ins.
    await build({
      entryPoints: [join(dir, 'index.js')],
      absWorkingDir: dir,
      bundle: true,
      format: 'iife',
      platform: 'neutral',
      mainFields: ['react-native', 'browser', 'module', 'main'],
      conditions: ['react-native', 'browser', 'import'],
      outfile: join(dir, 'index.bundle.js'),
      logLevel: 'error',
    });
    const hermesc = join(dir, 'node_modules/hermes-compiler/hermesc/linux64-bin/hermesc');
    const out = join(dir, 'index.hbc');
    const compiled = spawnSync(hermesc, ['-emit-binary', '-out', out, join(dir, 'index.bundle.js')], {
      encoding: 'utf8',
    });
    const errors = `${compiled.stderr}`.split('\n').filter((l) => /error:/.test(l));
    expect(errors, `${compiled.stderr}`.slice(0, 2000)).toEqual([]);
    expect(compiled.status).toBe(0);
    expect(statSync(out).size).toBeGreaterThan(1000);
  });
}
