import { fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import axios from 'axios';
import { connect } from '../../agent/connection.js';
import { waitFor } from '../../electron/host/testing.js';
import { network } from '../../plugins/network/agent/index.js';
import { hub } from '../../plugins/network/agent/observed.js';
import { type BenchRow, defineScenario, latencyRow, lowestPriority, type Stats, sample, stats } from '../harness.js';

const SEQUENTIAL = 2000;
/** Rounds of one plain and one captured block, in alternating order, so that drift hits both. */
const ROUNDS = 10;
/** Calls per block: small requests, and large downloads. */
const SMALL_PER_BLOCK = SEQUENTIAL / ROUNDS;
const PER_BLOCK = 8;
/** The large downloads' rounds: a block of eight is short, and this machine's noise is not. */
const BIG_ROUNDS = 30;
const BODY = JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `item ${i}` })) });
const MIB = 1024 * 1024;
const BIG = Buffer.alloc(2 * MIB, 'porthole ');
const BIG_JSON = Buffer.from(JSON.stringify({ text: 'x'.repeat(2 * MIB - 12) }));

export type InspectorPriority = 'niced' | 'normal';
/**
 * Where the inspector's core runs beside the app: at the lowest CPU priority (its work waits for the
 * app's, as on a machine with a core to spare) and at the normal one (it competes with the app, as
 * on a busy laptop). Both by default; PORTHOLE_BENCH_INSPECTOR=niced (or normal) runs one.
 */
const INSPECTOR_PRIORITIES = (process.env.PORTHOLE_BENCH_INSPECTOR ?? 'niced,normal')
  .split(',')
  .filter((p): p is InspectorPriority => p === 'niced' || p === 'normal');

/**
 * What capture costs the app (issue 11), against the same requests without Porthole in the same
 * run. Every row alternates blocks with capture on and off (the agent's sink leaves the hub: the
 * taps then only pass calls through; for the mock rows the rule is removed too), after a warm-up
 * with capture on (the inspector's code warms up as well), and its ratio is the median of the
 * rounds'. The same requests before network() was first called (no tap installed yet) are in each
 * note, to show that the plain blocks are Porthole-free. Besides the time until the app's code has
 * the whole body, the 2 MiB rows report the app process's CPU time per captured MiB. The agent is
 * connected to a real core in another process (bench/core-process.ts), as the inspector is in real
 * use, so what the app's process pays is the agent's share only.
 */
export default defineScenario('network capture overhead', async () => {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/big') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(BIG);
      else if (req.url === '/big.json') res.writeHead(200, { 'content-type': 'application/json' }).end(BIG_JSON);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(BODY);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const keepAlive = new http.Agent({ keepAlive: true });
  const viaFetch = async () => {
    await (await fetch(`${base}/items`)).text();
  };
  // The app's code has the whole body when its 'end' handler runs (as axios, got and others wait for).
  const viaHttp =
    (path = '/items') =>
    () =>
      new Promise<void>((resolve, reject) => {
        http
          .get(`${base}${path}`, { agent: keepAlive }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve(void Buffer.concat(chunks)));
          })
          .on('error', reject);
      });
  const viaAxios = async () => {
    await axios.get(`${base}/items`, { httpAgent: keepAlive });
  };
  const bigFetch = async () => {
    await (await fetch(`${base}/big`)).arrayBuffer();
  };
  const small = { fetch: viaFetch, http: viaHttp(), axios: viaAxios };
  const big = { bigHttp: viaHttp('/big'), bigFetch, bigJson: viaHttp('/big.json') };
  try {
    // The same requests before any tap exists, to show the alternating blocks' floor is Porthole-free.
    const untapped = {
      fetch: await sample(small.fetch, SEQUENTIAL / 4),
      http: await sample(small.http, SEQUENTIAL / 4),
      axios: await sample(small.axios, SEQUENTIAL / 8),
      bigHttp: await sample(big.bigHttp, 20, 3),
      bigFetch: await sample(big.bigFetch, 20, 3),
    };

    const rows: BenchRow[] = [];
    const last = INSPECTOR_PRIORITIES.length - 1;
    for (const [i, priority] of INSPECTOR_PRIORITIES.entries())
      rows.push(...(await measure(priority, i === 0, i === last)));
    return rows;

    /**
     * One run of the rows with the inspector's core at `priority`; `full`: the rows measured once too;
     * `last`: the heap rows too (they attach an inspector session to this process, so they come last).
     */
    async function measure(priority: InspectorPriority, full: boolean, last: boolean): Promise<BenchRow[]> {
      const core = await coreProcess(priority);
      const plugin = network({ maxBodyBytes: 4 * MIB });
      const agent = connect({ url: core.url, app: { id: 'bench', name: 'Bench' }, plugins: [plugin] });
      try {
        await waitFor(() => agent.status.sessionId, 'the bench agent');
        const settle = () => core.call('settle') as Promise<{ count: number; dropped: number; cpuMs: number }>;
        const sinks = [...hub().sinks];
        const capture = async (kind: Kind) => {
          if (kind === 'plain') hub().sinks.clear();
          else for (const s of sinks) hub().sinks.add(s);
        };
        const smallRuns = (fn: () => Promise<void>, perBlock: number) =>
          alternating(fn, { perBlock, settle, enter: capture, warmup: 5 * perBlock });
        const captured = {
          fetch: await smallRuns(small.fetch, SMALL_PER_BLOCK),
          http: await smallRuns(small.http, SMALL_PER_BLOCK),
          axios: await smallRuns(small.axios, SMALL_PER_BLOCK / 2),
        };
        // Counted before the large bodies: those go past the session's bound on body characters
        // (transaction-store.ts), and the host drops the oldest transactions, these first.
        const smallKept = await settle();
        const bigRuns = (fn: () => Promise<void>, mibPerCall: number) =>
          alternating(fn, { perBlock: PER_BLOCK, rounds: BIG_ROUNDS, settle, enter: capture, mibPerCall });
        const downloads = {
          bigHttp: await bigRuns(big.bigHttp, 2),
          bigFetch: await bigRuns(big.bigFetch, 2),
          bigJson: await bigRuns(big.bigJson, BIG_JSON.byteLength / MIB),
        };
        const stored = (await core.call('lastBody')) as { encoding: string; size: number; chars: number } | undefined;
        const cut = (await core.call('cutBodies')) as number;
        const load = loadavg()[0]!.toFixed(1);
        const mark = ` [inspector ${priority}]`;
        const captureRows = [
          ...pairedRows(
            `Node fetch ×${SEQUENTIAL}, capture only${mark}`,
            captured.fetch,
            'plain fetch',
            untapped.fetch,
          ),
          ...pairedRows(`http.get ×${SEQUENTIAL}, capture only${mark}`, captured.http, 'plain http.get', untapped.http),
          ...pairedRows(`axios ×${SEQUENTIAL / 2}, capture only${mark}`, captured.axios, 'plain axios', untapped.axios),
          ...pairedRows(
            `2 MiB download (http.get), capture only${mark}`,
            downloads.bigHttp,
            'plain http.get',
            untapped.bigHttp,
          ),
          ...pairedRows(
            `2 MiB download (fetch), capture only${mark}`,
            downloads.bigFetch,
            'plain fetch',
            untapped.bigFetch,
          ),
        ];
        // The rows below do not depend on where the inspector runs: measured once, in the first run.
        if (last) {
          captureRows.push(
            allocationRow('Node fetch', await allocatedPerCall(small.fetch, capture)),
            allocationRow('http.get', await allocatedPerCall(small.http, capture)),
          );
        }
        if (!full) return captureRows;
        const appThread = await appThreadPerMiB();

        // Blocks with a rule that matches none of the requests (the mock path engaged), against blocks
        // without rules and without capture.
        const mockRule = async (kind: Kind) => {
          await capture(kind);
          await core.call(kind === 'plain' ? 'removeMockRules' : 'addMockRule');
          await waitFor(() => plugin.mockConfig().rules.length === (kind === 'plain' ? 0 : 1), 'the rules in the app');
        };
        const mockRuns = (fn: () => Promise<void>) =>
          alternating(fn, { perBlock: SMALL_PER_BLOCK, settle, enter: mockRule, warmup: SMALL_PER_BLOCK });
        const mocked = { fetch: await mockRuns(small.fetch), http: await mockRuns(small.http) };
        await settle();
        const kept = await settle();
        const note = `; host kept ${smallKept.count} (dropped ${smallKept.dropped}); after the large bodies: kept ${kept.count}, dropped ${kept.dropped} (store bound on body characters)`;
        const mockNote = '; a mock rule is active that matches none of these (interception engaged), against no rule';
        captureRows[0]!.note += note;
        return [
          ...captureRows,
          ...pairedRows(
            `2 MiB JSON download (http.get), capture only${mark}`,
            downloads.bigJson,
            'plain http.get',
            undefined,
            `; stored as ${stored?.encoding}, ${stored?.size} bytes; bodies recorded as cut: ${cut}`,
          ),
          ...pairedRows(
            `Node fetch, mock rules active, no match${mark}`,
            mocked.fetch,
            'plain fetch',
            untapped.fetch,
            mockNote,
          ),
          ...pairedRows(
            `http.get, mock rules active, no match${mark}`,
            mocked.http,
            'plain http.get',
            untapped.http,
            mockNote,
          ),
          latencyRow(
            'app-thread ms per captured MiB (binary)',
            appThread.binary,
            'app-thread ms per MiB (text)',
            appThread.text,
            `complete() to the end of the task it defers (body, frame, socket write), on the app thread; the ratio only compares the two; load average ${load} on ${availableParallelism()} cores`,
          ),
        ];
      } finally {
        plugin.dispose();
        agent.disconnect();
        await core.stop();
      }
    }
  } finally {
    keepAlive.destroy();
    server.closeAllConnections();
    server.close();
  }
});

interface Alternated {
  plain: Stats;
  captured: Stats;
  /** The median over rounds of captured median / plain median within the round. */
  pairedRatio: number;
  /** The app process's CPU time (user + system, every thread) per captured MiB, over plain's. */
  cpuPerMiB: number;
  /** CPU time per call, captured over plain (the notifications' work batched after the calls included). */
  cpuRatio: number;
  /** The captured calls' total time over the plain ones' (a mean, where the batched work shows). */
  totalRatio: number;
  /** Whole blocks: mean ms per call, and the app process's CPU ms per call (both kinds). */
  mean: Record<Kind, number>;
  cpuPerCall: Record<Kind, number>;
  /** The inspector's CPU time per captured MiB (its process, while it took in the captured blocks). */
  inspectorCpuPerMiB: number;
  /** MiB captured in all (0 for rows whose bodies are small: they report no CPU per MiB). */
  mib: number;
  rounds: number;
}

type Kind = 'plain' | 'captured';

interface Blocks {
  perBlock: number;
  settle: () => Promise<{ cpuMs: number }>;
  /** Puts the app in the block's state (capture on or off, a mock rule or none). */
  enter: (kind: Kind) => Promise<void>;
  /** For the CPU per captured MiB. */
  mibPerCall?: number;
  /** Untimed captured calls before the first round. */
  warmup?: number;
  rounds?: number;
}

/**
 * Runs `fn` in `rounds` (ROUNDS unless given) rounds of a plain and a captured block (ABBA order),
 * `perBlock` timed calls each after one untimed. A block's CPU time counts to the end of the task its last call's capture
 * deferred; the host stores everything (`settle`) before the next block starts.
 */
async function alternating(
  fn: () => Promise<void>,
  { perBlock, settle, enter, mibPerCall = 0, warmup = 0, rounds = ROUNDS }: Blocks,
) {
  const times = { plain: [] as number[], captured: [] as number[] };
  const cpu = { plain: 0, captured: 0, inspector: 0 };
  const ratios: number[] = [];
  if (warmup) {
    await enter('captured');
    for (let i = 0; i < warmup; i++) await fn();
  }
  const block = async (kind: Kind) => {
    await enter(kind);
    await fn();
    const inspectorBefore = (await settle()).cpuMs;
    const own: number[] = [];
    const before = process.cpuUsage();
    for (let i = 0; i < perBlock; i++) {
      const start = performance.now();
      await fn();
      own.push(performance.now() - start);
    }
    // The notifications the last calls made have left (agent/outbox.ts holds them up to 10 ms).
    await new Promise((resolve) => setTimeout(resolve, 15));
    const used = process.cpuUsage(before);
    cpu[kind] += (used.user + used.system) / 1000;
    times[kind].push(...own);
    const inspectorAfter = (await settle()).cpuMs;
    if (kind === 'captured') cpu.inspector += inspectorAfter - inspectorBefore;
    return stats(own).median;
  };
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? (['plain', 'captured'] as const) : (['captured', 'plain'] as const);
    const medians = { plain: 0, captured: 0 };
    for (const kind of order) medians[kind] = await block(kind);
    ratios.push(medians.captured / medians.plain);
  }
  await enter('captured');
  const mib = rounds * perBlock * mibPerCall;
  return {
    plain: stats(times.plain),
    captured: stats(times.captured),
    pairedRatio: stats(ratios).median,
    cpuPerMiB: mib ? (cpu.captured - cpu.plain) / mib : 0,
    cpuRatio: cpu.captured / cpu.plain,
    totalRatio: sum(times.captured) / sum(times.plain),
    mean: { plain: sum(times.plain) / times.plain.length, captured: sum(times.captured) / times.captured.length },
    cpuPerCall: { plain: cpu.plain / times.plain.length, captured: cpu.captured / times.captured.length },
    inspectorCpuPerMiB: mib ? cpu.inspector / mib : 0,
    mib,
    rounds,
  } satisfies Alternated;
}

/**
 * Two rows for alternating blocks, headed by what the app pays in all: the whole blocks' time (the
 * mean per call, where the notifications' batched work shows) and the app process's CPU time, each
 * captured over plain. The per-request medians (and the median of the rounds' ratios) are beside,
 * in the note.
 */
function pairedRows(
  scenario: string,
  d: Alternated,
  floorName: string,
  untapped: Stats | undefined,
  extra = '',
): BenchRow[] {
  const before = untapped ? `; plain before any tap ${untapped.median.toFixed(2)} ms` : '';
  const perMiB = d.mib
    ? `; +${d.cpuPerMiB.toFixed(2)} ms app CPU per captured MiB, inspector CPU ${d.inspectorCpuPerMiB.toFixed(1)} ms per MiB`
    : '';
  const time: BenchRow = {
    scenario,
    unit: 'ms',
    median: d.mean.captured,
    p95: d.captured.p95,
    floor: { name: `${floorName} (whole blocks)`, median: d.mean.plain },
    ratio: d.totalRatio,
    note: `whole blocks, mean per call; per request: median ${d.captured.median.toFixed(3)} vs ${d.plain.median.toFixed(3)} ms, ${d.pairedRatio.toFixed(2)}x (median of the rounds' ratios); n=${d.captured.samples}, ${d.rounds} rounds${before}${extra}`,
  };
  const cpu: BenchRow = {
    scenario: '  app CPU, whole blocks',
    unit: 'ms',
    median: d.cpuPerCall.captured,
    p95: d.cpuPerCall.captured,
    floor: { name: `${floorName} (app CPU)`, median: d.cpuPerCall.plain },
    ratio: d.cpuRatio,
    note: `the app process's CPU (user + system, every thread) per call, to the end of the work each block's capture deferred${perMiB}`,
  };
  return [time, cpu];
}

/**
 * The time on the app's thread to hand a captured 1 MiB body to the inspector (base64 or text, the
 * notification's validation, the frame's JSON, the socket write), from complete() to the end of the
 * task it defers; the inspector's side runs on its own thread.
 */
async function appThreadPerMiB() {
  const measure = async (type: string, body: Uint8Array) => {
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      const obs = hub().observe({ initiator: 'http', method: 'GET', url: 'http://bench.test/body', headers: [] })!;
      obs.response({ status: 200, statusText: 'OK', headers: [['content-type', type]] });
      const started = performance.now();
      obs.complete({ body: { chunks: [body], kept: body.byteLength, total: body.byteLength, cut: false } });
      await new Promise((resolve) => setImmediate(resolve)); // the deferred encode and send ran before this
      times.push(performance.now() - started);
    }
    return stats(times.slice(3));
  };
  const binary = Uint8Array.from({ length: MIB }, (_, i) => (i * 31) & 0xff);
  const text = new TextEncoder().encode('x'.repeat(MIB));
  return { binary: await measure('application/octet-stream', binary), text: await measure('text/plain', text) };
}

/**
 * The app's heap bytes allocated per call, plain and captured, each the median of three blocks
 * (V8's sampling heap profiler, a sample every 512 bytes, objects already collected included). Unlike
 * the timings it does not move with the machine's load: it shows what a change to the capture's path
 * costs the app's collector.
 */
async function allocatedPerCall(fn: () => Promise<void>, enter: (kind: Kind) => Promise<void>, calls = 400) {
  const { Session } = await import('node:inspector');
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r as T))));
  interface Node {
    selfSize: number;
    children: Node[];
  }
  const total = (n: Node): number => n.children.reduce((sum, c) => sum + total(c), n.selfSize);
  const block = async (kind: Kind) => {
    await enter(kind);
    for (let i = 0; i < 20; i++) await fn();
    await post('HeapProfiler.startSampling', {
      samplingInterval: 512,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    for (let i = 0; i < calls; i++) await fn();
    await new Promise((resolve) => setTimeout(resolve, 15)); // the batch the last calls made has left
    const { profile } = await post<{ profile: { head: Node } }>('HeapProfiler.stopSampling');
    return total(profile.head) / calls;
  };
  try {
    await post('HeapProfiler.enable');
    const bytes = { plain: [] as number[], captured: [] as number[] };
    for (let r = 0; r < 3; r++) for (const kind of ['plain', 'captured'] as const) bytes[kind].push(await block(kind));
    return { plain: stats(bytes.plain).median, captured: stats(bytes.captured).median, calls };
  } finally {
    await post('HeapProfiler.disable').catch(() => {});
    session.disconnect();
    await enter('captured');
  }
}

function allocationRow(name: string, a: { plain: number; captured: number; calls: number }): BenchRow {
  return {
    scenario: `  app heap allocated per ${name}`,
    unit: 'KB',
    median: a.captured / 1024,
    p95: a.captured / 1024,
    floor: { name: `plain ${name} (heap)`, median: a.plain / 1024 },
    ratio: a.captured / a.plain,
    note: `bytes the app's code allocates per call (V8's sampling heap profiler, collected objects included), median of 3 blocks of ${a.calls}; captured − plain = ${((a.captured - a.plain) / 1024).toFixed(1)} KB per call; does not depend on the machine's load`,
  };
}

/** bench/core-process.ts, forked: the inspector's core in its own process, driven over IPC. */
export async function coreProcess(priority: InspectorPriority = 'niced') {
  const child = fork(fileURLToPath(new URL('../core-process.ts', import.meta.url)), {
    // CORE_PROF=<dir>: the core's CPU profile, written there when it stops (`node --cpu-prof`).
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.CORE_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CORE_PROF}`] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // The lowest CPU priority: on a machine with fewer free cores than busy processes (this one is
  // shared), the inspector's work then waits for the app's instead of preempting it, as on a machine
  // with a core to spare for it. Its CPU time is reported apart (inspector CPU per MiB).
  if (child.pid && priority === 'niced') lowestPriority(child.pid);
  let next = 1;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const url = await new Promise<string>((resolve, reject) => {
    child.on('message', (m: { ready?: string; id?: number; result?: unknown; error?: string }) => {
      if (m.ready) return resolve(m.ready);
      const w = waiting.get(m.id!);
      waiting.delete(m.id!);
      if (m.error) w?.reject(new Error(m.error));
      else w?.resolve(m.result);
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the bench core exited (${code})`)));
  });
  if (child.pid && priority === 'niced') lowestPriority(child.pid); // and the threads it started meanwhile
  const call = (cmd: string) =>
    new Promise<unknown>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      child.send({ id, cmd });
    });
  return {
    url,
    call,
    stop: async () => {
      await call('stop').catch(() => {});
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
