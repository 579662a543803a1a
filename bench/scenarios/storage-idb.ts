import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { serveDebuggeePage } from '../../e2e/support/debuggee-page.js';
import { startTestCore, waitFor } from '../../electron/host/testing.js';
import type { StorageHost } from '../../plugins/storage/host/host-api.js';
import { type BenchRow, defineScenario, lowestPriority, stats } from '../harness.js';

const RECORDS = 2500;
const RECORD_CHARS = 20_000; // 2,500 × 20,000 characters ≈ 50 MB of values
const ROUNDS = 3;

/**
 * Reading a 50 MB IndexedDB store through the storage plugin, in Chromium: the longest the page's
 * thread is blocked at a time (issue 34: ≤ 16 ms), while the inspector pages through every key
 * (storage_list's pages of 100, with sizes and previews) and every record (storage_get's ranges of
 * 20). Chromium's own trace gives every task of the page's main thread with its thread time (the
 * CPU it spent, not the time it waited for a CPU on a busy machine) and its wall time. The floor:
 * the page reading the same store with its own cursor. The inspector's core is this process.
 */
export default defineScenario('storage: a 50 MB IndexedDB store read in steps', async () => {
  const t = await startTestCore();
  const served = await serveDebuggeePage();
  const browser = await chromium.launch({
    executablePath: ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  lowestPriority();
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(
      served.pageUrl({ inspector: t.urls.debuggeeUrl, plugins: ['storage'], appId: 'com.bench.storage' }),
    );
    await page.locator('#status').filter({ hasText: 'connected' }).waitFor();
    const sessionId = await waitFor(
      () => t.core.sessions.list().find((s) => s.app.id === 'com.bench.storage')?.id,
      'the page',
    );
    const host = t.core.plugins.instance(sessionId, 'storage') as unknown as StorageHost;
    await page.evaluate(`(${FILL})(${RECORDS}, ${RECORD_CHARS})`);
    const area = 'indexedDB/bench/records';
    const listed = (await host.areas()).find((a) => a.area === area);
    if (listed?.count !== RECORDS) throw new Error(`the store holds ${listed?.count} records, not ${RECORDS}`);

    const listAll = async () => {
      let after: string | undefined;
      let pages = 0;
      do {
        after = (await host.keys({ area, after, limit: 100 })).after;
        pages++;
      } while (after !== undefined);
      return pages;
    };
    const readAll = async () => {
      let after: string | undefined;
      let pages = 0;
      do {
        after = (await host.get({ area, key: '0', to: String(RECORDS), after, limit: 20, maxChars: 1000 })).after;
        pages++;
      } while (after !== undefined);
      return pages;
    };
    const cases: [string, () => Promise<unknown>][] = [
      ['the page reads it with its own cursor (floor)', () => page.evaluate(`(${OWN_READ})()`)],
      ['storage_list pages through every key (100 a page, sizes, previews)', listAll],
      ['storage_get ranges through every record (20 a page)', readAll],
    ];
    // Once untimed: the readers load and compile on the first question.
    await host.keys({ area, limit: 5 });
    await host.get({ area, key: '0', to: '5', maxChars: 1000 });
    const longest = new Map<string, { cpu: number[]; wall: number[]; gc: number[]; p99: number[] }>(
      cases.map(([name]) => [name, { cpu: [], wall: [], gc: [], p99: [] }]),
    );
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, run] of cases) {
        await browser.startTracing(page, {
          categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8'],
        });
        await run();
        const tasks = mainThreadTasks(JSON.parse((await browser.stopTracing()).toString('utf8')));
        const record = longest.get(name)!;
        const steps = tasks.filter((task) => !task.gc);
        record.cpu.push(Math.max(...steps.map((task) => task.cpu)));
        record.p99.push(
          quantile(
            steps.map((task) => task.cpu),
            0.99,
          ),
        );
        record.wall.push(Math.max(...steps.map((task) => task.wall)));
        record.gc.push(Math.max(0, ...tasks.filter((task) => task.gc).map((task) => task.cpu)));
      }
    }
    const floorName = cases[0]![0];
    const floor = stats(longest.get(floorName)!.cpu);
    return cases.slice(1).map(([name]): BenchRow => {
      const { cpu, wall, gc, p99 } = longest.get(name)!;
      const measured = stats(cpu);
      return {
        scenario: `IndexedDB 50 MB, longest task on the page's thread: ${name}`,
        unit: 'ms',
        median: measured.median,
        p95: Math.max(...cpu),
        floor: { name: 'the page’s own cursor read', median: floor.median },
        ratio: measured.median / floor.median,
        note: `must be ≤ 16 ms; thread time of the longest task (Chromium's trace) that collected no garbage; median of ${ROUNDS} rounds, p95 column the worst; 99% of its tasks under ${stats(p99).median.toFixed(1)} ms. Longest task with garbage collection ${stats(gc).median.toFixed(0)} ms (floor ${stats(longest.get(floorName)!.gc).median.toFixed(0)} ms); longest wall time ${stats(wall).median.toFixed(0)} ms (waiting for a CPU included)`,
      };
    });
  } finally {
    await browser.close();
    await served.close();
    await t.stop();
  }
});

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

// In-page code as text: tsx would add helpers (__name) to a function's source that the page lacks.

/** Fills database "bench", store "records": `n` records of about `chars` characters each, in batches. */
const FILL = `async (n, chars) => {
  const db = await new Promise((resolve, reject) => {
    const r = indexedDB.open('bench', 1);
    r.onupgradeneeded = () => r.result.createObjectStore('records');
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  const text = 'porthole '.repeat(Math.ceil(chars / 9)).slice(0, chars);
  for (let i = 0; i < n; i += 250) {
    await new Promise((resolve, reject) => {
      const tx = db.transaction('records', 'readwrite');
      const store = tx.objectStore('records');
      for (let j = i; j < Math.min(n, i + 250); j++) {
        store.put({ id: j, title: 'record ' + j, tags: ['a', 'b', j % 7], body: text, at: new Date(j * 1000) }, j);
      }
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
  }
  db.close();
}`;

/** The page's own read of every record, one cursor step at a time. */
const OWN_READ = `async () => {
  const db = await new Promise((resolve) => {
    const r = indexedDB.open('bench');
    r.onsuccess = () => resolve(r.result);
  });
  let chars = 0;
  await new Promise((resolve, reject) => {
    const request = db.transaction('records').objectStore('records').openCursor();
    request.onsuccess = () => {
      const cursor = request.result;
      if (!cursor) return resolve();
      chars += cursor.value.body.length;
      cursor.continue();
    };
    request.onerror = () => reject(request.error);
  });
  db.close();
  return chars;
}`;

interface TraceEvent {
  ph: string;
  name: string;
  ts: number;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; src_file?: string };
}

/**
 * The outermost tasks of the renderer's main thread, in ms of thread time (`cpu`) and wall time;
 * `gc`: V8 or Blink collected garbage in it (or posted it to do so). Garbage collection is the
 * browser's, whoever made the garbage: the floor has it too.
 */
function mainThreadTasks(trace: { traceEvents: TraceEvent[] }): { cpu: number; wall: number; gc: boolean }[] {
  const main = trace.traceEvents.filter(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  );
  const threads = new Set(main.map((e) => `${e.pid}:${e.tid}`));
  const events = trace.traceEvents.filter((e) => e.ph === 'X' && threads.has(`${e.pid}:${e.tid}`));
  const runs = events.filter((e) => /RunTask$/.test(e.name)).sort((a, b) => a.ts - b.ts);
  const inside = (outer: TraceEvent, e: TraceEvent) => e.ts >= outer.ts && e.ts < outer.ts + (outer.dur ?? 0);
  const tasks: { cpu: number; wall: number; gc: boolean }[] = [];
  let current: TraceEvent | undefined;
  for (const run of runs) {
    if (current && inside(current, run)) continue;
    current = run;
    const nested = events.filter((e) => inside(run, e));
    const gc = nested.some(
      (e) =>
        /(^|\/)v8\/src\/heap\//.test(e.args?.src_file ?? '') || /^(MinorGC|MajorGC|V8\.GC|CppGC|BlinkGC)/.test(e.name),
    );
    tasks.push({ cpu: (run.tdur ?? run.dur ?? 0) / 1000, wall: (run.dur ?? 0) / 1000, gc });
  }
  if (tasks.length === 0) throw new Error("the trace has no task of the page's main thread");
  return tasks;
}
