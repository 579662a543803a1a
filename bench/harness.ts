import { fork } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
/** One line of the bench table: a measured figure beside a floor measured in the same run. */
export interface BenchRow {
  scenario: string;
  unit: string;
  median: number;
  p95: number;
  floor: { name: string; median: number };
  /** median / floor median (for throughputs, floor / median: higher is always worse). */
  ratio: number;
  note?: string;
}

/** A scenario module in bench/scenarios/ default-exports one of these. */
export interface Scenario {
  name: string;
  run(): Promise<BenchRow[]>;
}

export function defineScenario(name: string, run: () => Promise<BenchRow[]>): Scenario {
  return { name, run };
}

export interface Stats {
  median: number;
  p95: number;
  samples: number;
}

export function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5), p95: at(0.95), samples: sorted.length };
}

/** Times `fn` `iterations` times after `warmup` untimed runs; returns milliseconds per run. */
export async function sample(
  fn: () => Promise<unknown> | unknown,
  iterations: number,
  warmup = Math.ceil(iterations / 10),
) {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return stats(times);
}

/** A row for a latency: lower is better, ratio = median / floor median. */
export function latencyRow(
  scenario: string,
  measured: Stats,
  floorName: string,
  floor: Stats,
  note?: string,
): BenchRow {
  return row(scenario, 'ms', measured, floorName, floor, measured.median / floor.median, note);
}

/** A row for a throughput: higher is better, so ratio = floor median / median (still "x times worse"). */
export function throughputRow(
  scenario: string,
  unit: string,
  measured: Stats,
  floorName: string,
  floor: Stats,
  note?: string,
): BenchRow {
  return row(scenario, unit, measured, floorName, floor, floor.median / measured.median, note);
}

function row(
  scenario: string,
  unit: string,
  measured: Stats,
  floorName: string,
  floor: Stats,
  ratio: number,
  note = `n=${measured.samples}`,
): BenchRow {
  const { median, p95 } = measured;
  return { scenario, unit, median, p95, floor: { name: floorName, median: floor.median }, ratio, note };
}

export function formatTable(rows: BenchRow[]): string {
  const header = ['scenario', 'median', 'p95', 'floor', 'floor median', 'ratio', 'note'];
  const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toFixed(3));
  const lines = rows.map((r) => [
    r.scenario,
    `${fmt(r.median)} ${r.unit}`,
    `${fmt(r.p95)} ${r.unit}`,
    r.floor.name,
    `${fmt(r.floor.median)} ${r.unit}`,
    `${r.ratio.toFixed(2)}x`,
    r.note ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [row(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(row)].join('\n');
}

/**
 * The lowest CPU priority (nice 19) for every thread of process `pid` (0: this one). On Linux a
 * priority is a thread's: set on the process id alone, it leaves the threads started before it
 * (V8's garbage collection helpers, libuv's file I/O pool) at the default.
 */
export function lowestPriority(pid = process.pid): void {
  let threads: number[] = [];
  try {
    threads = readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    // not Linux: the process's own priority
  }
  for (const id of threads.length ? threads : [pid]) {
    try {
      setPriority(id, 19);
    } catch {
      // a thread that has ended
    }
  }
}

/**
 * Forks `file` (a bench app) with `env` added and resolves with the one message it sends; its stderr
 * is in the error when it ends without one (or is killed after 2 minutes).
 */
export function appProcess<T>(
  file: string,
  env: Record<string, string>,
  what: string,
  flags: string[] = [],
): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(file, [], {
      env: { ...process.env, ...env },
      execArgv: [...process.execArgv, ...flags],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let err = '';
    let result: T | undefined;
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.stderr!.on('data', (d) => (err += d));
    child.on('message', (m) => (result = m as T));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (result !== undefined) resolve(result);
      else reject(new Error(`${what} ended (${code}) without results:\n${err}`));
    });
  });
}
