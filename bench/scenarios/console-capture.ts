import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { connect } from '../../agent/connection.js';
import { startTestCore, waitFor } from '../../electron/host/testing.js';
import { console as consolePlugin } from '../../plugins/console/agent/index.js';
import type { ConsoleHost } from '../../plugins/console/host/host-api.js';
import consoleHost from '../../plugins/console/host/index.js';
import type { AgentMessage } from '../../plugins/console/protocol.js';
import { type BenchRow, defineScenario, latencyRow, type Stats, stats, throughputRow } from '../harness.js';

const CALLS = 1000;
const ROOT = join(import.meta.dirname, '..', '..');
const APP = join(ROOT, 'out', 'bench', 'console-app.mjs');

/** The bench app compiled as apps ship (one esbuild bundle), so no TypeScript loader runs beside it. */
async function buildApp(): Promise<void> {
  await build({
    entryPoints: [join(ROOT, 'bench', 'console-app.ts')],
    outfile: APP,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
}

type AppResult = { wall: number[]; cpu: number[] };

/** The bench app in a process of its own, stdout to /dev/null: wall and CPU ms per 1000 console.log calls. */
function appRun(env: Record<string, string>): Promise<AppResult> {
  return new Promise((resolve, reject) => {
    const child = fork(APP, [], {
      execArgv: [],
      env: { ...process.env, PORTHOLE_URL: '', ...env },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    let result: AppResult | undefined;
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('message', (m) => (result = m as AppResult));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (result) resolve(result);
      else reject(new Error(`the bench app ended (${code}) without results`));
    });
  });
}

const PAIRS = 8;
type Cost = { plain: Stats; captured: Stats; plainCpu: Stats; capturedCpu: Stats };

/**
 * console.log cost in an app process, plain (the floor) and with the console agent capturing,
 * connected to a real core in this process: per 1000 calls, the agent's batch send included; the
 * app's CPU time (which a loaded machine inflates less than wall time) and wall time, from
 * PAIRS alternating pairs of app processes.
 */
async function logCost(
  url: string,
  sites: 'budget' | 'every' | 'off',
  caller: 'function' | 'module' = 'function',
): Promise<Cost> {
  const plain: AppResult = { wall: [], cpu: [] };
  const captured: AppResult = { wall: [], cpu: [] };
  for (let i = 0; i < PAIRS; i++) {
    const order = [
      [plain, { BENCH_CALLER: caller }],
      [captured, { PORTHOLE_URL: url, BENCH_SITES: sites, BENCH_CALLER: caller }],
    ] as const;
    for (const [into, env] of i % 2 ? [...order].reverse() : order) {
      const r = await appRun(env);
      into.wall.push(...r.wall);
      into.cpu.push(...r.cpu);
    }
  }
  return {
    plain: stats(plain.wall),
    captured: stats(captured.wall),
    plainCpu: stats(plain.cpu),
    capturedCpu: stats(captured.cpu),
  };
}

/** Host ingest: batches of 100 messages through the core's plugin routing (validation, store, events). */
async function ingest(): Promise<{ ingest: Stats; floor: Stats; n: number }> {
  const t = await startTestCore({ plugins: [consoleHost] });
  const agent = connect({
    url: t.urls.debuggeeUrl,
    app: { id: 'bench.console.ingest', name: 'Bench' },
    plugins: [consolePlugin({ errors: false, methods: [] })],
  });
  try {
    const sessionId = await waitFor(() => agent.status.sessionId, 'the bench agent');
    const host = t.core.plugins.instance(sessionId, 'console') as unknown as ConsoleHost;
    const message = (i: number): AgentMessage => ({
      kind: i % 10 === 0 ? 'warn' : 'log',
      time: Date.now(),
      args: ['request %d done', i, { $: 'object', props: { status: 200, path: `/items/${i}` } }],
      site: { file: 'http://127.0.0.1:5173/src/app.ts', line: 10 + (i % 50), column: 9, fn: 'load' },
    });
    const n = 20_000;
    const wire = Array.from({ length: n / 100 }, (_, b) =>
      JSON.stringify({
        type: 'notification',
        plugin: 'console',
        method: 'batch',
        params: { messages: Array.from({ length: 100 }, (_, i) => message(b * 100 + i)), dropped: 0 },
      }),
    );
    const floorRates: number[] = [];
    const rates: number[] = [];
    for (let round = 0; round < 5; round++) {
      let started = performance.now();
      for (const frame of wire) JSON.parse(frame);
      floorRates.push(n / ((performance.now() - started) / 1000));
      host.clear();
      started = performance.now();
      for (const frame of wire) {
        const { params } = JSON.parse(frame) as { params: unknown };
        t.core.plugins.handleNotification(sessionId, 'console', 'batch', params);
      }
      rates.push(n / ((performance.now() - started) / 1000));
      if (host.store.size !== n) throw new Error(`the host kept ${host.store.size} messages`);
    }
    return { ingest: stats(rates), floor: stats(floorRates), n };
  } finally {
    agent.disconnect();
    await t.stop();
  }
}

/** Minified, gzipped browser bundles of an app that connects, without and with console(). */
async function bundleBytes(): Promise<{ without: number; with: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'porthole-bundle-'));
  try {
    const size = async (source: string) => {
      const entry = join(dir, `entry-${Math.random().toString(36).slice(2)}.ts`);
      writeFileSync(entry, source);
      const out = await build({
        entryPoints: [entry],
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'browser',
        write: false,
        absWorkingDir: ROOT,
        nodePaths: [join(ROOT, 'node_modules')],
        logLevel: 'silent',
      });
      return gzipSync(out.outputFiles[0]!.contents, { level: 9 }).length;
    };
    const agent = JSON.stringify(join(ROOT, 'agent/index.ts'));
    const plugin = JSON.stringify(join(ROOT, 'plugins/console/agent/index.ts'));
    const without = await size(`import { connect } from ${agent};\nconnect({ app: { id: 'a', name: 'A' } });\n`);
    const withConsole = await size(
      `import { connect } from ${agent};\nimport { console as c } from ${plugin};\nconnect({ app: { id: 'a', name: 'A' }, plugins: [c()] });\n`,
    );
    return { without, with: withConsole };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export default defineScenario('console capture', async () => {
  await buildApp();
  const t = await startTestCore({ plugins: [consoleHost] });
  let loop: Awaited<ReturnType<typeof logCost>>;
  let eachSite: typeof loop;
  let moduleBody: typeof loop;
  let noSite: typeof loop;
  try {
    loop = await logCost(t.urls.debuggeeUrl, 'budget');
    eachSite = await logCost(t.urls.debuggeeUrl, 'every');
    moduleBody = await logCost(t.urls.debuggeeUrl, 'every', 'module');
    noSite = await logCost(t.urls.debuggeeUrl, 'off');
  } finally {
    await t.stop();
  }
  const host = await ingest();
  const bundle = await bundleBytes();
  const per = `per ${CALLS} console.log calls to /dev/null in a bundled Node app, batch send included`;
  const pair = (name: string, c: Cost, note: string): BenchRow[] => [
    latencyRow(`${name}: app CPU`, c.capturedCpu, 'plain console.log', c.plainCpu, `CPU ms ${per}; ${note}`),
    latencyRow(`${name}: wall`, c.captured, 'plain console.log', c.plain, `ms ${per}`),
  ];
  return [
    ...pair(
      'console.log, console() capturing',
      eachSite,
      'the defaults: a call site for every call, logged in a function',
    ),
    ...pair(
      'console.log in a module body, console() capturing',
      moduleBody,
      "the defaults, logged from the bundle's module body (the largest function there is: V8 takes longer to place a call in it)",
    ),
    ...pair(
      'console.log, call sites capped at 1000/s',
      loop,
      'maxCallSitesPerSecond: 1000 (the default before issue 39)',
    ),
    ...pair('console.log, callSite: false', noSite, 'no call sites'),
    throughputRow(
      'console host ingest (validate, store, events)',
      'msg/s',
      host.ingest,
      'JSON.parse of the frames',
      host.floor,
      `5 rounds of ${host.n} messages in batches of 100`,
    ),
    {
      scenario: 'browser bundle, connect() + console() (min+gzip)',
      unit: 'bytes',
      median: bundle.with,
      p95: bundle.with,
      floor: { name: 'connect() alone', median: bundle.without },
      ratio: bundle.with / bundle.without,
      note: `console() adds ${bundle.with - bundle.without} bytes gzip (esbuild, minified)`,
    },
  ] satisfies BenchRow[];
});
