import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test } from '@playwright/test';
import { ROOT, type RunningInspector, startInspector } from './support/inspector.js';
import { packAgent, packPorthole } from './support/outside-app.js';
import { cachedScratch, codeBlocks } from './support/outside-scratch.js';

// Porthole in tests, used as a user would: the packed `porthole` and `@porthole/agent` installed in
// a project outside the repo with @playwright/test and Vitest (the install is cached by the
// packages' contents, e2e/support/outside-scratch.ts). Its Playwright suite runs with the fixture
// against a small web app with a failing request, two workers at a time; a Vitest suite tests a
// Node service; the checks fail given a time or a seq from before an error; the types check with
// skipLibCheck false under nodenext and node10; docs/testing.md runs as written; a session an AI
// agent recorded is exported by `porthole history export-test` and runs green.

test.describe.configure({ mode: 'serial', timeout: 300_000 });

const version = (pkg: string) =>
  JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p) => p && existsSync(p),
);
const LAUNCH = {
  executablePath: CHROMIUM,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};
const DOCS = readFileSync(join(ROOT, 'docs/testing.md'), 'utf8');
const seconds: Record<string, number> = {};
let dir: string;

async function timed<T>(what: string, f: () => Promise<T> | T): Promise<T> {
  const start = Date.now();
  try {
    return await f();
  } finally {
    seconds[what] = (Date.now() - start) / 1000;
  }
}

function write(files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
}

interface Run {
  code: number;
  output: string;
}

/** A command of the scratch project (`node_modules/.bin/<bin>` run with this Node). */
function run(args: string[], env: Record<string, string> = {}, timeout = 240_000): Promise<Run> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      args,
      { cwd: dir, timeout, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, CI: '1', FORCE_COLOR: '0', ...env } },
      (e, stdout, stderr) =>
        resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    ),
  );
}
const bin = (name: string) => {
  const scripts: Record<string, string> = {
    playwright: 'node_modules/@playwright/test/cli.js',
    vitest: 'node_modules/vitest/vitest.mjs',
    porthole: 'node_modules/porthole/bin/porthole.js',
    tsc: join(ROOT, 'node_modules/typescript/bin/tsc'),
  };
  return scripts[name]!;
};

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  return port;
}

test.beforeAll(async () => {
  test.setTimeout(600_000);
  const tarballs = await timed('pack', () => Promise.all([packPorthole(), packAgent()]));
  const dependencies = [
    ...tarballs,
    `@playwright/test@${version('@playwright/test')}`,
    `vitest@${version('vitest')}`,
    `@types/node@${version('@types/node')}`,
  ];
  const scratch = await timed('install', () => cachedScratch('testing', dependencies));
  dir = scratch.dir;
  seconds.installCached = scratch.installedNow ? 0 : 1;
  for (const stale of ['tests', 'test', 'pw', 'types', 'recorded', 'test-results', 'reports'])
    rmSync(join(dir, stale), { recursive: true, force: true });
  mkdirSync(join(dir, 'reports'));
});

test.afterAll(() => {
  // What these tests add to a CI run, in seconds (the report quotes it).
  console.log(`outside-testing seconds: ${JSON.stringify(seconds)}`);
});

// ─── 1. Types ───────────────────────────────────────────────────────────────

const TYPES = `import { connectInspector, type PortholeSession, ToolCallError } from 'porthole/client';
import { expect as pwExpect, test as pwTest } from 'porthole/playwright';
import { startInspector, startService } from 'porthole/node';
import 'porthole/vitest';
import { expect } from 'vitest';

export async function check(porthole: PortholeSession) {
  const inspector = await connectInspector();
  // @ts-expect-error since is a Date: a number could be milliseconds or a console seq
  await inspector.expectNoConsoleErrors({ since: Date.now() });
  // @ts-expect-error a time and a seq are one option or the other
  await porthole.expectNoConsoleErrors({ since: new Date(), afterSeq: 3 });
  // @ts-expect-error requests have no console seq
  await porthole.expectNoFailedRequests({ afterSeq: 3 });
  await porthole.expectNoConsoleErrors({ afterSeq: 3 });
  await porthole.expectNoFailedRequests({ since: new Date() });
  // Tools without arguments take the session to call.
  await inspector.network.getMockConfig({ sessionId: 's' });
  await inspector.network.clearTransactions({ sessionId: 's' });
  await inspector.console.clear({ sessionId: 's' });
  await inspector.example.sendPing({ sessionId: 's' });
  const { transaction } = await inspector.network.getTransaction({ id: 'x' });
  const url: string = transaction.request.url;
  const status: number | undefined = transaction.response?.status;
  const har = await porthole.network.saveHar('session.har');
  const entries: number = 'log' in har && har.log ? har.log.entries.length : 0;
  await expect(porthole).toHaveNoFailedRequests({ since: new Date() });
  await expect(porthole).toHaveNoConsoleErrors();
  void [url, status, entries, ToolCallError, startInspector, startService];
}

pwTest('typed', async ({ page, porthole, portholeInspector }) => {
  await pwExpect(porthole).toHaveNoFailedRequests();
  await pwExpect(porthole).toHaveNoConsoleErrors({ afterSeq: 1 });
  const sessions = await portholeInspector.listSessions();
  void [page, sessions.sessions.length];
});
`;

const NODE10 = `import { connectInspector } from 'porthole/client';
import { startService } from 'porthole/node';
import { expect, test } from 'porthole/playwright';

export async function check() {
  const inspector = await connectInspector();
  // @ts-expect-error since is a Date
  await inspector.expectNoFailedRequests({ since: Date.now() });
  const { transaction } = await inspector.network.getTransaction({ id: 'x' });
  const url: string = transaction.request.url;
  void [url, startService, expect, test];
}
`;

test('the published types check with skipLibCheck false (nodenext), and resolve under node10 through typesVersions', async () => {
  write({ 'types/check.ts': TYPES, 'types/check-node10.ts': NODE10 });
  const common = { strict: true, noEmit: true, target: 'es2022', lib: ['es2023', 'dom'], types: ['node'] };
  const configs = {
    nodenext: {
      compilerOptions: { ...common, module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: false },
      files: ['check.ts'],
    },
    // "module": "commonjs" makes TypeScript resolve as node10, which reads typesVersions, not exports
    // (and esModuleInterop, as \`tsc --init\` writes it). Vitest's own types need node16 or later.
    node10: {
      compilerOptions: { ...common, module: 'commonjs', esModuleInterop: true, skipLibCheck: true },
      files: ['check-node10.ts'],
    },
  };
  for (const [name, config] of Object.entries(configs)) {
    write({ [`types/tsconfig.${name}.json`]: JSON.stringify(config) });
    const typed = await timed(`tsc ${name}`, () => run([bin('tsc'), '-p', `types/tsconfig.${name}.json`]));
    expect(typed.output, `${name}:\n${typed.output}`).toBe('');
    expect(typed.code).toBe(0);
  }
  // Without typesVersions, node10 finds no porthole/client at all: the check above would fail.
  const manifest = JSON.parse(readFileSync(join(dir, 'node_modules/porthole/package.json'), 'utf8'));
  expect(Object.keys(manifest.typesVersions['*']).sort()).toEqual(['client', 'node', 'playwright', 'vitest']);
  // The HAR types travel with the package: nothing imports the dev-only har-format.
  expect(existsSync(join(dir, 'node_modules/@types/har-format'))).toBe(false);
  expect(existsSync(join(dir, 'node_modules/porthole/out/types/vendor/har-format.d.ts'))).toBe(true);
});

// ─── 2. The Playwright fixture ──────────────────────────────────────────────

const PW_APP = `import { createServer } from 'node:http';
const bug = process.env.BUG === '1';
const home = \`<!doctype html><title>Home</title><h1>Welcome</h1><ul id="recs"></ul>
<script type="module">
  const res = await fetch('/api/recommendations');
  document.querySelector('#recs').dataset.status = String(res.status);
</script>\`;
const echo = \`<!doctype html><title>Echo</title><p id="echo">…</p>
<script>
  fetch('/api/echo' + location.search).then((r) => r.text()).then((t) => (document.querySelector('#echo').textContent = t));
</script>\`;
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(home);
  if (url.pathname === '/echo') return res.writeHead(200, { 'content-type': 'text/html' }).end(echo);
  if (url.pathname === '/api/recommendations') return res.writeHead(bug ? 500 : 200).end(bug ? 'oops' : '[]');
  if (url.pathname === '/api/echo') return res.writeHead(200).end('real ' + url.searchParams.get('marker'));
  res.writeHead(404).end();
});
server.listen(0, '127.0.0.1', () => console.log('APP ' + server.address().port));
`;

const PW_TESTS = `import { expect, test } from 'porthole/playwright';

test('the home page makes no failed request', async ({ page, porthole }) => {
  await page.goto('/');
  await expect(page.locator('#recs')).toHaveAttribute('data-status', /\\d+/);
  await expect(porthole).toHaveNoConsoleErrors();
  await expect(porthole).toHaveNoFailedRequests();
});

// Four tests at once on two workers: each page's requests, and each test's mock rule, are its own.
for (const marker of ['a', 'b', 'c', 'd']) {
  test('isolated ' + marker, async ({ page, porthole }) => {
    await porthole.network.mock(
      {
        match: { url: { kind: 'contains', value: '/api/echo' } },
        action: { type: 'respond', status: 200, body: { type: 'text', text: 'mocked for ' + marker } },
      },
      async () => {
        await page.goto('/echo?marker=' + marker);
        await expect(page.locator('#echo')).toHaveText('mocked for ' + marker);
        await page.waitForTimeout(300); // overlap with the test on the other worker
      },
    );
    await page.reload();
    await expect(page.locator('#echo')).toHaveText('real ' + marker);
    const { transactions } = await porthole.network.listTransactions({ urlContains: '/api/echo' });
    expect(transactions.map((t) => new URL(t.url).search).sort()).toEqual(['?marker=' + marker, '?marker=' + marker]);
    await expect(porthole).toHaveNoFailedRequests();
  });
}
`;

const PW_CONFIG = `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: 'tests',
  fullyParallel: true,
  retries: 0,
  reporter: [['json', { outputFile: process.env.REPORT }], ['line']],
  outputDir: '../test-results/pw',
  use: { baseURL: process.env.APP_URL, launchOptions: ${JSON.stringify(LAUNCH)} },
});
`;

interface JsonReport {
  suites: JsonSuite[];
}
interface JsonSuite {
  suites?: JsonSuite[];
  specs: {
    title: string;
    tests: {
      results: {
        status: string;
        workerIndex: number;
        parallelIndex: number;
        error?: { message?: string };
        attachments: { name: string; contentType: string; path?: string; body?: string }[];
      }[];
    }[];
  }[];
}
const results = (report: JsonReport) => {
  const all: { title: string; result: JsonSuite['specs'][number]['tests'][number]['results'][number] }[] = [];
  const walk = (s: JsonSuite) => {
    for (const spec of s.specs)
      for (const t of spec.tests) for (const r of t.results) all.push({ title: spec.title, result: r });
    for (const child of s.suites ?? []) walk(child);
  };
  for (const s of report.suites) walk(s);
  return all;
};

async function startApp(bug: boolean): Promise<{ url: string; stop(): void }> {
  const child: ChildProcess = spawn(process.execPath, ['pw/app.mjs'], {
    cwd: dir,
    env: { ...process.env, BUG: bug ? '1' : '0' },
  });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  const port = /APP (\d+)/.exec(chunk.toString())![1];
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

test('the Playwright fixture fails the test whose page had a failing request, attaching its HAR, and passes once the app is fixed; two workers never mix', async () => {
  test.skip(!CHROMIUM, 'no Chromium on this machine');
  write({ 'pw/app.mjs': PW_APP, 'pw/tests/shop.spec.ts': PW_TESTS, 'pw/playwright.config.ts': PW_CONFIG });
  const suite = async (bug: boolean, args: string[] = []) => {
    const app = await startApp(bug);
    const report = join(dir, `reports/pw-${bug ? 'bug' : 'fixed'}.json`);
    const ran = await timed(`playwright ${bug ? 'broken' : 'fixed'} app`, () =>
      run([bin('playwright'), 'test', '-c', 'pw/playwright.config.ts', '--workers=2', ...args], {
        APP_URL: app.url,
        REPORT: report,
      }),
    ).finally(() => app.stop());
    return { ...ran, url: app.url, all: results(JSON.parse(readFileSync(report, 'utf8')) as JsonReport) };
  };
  const homeOf = (all: Awaited<ReturnType<typeof suite>>['all']) =>
    all.find((r) => r.title.startsWith('the home page'))!.result;

  const broken = await suite(true);
  expect(broken.all.map((r) => r.title).sort(), broken.output).toEqual([
    'isolated a',
    'isolated b',
    'isolated c',
    'isolated d',
    'the home page makes no failed request',
  ]);
  // Two workers ran tests at the same time, and each test's page and mock rule stayed its own.
  expect(new Set(broken.all.map((r) => r.result.parallelIndex)), broken.output).toEqual(new Set([0, 1]));
  const isolated = broken.all.filter((r) => r.title.startsWith('isolated'));
  expect(
    isolated.map((r) => r.result.status),
    broken.output,
  ).toEqual(['passed', 'passed', 'passed', 'passed']);
  // The page with the failing request fails its test, which names it and carries the HAR.
  const home = homeOf(broken.all);
  expect(broken.code).toBe(1);
  expect(home.status).toBe('failed');
  expect(home.error?.message).toContain(`1 request failed:\n  GET ${broken.url}/api/recommendations → 500`);
  expect(home.error?.message).toContain('toHaveNoFailedRequests');
  const attached = Object.fromEntries(home.attachments.map((a) => [a.name, a]));
  expect(Object.keys(attached).sort()).toEqual(
    expect.arrayContaining(['porthole-console.txt', 'porthole-network.har', 'porthole-screenshot.png']),
  );
  const bytes = (a: { path?: string; body?: string } | undefined) =>
    a?.path ? readFileSync(a.path) : Buffer.from(a?.body ?? '', 'base64');
  const har = JSON.parse(bytes(attached['porthole-network.har']).toString());
  expect(har.log.version).toBe('1.2');
  expect(
    har.log.entries.map((e: { request: { url: string }; response: { status: number } }) => [
      e.request.url,
      e.response.status,
    ]),
  ).toEqual([[`${broken.url}/api/recommendations`, 500]]);
  expect(bytes(attached['porthole-screenshot.png']).subarray(1, 4).toString()).toBe('PNG');
  expect(bytes(attached['porthole-console.txt']).toString()).toMatch(/\d\d:\d\d:\d\d\.\d{3} /);
  // Passing tests carry no attachments of Porthole's.
  expect(isolated.flatMap((r) => r.result.attachments.filter((a) => a.name.startsWith('porthole')))).toEqual([]);

  // The fixed app: the test that failed passes (the others ran above).
  const fixed = await suite(false, ['-g', 'the home page']);
  expect(fixed.code, fixed.output).toBe(0);
  expect(homeOf(fixed.all).status).toBe('passed');
});

// ─── 3. Vitest, a Node service, checks that cannot pass by mistake ─────────

const UNITS = `import { startInspector, startService } from 'porthole/vitest';
import { expect, test } from 'vitest';

test('the checks fail given a time or a seq from before an error, and refuse a bare number', async () => {
  const inspector = await startInspector();
  const service = await startService(inspector, { entry: 'orders.mjs', readyWhen: /orders on port (\\d+)/ });
  try {
    const { latest } = await service.porthole.console.listErrors();
    const before = new Date();
    expect((await fetch(\`http://127.0.0.1:\${service.ready?.[1]}/orders/999\`)).status).toBe(502);
    await expect.poll(async () => (await service.porthole.consoleErrors()).length).toBe(1);
    await expect(expect(service.porthole).toHaveNoConsoleErrors({ since: before })).rejects.toThrow('no stock for product 999: 404');
    await expect(expect(service.porthole).toHaveNoConsoleErrors({ afterSeq: latest })).rejects.toThrow('no stock for product 999');
    await expect(expect(service.porthole).toHaveNoFailedRequests({ since: before })).rejects.toThrow(/GET http:\\/\\/127\\.0\\.0\\.1:\\d+\\/stock\\/999 → 404/);
    // The defect this replaces: a time in ms given where a seq was meant passed whatever was logged.
    await expect(service.porthole.expectNoConsoleErrors({ since: Date.now() - 60_000 } as never)).rejects.toThrow(/since must be a Date/);
    await expect(service.porthole.expectNoConsoleErrors({ since: before, afterSeq: latest } as never)).rejects.toThrow(/not both/);
    // What came before the time or the seq is not counted.
    const after = new Date(Date.now() + 1);
    await new Promise((r) => setTimeout(r, 5));
    await expect(service.porthole).toHaveNoConsoleErrors({ since: after });
    await expect(service.porthole).toHaveNoFailedRequests({ since: after });
    const { latest: now } = await service.porthole.console.listErrors();
    await expect(service.porthole).toHaveNoConsoleErrors({ afterSeq: now });
  } finally {
    await service.stop();
    await inspector.stop();
  }
}, 60_000);
`;

const docFiles = () => Object.fromEntries(codeBlocks(DOCS).flatMap((b) => (b.file ? [[b.file, b.code] as const] : [])));

test('a Vitest suite for a Node service (docs/testing.md as written) and checks that fail given a time or a seq', async () => {
  const files = docFiles();
  write({
    'orders.mjs': files['orders.mjs']!,
    'test/orders.test.ts': files['test/orders.test.ts']!,
    'test/units.test.ts': UNITS,
  });
  const report = join(dir, 'reports/vitest.json');
  const ran = await timed('vitest service', () =>
    run([
      bin('vitest'),
      'run',
      'test/orders.test.ts',
      'test/units.test.ts',
      '--reporter=json',
      `--outputFile=${report}`,
      '--reporter=default',
    ]),
  );
  expect(ran.code, ran.output).toBe(0);
  const summary = JSON.parse(readFileSync(report, 'utf8')) as { numPassedTests: number; numFailedTests: number };
  expect(summary).toMatchObject({ numPassedTests: 3, numFailedTests: 0 });
});

// ─── 4. docs/testing.md as written ──────────────────────────────────────────

test('docs/testing.md: every code block with a file name runs as written (the Playwright set-up here)', async () => {
  test.skip(!CHROMIUM, 'no Chromium on this machine');
  const blocks = codeBlocks(DOCS);
  // No TypeScript or JavaScript block is left out of the run.
  expect(blocks.filter((b) => ['ts', 'js'].includes(b.lang) && !b.file)).toEqual([]);
  const files = docFiles();
  expect(Object.keys(files).sort()).toEqual([
    'orders.mjs',
    'playwright.config.ts',
    'shop.mjs',
    'test/orders.test.ts',
    'tests/cart.spec.ts',
  ]);
  write(files);
  // The docs' config, with this machine's Chromium.
  write({
    'playwright.ci.config.ts': `import base from './playwright.config.ts';
export default { ...base, outputDir: 'test-results/docs', use: { ...base.use, launchOptions: ${JSON.stringify(LAUNCH)} } };
`,
  });
  const ran = await timed('playwright docs', async () =>
    run([bin('playwright'), 'test', '-c', 'playwright.ci.config.ts', '--reporter=line'], {
      PORT: String(await freePort()),
    }),
  );
  expect(ran.code, ran.output).toBe(0);
  expect(ran.output).toContain('3 passed');
});

// ─── 5. A recorded session becomes a test ───────────────────────────────────

/** The port the docs' service prints it listens on; its output if it exits first (never a wait without end). */
async function listeningPort(service: ChildProcess): Promise<string> {
  let output = '';
  const port = new Promise<string>((resolve) => {
    service.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      const found = /orders on port (\d+)/.exec(output);
      if (found) resolve(found[1]!);
    });
  });
  service.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const exited = once(service, 'exit').then(([code]) => {
    throw new Error(`orders.mjs exited (${code}) before it listened:\n${output}`);
  });
  return Promise.race([port, exited]);
}

test('an AI agent’s session, exported by `porthole history export-test` (the docs’ command), runs green', async () => {
  // The docs' service, written here too: this test may run alone (`-g`) in a fresh scratch project.
  write({ 'orders.mjs': docFiles()['orders.mjs']! });
  const inspector: RunningInspector = await startInspector({ bin: join(dir, bin('porthole')), cwd: dir });
  const service = spawn(process.execPath, ['--import', '@porthole/agent/register', 'orders.mjs'], {
    cwd: dir,
    env: { ...process.env, PORTHOLE_URL: inspector.info.debuggeeUrl },
  });
  const mcp = new Client({ name: 'claude-code', version: '2.1.0' });
  try {
    const port = await listeningPort(service);
    expect((await fetch(`http://127.0.0.1:${port}/orders/7`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/orders/999`)).status).toBe(502);

    // The agent's session: find the failing request, read it, try a mock rule, look at the errors.
    const token = readFileSync(join(inspector.dataDir, 'mcp-token'), 'utf8').trim();
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(inspector.info.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      (await mcp.callTool({ name, arguments: args })).structuredContent as {
        transactions: { id: string }[];
        rule: { id: string };
      };
    await call('inspector_list_sessions');
    await expect
      .poll(async () => (await call('network_list_transactions', { status: 404 })).transactions.length)
      .toBe(1);
    const { transactions } = await call('network_list_transactions', { status: 404 });
    await call('network_get_transaction', { id: transactions[0]!.id });
    const { rule } = await call('network_set_mock_rules', {
      op: 'add',
      rule: {
        match: { url: { kind: 'contains', value: '/stock/999' } },
        action: { type: 'respond', status: 200, body: { type: 'text', text: '{"left":1}' } },
      },
    });
    await call('network_set_mock_rules', { op: 'remove', id: rule.id });
    await call('console_list_errors');

    // The command as docs/testing.md gives it.
    const command = /^npx porthole (history export-test .*)$/m.exec(DOCS)![1]!.split(' ');
    const env = { PORTHOLE_DATA_DIR: inspector.dataDir };
    const exported = await timed('export', () => run([bin('porthole'), ...command], env));
    expect(exported.code, exported.output).toBe(0);
    expect(exported.output).toMatch(
      /wrote test\/recorded\.test\.ts: a vitest test replaying \d+ of \d+ calls; not replayed: inspector_list_sessions/,
    );
    const code = readFileSync(join(dir, 'test/recorded.test.ts'), 'utf8');
    expect(code).toMatch(/getTransaction\(\{\s*id: r\d+\.transactions\.find\(/);
    expect(code).toMatch(/setMockRules\(\{ op: "remove", id: r\d+\.rule!\.id \}\)/);

    const replayed = await timed('vitest recorded', () => run([bin('vitest'), 'run', 'test/recorded.test.ts'], env));
    expect(replayed.code, replayed.output).toBe(0);
    expect(replayed.output).toMatch(/1 passed/);

    // The Playwright form of the same calls type-checks against the package.
    const pw = await run(
      [
        bin('porthole'),
        'history',
        'export-test',
        '--framework',
        'playwright',
        '--client',
        'claude-code',
        '--out',
        'recorded/recorded.spec.ts',
      ],
      env,
    );
    expect(pw.code, pw.output).toBe(0);
    write({
      'recorded/tsconfig.json': JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2023', 'dom'],
          types: ['node'],
        },
        files: ['recorded.spec.ts'],
      }),
    });
    const typed = await run([bin('tsc'), '-p', 'recorded/tsconfig.json']);
    expect(typed.output).toBe('');
  } finally {
    await mcp.close().catch(() => {});
    service.kill();
    await inspector.stop();
  }
});
