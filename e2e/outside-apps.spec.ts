import { execFile, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { ROOT, type RunningInspector, startInspector } from './support/inspector.js';
import { packAgent, scratchApp } from './support/outside-app.js';
import {
  ALL_VARIANTS,
  compileWithHermes,
  metroDevServer,
  NODE_HOST,
  reactNativeApp,
} from './support/react-native-app.js';
import { mcpClient, toolJson } from './window.helpers.js';

// The packed @porthole/agent tarball installed with npm into projects outside the repo, used there
// as apps use it: nothing below reaches into the repo's sources.

test.describe.configure({ mode: 'serial', timeout: 240_000 });

let tarball: string;
let inspector: RunningInspector;
let target: Server;
let targetUrl: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  tarball = await packAgent();
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

/** A state_* tool's answer for one session, read over MCP. */
async function stateCall(
  mcp: Awaited<ReturnType<typeof mcpClient>>,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const r = await mcp.client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
  return toolJson(r);
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
  // The declarations stand alone: the install brought no schema library.
  expect(existsSync(join(dir, 'node_modules/zod'))).toBe(false);
  expect(existsSync(join(dir, 'node_modules/@porthole/agent/dist/esm/zod-types/index.d.ts'))).toBe(true);
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

// A React Native 0.88 app as its own tooling builds it: Metro with the app's metro.config.js and
// React Native's Babel preset, dev and release, Android and iOS, then hermesc. The release bundle
// then runs under Node (the Hermes CLI has no networking) with React Native's own JS and shims of
// the native modules (e2e/support/react-native/node-host.cjs says which), connected to the inspector.
// The app: docs/react-native.md's porthole.js as written, with the state plugin added as its "State
// stores" section says, and what the test does with it.
const RN_DOCS = readFileSync(join(ROOT, 'docs/react-native.md'), 'utf8');
const RN_SETUP = withStatePlugin(
  /Put the agent in a file of its own, `porthole.js`:\n\n```js\n([^`]+)```/.exec(RN_DOCS)![1]!,
);

function withStatePlugin(setup: string): string {
  const line = /## State stores[\s\S]*?```js\n([^`]+)```/.exec(RN_DOCS)![1]!;
  const out =
    line + setup.replace('plugins: [network(), consolePlugin()]', 'plugins: [network(), consolePlugin(), state()]');
  if (!out.includes('state()'))
    throw new Error("docs/react-native.md's porthole.js changed: add state() to its plugins here");
  return out;
}

// The app's stores as apps write them: Redux Toolkit with devTools at its default, Zustand's devtools.
const RN_STORES = `import { configureStore, createSlice } from '@reduxjs/toolkit';
import { create } from 'zustand';
import { devtools } from 'zustand/middleware';

const cart = createSlice({
  name: 'cart',
  initialState: { items: [], total: 0, user: { name: 'Ada', token: 'tok-123' } },
  reducers: {
    added: (s, a) => {
      s.items.push(a.payload);
      s.total += a.payload.price;
    },
  },
});
export const { added } = cart.actions;
export const shop = configureStore({ reducer: { cart: cart.reducer } });
export const useFilter = create()(
  devtools((set) => ({ query: '', setQuery: (query) => set({ query }, false, 'filter/setQuery') }), { name: 'filter' }),
);
`;
const RN_APP = `import { AppRegistry } from 'react-native';
import App, { checkOut } from './App';
import { agent } from './porthole';
import { added, shop, useFilter } from './stores';
const { target } = globalThis.PORTHOLE_TEST ?? {};

AppRegistry.registerComponent('scratch', () => App);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const stop = agent.onStatus(async (status) => {
  if (status.state !== 'connected') return;
  stop();
  checkOut({ total: -1 });
  shop.dispatch(added({ id: 1, name: 'tea', price: 3 }));
  useFilter.getState().setQuery('green');
  if (!target) return;
  const res = await fetch(target + '/rn-fetch', { headers: { 'x-test': 'rn' } });
  console.log('fetched', res.status, await res.text());
  const xhr = new XMLHttpRequest();
  xhr.open('POST', target + '/rn-xhr');
  xhr.onload = () => console.log('xhr', xhr.status, xhr.responseText);
  xhr.send('payload from rn');
  console.warn('a warning from React Native', { n: 1 });
  for (let i = 0; i < 150; i++) {
    const answer = await (await fetch(target + '/rn-mocked')).text();
    if (answer.startsWith('mocked')) {
      console.log('the app got: ' + answer);
      break;
    }
    await sleep(200);
  }
  await sleep(500);
  agent.disconnect();
});
`;

// App.js: the component, and a function that logs an error with its stack (line 5 of this file).
const RN_APP_COMPONENT = `import React from 'react';
import { Text } from 'react-native';

export function checkOut(cart) {
  if (cart.total < 0) console.error(new Error('the cart total is negative: ' + cart.total));
}

export default function App() {
  return React.createElement(Text, null, 'hello');
}
`;

// The app for the agent's UI: docs/react-native.md's porthole-ui.js as written, a counter and a
// controlled form, started on React Native's own renderer.
const RN_UI_SETUP = /in `porthole-ui.js`:\n\n```js\n([^`]+)```/.exec(
  readFileSync(join(ROOT, 'docs/react-native.md'), 'utf8'),
)![1]!;
const RN_UI_APP = `import { agent } from './porthole-ui';
import React, { useState } from 'react';
import { AppRegistry, Pressable, Switch, Text, TextInput, View } from 'react-native';

function Counter() {
  const [count, setCount] = useState(0);
  return (
    <Pressable testID="increment" onPress={() => setCount((c) => c + 1)}>
      <Text>Count: {count}</Text>
    </Pressable>
  );
}
Counter.displayName = 'Counter';

function Greeting() {
  const [name, setName] = useState('');
  const [loud, setLoud] = useState(false);
  const text = name ? 'Hello, ' + name + (loud ? '!!!' : '!') : 'Type your name';
  return (
    <View testID="form">
      <TextInput accessibilityLabel="Name" placeholder="Your name" value={name} onChangeText={setName} />
      <Switch accessibilityLabel="Loud" value={loud} onValueChange={setLoud} />
      <Text testID="greeting">{text}</Text>
    </View>
  );
}
Greeting.displayName = 'Greeting';

function App() {
  return (
    <View>
      <Text accessibilityRole="header">Shop</Text>
      <Counter />
      <Greeting />
    </View>
  );
}
AppRegistry.registerComponent('scratch-ui', () => App);
agent.onStatus((s) => s.state === 'connected' && console.log('ui app connected'));
`;

let rn: Awaited<ReturnType<typeof reactNativeApp>> | undefined;
/** The sessions of the React Native apps before the UI app (it has the same app id). */
const earlierRnSessions = new Set<string>();

test('a React Native app bundled by Metro (dev and release, Android and iOS), compiled by hermesc, run with the inspector', async () => {
  test.setTimeout(3_000_000);
  rn = await reactNativeApp(
    tarball,
    {
      'porthole.js': RN_SETUP,
      'stores.js': RN_STORES,
      'index.js': RN_APP,
      'App.js': RN_APP_COMPONENT,
      'porthole-ui.js': RN_UI_SETUP,
      'ui-app.js': RN_UI_APP,
    },
    [
      { entry: 'index.js', variants: ALL_VARIANTS },
      { entry: 'ui-app.js', variants: ['android:release'] },
    ],
  );
  console.log(
    `React Native scratch app: install ${rn.cached ? 'cached' : `${rn.seconds.install} s`}, bundles ${rn.seconds.bundle} s`,
  );
  for (const variant of ALL_VARIANTS) {
    const bundle = rn.bundles[`index:${variant}`]!;
    expect(statSync(bundle).size, variant).toBeGreaterThan(100_000);
    const code = readFileSync(bundle, 'utf8');
    // Only React Native's parts of the agent: no interception library, no RE2, no Node taps.
    expect(code, variant).not.toMatch(/mswjs|RE2JS|diagnostics_channel/);
    const compiled = await compileWithHermes(rn, bundle);
    expect(compiled.errors, variant).toEqual([]);
    expect(compiled.status, variant).toBe(0);
  }

  const mcp = await mcpClient(inspector);
  const host = execFile(process.execPath, [NODE_HOST, rn.bundles['index:android:release']!, 'android'], {
    cwd: rn.dir,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      ...process.env,
      PORTHOLE_TEST: JSON.stringify({ target: targetUrl }),
      // What \`adb reverse tcp:7360 tcp:7360\` does for a device: its localhost:7360 is the inspector.
      RN_HOST_REVERSE: JSON.stringify({ 'ws://localhost:7360': inspector.info.debuggeeUrl }),
    },
  });
  let stdout = '';
  host.stdout?.on('data', (d) => (stdout += d));
  host.stderr?.on('data', (d) => (stdout += d));
  try {
    const session = await expect
      .poll(
        async () => {
          const r = await mcp.client.callTool({ name: 'inspector_list_sessions', arguments: {} });
          const { sessions } = r.structuredContent as {
            sessions: { id: string; app: { id: string }; device: { platform: string; name: string; id: string } }[];
          };
          return sessions.find((s) => s.app.id === 'com.example.shop');
        },
        { timeout: 60_000 },
      )
      .toBeTruthy()
      .then(async () => {
        const r = await mcp.client.callTool({ name: 'inspector_list_sessions', arguments: {} });
        return (
          r.structuredContent as { sessions: { id: string; app: { id: string }; device: Record<string, string> }[] }
        ).sessions.find((s) => s.app.id === 'com.example.shop')!;
      });
    earlierRnSessions.add(session.id);
    expect(session.device).toMatchObject({ platform: 'react-native', name: 'Porthole Node host (Android 14)' });
    expect(session.device.id).toMatch(/^rn-/);
    expect(session.device.runtime).toMatch(/^React Native 0\.88\.1 on android 34/);

    const added = await mcp.client.callTool({
      name: 'network_set_mock_rules',
      arguments: {
        op: 'add',
        rule: {
          match: { url: { kind: 'glob', value: '*/rn-mocked' } },
          action: { type: 'respond', status: 200, body: { type: 'text', text: 'mocked in React Native' } },
        },
      },
    });
    expect(added.isError, JSON.stringify(added.content)).toBeFalsy();
    await expect.poll(() => stdout, { timeout: 60_000 }).toContain('the app got: mocked in React Native');
    // As React Native's console prints through the host's logging hook.
    expect(stdout).toContain("[info] 'fetched', 200, 'hello /rn-fetch'");
    expect(stdout).toContain("[info] 'xhr', 200, 'hello /rn-xhr'");

    const list = async () => {
      const r = await mcp.client.callTool({
        name: 'network_list_transactions',
        arguments: { sessionId: session.id, limit: 200 },
      });
      return (
        r.structuredContent as {
          transactions: { url: string; initiator: string; status?: number; mockRuleId?: string }[];
        }
      ).transactions;
    };
    await expect
      .poll(async () => (await list()).filter((t) => t.url.endsWith('/rn-xhr') && t.status === 200).length)
      .toBe(1);
    const transactions = await list();
    // Every request once: the fetch as the fetch (it is an XHR underneath), the XHR as itself.
    expect(transactions.filter((t) => t.url.endsWith('/rn-fetch'))).toEqual([
      expect.objectContaining({ initiator: 'fetch', status: 200 }),
    ]);
    expect(transactions.filter((t) => t.url.endsWith('/rn-xhr'))).toEqual([
      expect.objectContaining({ initiator: 'xhr', status: 200 }),
    ]);
    const mocked = transactions.filter((t) => t.url.endsWith('/rn-mocked') && t.mockRuleId);
    expect(mocked).toEqual([expect.objectContaining({ initiator: 'fetch', status: 200 })]);

    const detail = await mcp.client.callTool({
      name: 'network_get_transaction',
      arguments: {
        sessionId: session.id,
        id: (transactions.find((t) => t.url.endsWith('/rn-xhr')) as { id?: string }).id,
      },
    });
    expect(JSON.stringify(detail.structuredContent)).toContain('payload from rn');

    const logs = await mcp.client.callTool({ name: 'console_list_messages', arguments: { sessionId: session.id } });
    const text = JSON.stringify(logs.structuredContent);
    expect(text).toContain('a warning from React Native');
    expect(text).toContain('the app got: mocked in React Native');

    // The state plugin: Redux Toolkit's store, devTools at its default, reports from a release build
    // (Zustand's devtools middleware is off there: NODE_ENV is production).
    const stores = async () =>
      ((await stateCall(mcp, 'state_list_stores', { sessionId: session.id })).stores as { name: string }[]).map(
        (s) => s.name,
      );
    await expect.poll(stores, { timeout: 30_000 }).toEqual(['redux']);
    const tea = await stateCall(mcp, 'state_get', { sessionId: session.id, store: 'redux', path: 'cart.items[0]' });
    expect(tea.value).toEqual({ id: 1, name: 'tea', price: 3 });
    const user = await stateCall(mcp, 'state_get', { sessionId: session.id, store: 'redux', path: 'cart.user' });
    expect(user.value).toEqual({ name: 'Ada', token: '[redacted]' });
    const actions = await stateCall(mcp, 'state_list_actions', { sessionId: session.id, store: 'redux', since: 0 });
    expect(actions.actions).toEqual([
      expect.objectContaining({
        seq: 1,
        type: 'cart/added',
        diff: [
          { path: 'cart.items[0]', after: { id: 1, name: 'tea', price: 3 } },
          { path: 'cart.total', before: 0, after: 3 },
        ],
      }),
    ]);
  } finally {
    host.kill();
    await mcp.close();
  }
});

test("a React Native dev build from Metro's dev server: console stacks mapped to the app's files by Metro's source maps", async () => {
  test.setTimeout(300_000);
  test.skip(!rn, 'the Metro run above did not build the app');
  const started = Date.now();
  const metro = await metroDevServer(rn!);
  // As a phone in development loads it (Metro builds it on this first request).
  const bundleUrl = `${metro.origin}/index.bundle?platform=android&dev=true&minify=false`;
  const mcp = await mcpClient(inspector);
  const before = new Set<string>();
  const sessions = async () => {
    const r = await mcp.client.callTool({ name: 'inspector_list_sessions', arguments: {} });
    return (
      r.structuredContent as {
        sessions: { id: string; app: { id: string }; device: { devServer?: string } }[];
      }
    ).sessions;
  };
  for (const s of await sessions()) before.add(s.id);
  const host = execFile(process.execPath, [NODE_HOST, bundleUrl, 'android'], {
    cwd: rn!.dir,
    encoding: 'utf8',
    timeout: 240_000,
    env: {
      ...process.env,
      RN_HOST_MS: '200000',
      // The bundle's host is the agent's default inspector host: 127.0.0.1:7360, here the test's inspector.
      RN_HOST_REVERSE: JSON.stringify({ 'ws://127.0.0.1:7360': inspector.info.debuggeeUrl }),
    },
  });
  let stdout = '';
  host.stdout?.on('data', (d) => (stdout += d));
  host.stderr?.on('data', (d) => (stdout += d));
  try {
    let sessionId = '';
    await expect
      .poll(
        async () => {
          const found = (await sessions()).find((s) => s.app.id === 'com.example.shop' && !before.has(s.id));
          sessionId = found?.id ?? '';
          if (found) earlierRnSessions.add(found.id);
          return found?.device.devServer;
        },
        { timeout: 200_000, message: `no dev session:\n${stdout.slice(-3000)}` },
      )
      .toBe(metro.origin);

    const errors = async () => {
      const r = await mcp.client.callTool({ name: 'console_list_errors', arguments: { sessionId } });
      return (r.structuredContent as { groups: { text: string; site?: string; lastSeq: number }[] }).groups;
    };
    // The group's place is the original one: App.js, where checkOut logs, as a file on this machine.
    const appFile = join(rn!.dir, 'App.js');
    await expect
      .poll(
        async () =>
          (await errors()).find((g) => g.text.includes('the cart total is negative: -1'))?.site?.replace(/:\d+$/, ''),
        { timeout: 30_000 },
      )
      .toBe(`${appFile}:5`);
    const group = (await errors()).find((g) => g.text.includes('the cart total is negative: -1'))!;
    const message = await mcp.client.callTool({
      name: 'console_get_message',
      arguments: { sessionId, seq: group.lastSeq },
    });
    const { stack } = message.structuredContent as {
      stack: { fn?: string; file: string; line: number; mapped?: { fn?: string; file: string; line: number } }[];
    };
    // As the app threw it: the bundle Metro served, at its own line; mapped: the function, file and line written.
    expect(stack[0]).toMatchObject({ fn: 'checkOut', file: expect.stringContaining(`${metro.origin}/index.bundle`) });
    expect(stack[0]!.line).toBeGreaterThan(1000);
    expect(stack[0]!.mapped).toMatchObject({ fn: 'checkOut', file: appFile, line: 5 });
    // Its caller, index.js line 13, where the app calls checkOut once it is connected.
    expect(stack[1]!.mapped).toMatchObject({ file: join(rn!.dir, 'index.js'), line: 13 });
    // The app's own console (React Native's, through LogBox in a dev build) still printed it.
    expect(stdout).toContain('the cart total is negative: -1');

    // In a dev build Zustand's devtools middleware reports too: both stores, the Zustand one's diff.
    const stores = async () =>
      ((await stateCall(mcp, 'state_list_stores', { sessionId })).stores as { name: string; library: string }[]).map(
        (s) => `${s.name} (${s.library})`,
      );
    await expect.poll(stores, { timeout: 30_000 }).toEqual(['redux (redux)', 'filter (zustand)']);
    await expect
      .poll(async () => (await stateCall(mcp, 'state_list_actions', { sessionId, store: 'filter', since: 0 })).actions)
      .toEqual([
        expect.objectContaining({
          seq: 1,
          type: 'filter/setQuery',
          diff: [{ path: 'query', before: '', after: 'green' }],
        }),
      ]);
    const total = await stateCall(mcp, 'state_get', { sessionId, store: 'redux', path: 'cart.total' });
    expect(total.value).toBe(3);
    console.log(`React Native dev run with Metro's server: ${(Date.now() - started) / 1000} s`);
  } finally {
    host.kill();
    metro.stop();
    await mcp.close();
  }
});

test("a React Native app's UI on React Native's renderer: ui_snapshot, ui_act (press, type, switch), react_tree", async () => {
  test.setTimeout(120_000);
  test.skip(!rn, 'the Metro run above did not build the app');
  const mcp = await mcpClient(inspector);
  const host = execFile(process.execPath, [NODE_HOST, rn!.bundles['ui-app:android:release']!, 'android'], {
    cwd: rn!.dir,
    encoding: 'utf8',
    timeout: 90_000,
    env: {
      ...process.env,
      RN_HOST_APP: 'scratch-ui',
      RN_HOST_MS: '80000',
      RN_HOST_REVERSE: JSON.stringify({ 'ws://localhost:7360': inspector.info.debuggeeUrl }),
    },
  });
  let stdout = '';
  host.stdout?.on('data', (d) => (stdout += d));
  host.stderr?.on('data', (d) => (stdout += d));
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await mcp.client.callTool({ name, arguments: args });
    const text = (r.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
    expect(r.isError, `${name}: ${text}\n${stdout}`).toBeFalsy();
    return text;
  };
  try {
    let sessionId = '';
    await expect
      .poll(
        async () => {
          const r = await mcp.client.callTool({ name: 'inspector_list_sessions', arguments: {} });
          const { sessions } = r.structuredContent as { sessions: { id: string; app: { id: string } }[] };
          sessionId = sessions.find((s) => s.app.id === 'com.example.shop' && !earlierRnSessions.has(s.id))?.id ?? '';
          return sessionId && stdout.includes('ui app connected');
        },
        { timeout: 60_000 },
      )
      .toBeTruthy();

    const outline = await call('ui_snapshot', { sessionId });
    console.log(`React Native outline (${outline.length} chars):\n${outline}`);
    expect(outline).toMatch(/header "Shop"/);
    expect(outline).toMatch(/button "Count: 0" e\d+ testID="increment"/);
    expect(outline).toMatch(/group e\d+ testID="form"/);
    expect(outline).toMatch(/textbox "Name" e\d+ value=""/);
    expect(outline).toMatch(/switch "Loud" e\d+ unchecked/);
    expect(outline).toMatch(/text "Type your name" e\d+ testID="greeting"/);
    const ref = (pattern: RegExp) => pattern.exec(outline)![1]!;

    // A press is the Pressable's onPress: the counter's state changes and the outline says so.
    const pressed = await call('ui_act', { sessionId, ref: ref(/button "Count: 0" (e\d+)/), action: 'click' });
    expect(pressed).toContain('Count: 1');
    // Typing is the controlled TextInput's onChangeText: React re-renders it with the new value.
    const typed = await call('ui_act', { sessionId, ref: ref(/textbox "Name" (e\d+)/), action: 'fill', value: 'Ada' });
    expect(typed).toContain('value="Ada"');
    expect(typed).toContain('Hello, Ada!');
    const switched = await call('ui_act', { sessionId, ref: ref(/switch "Loud" (e\d+)/), action: 'check' });
    expect(switched).toContain('Hello, Ada!!!');
    const after = await call('ui_snapshot', { sessionId, text: 'Hello' });
    expect(after).toMatch(/text "Hello, Ada!!!"/);
    // What a phone cannot do is refused with the reason.
    const hover = await mcp.client.callTool({
      name: 'ui_act',
      arguments: { sessionId, ref: ref(/button "Count: 0" (e\d+)/), action: 'hover' },
    });
    expect(JSON.stringify(hover.content)).toContain('not available in React Native');

    // The same components through the react plugin: found by name, with the state the UI changed.
    const tree = await call('react_tree', { sessionId, name: 'Greeting' });
    expect(tree).toContain('Greeting');
    const inspected = await call('react_inspect', { sessionId, name: 'Greeting' });
    expect(inspected).toContain('Ada');
    // Host components too, with the renders the press caused (the Counter rendered twice).
    const counter = /Counter #(\S+) ×2/.exec(await call('react_tree', { sessionId, name: 'Counter' }));
    expect(counter).toBeTruthy();
    const hosts = await call('react_tree', { sessionId, id: counter![1], hosts: true });
    expect(hosts).toMatch(/Pressable[^\n]*\n\s+View[^\n]*\n\s+RCTView[^\n]*\n\s+Text[^\n]*\n\s+RCTText/);
  } finally {
    host.kill();
    await mcp.close();
  }
});
