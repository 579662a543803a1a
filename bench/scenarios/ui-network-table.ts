import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { type BenchRow, defineScenario, latencyRow, stats } from '../harness.js';
import { serveBenchPage } from '../ui/serve.js';

const ROWS = 100_000;
const RENDERS = 5;
const FILTERS = 10;
const SCROLL_FRAMES = 120;
const HISTORY_CALLS = 1000;
/** Three terms, as a DevTools user types them. */
const QUERY = 'orders method:GET -status:404';

interface BenchPage {
  render(n: number): Promise<number>;
  filter(text: string): Promise<number>;
  scroll(frames: number): Promise<number[]>;
  history(n: number): Promise<number>;
  floorScreen(n: number): Promise<number>;
  floorFilter(n: number): Promise<number>;
  floorScroll(frames: number): Promise<number[]>;
}

/**
 * The window's big lists in Chromium, timed in the page up to the painted frame: the network table
 * with 100,000 transactions (mounting and ingesting them, a three-term query, scrolling frame by
 * frame) and the call history with 1,000 calls. Floors, in the same page: a screenful of plain DOM
 * rows, one hand-written filter loop plus a screenful, and scrolling a plain static list.
 */
export default defineScenario('window: network table (100k) and call history (1k)', async () => {
  const server = await serveBenchPage();
  const browser = await chromium.launch({
    executablePath: ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)),
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('crash', () => process.stderr.write('crash\n'));
    page.on('pageerror', (e) => process.stderr.write(`pageerror ${e.message}\n`));
    await page.goto(server.url);
    await page.waitForFunction(() => 'bench' in window);
    const call = <K extends keyof BenchPage>(
      method: K,
      ...args: Parameters<BenchPage[K]>
    ): Promise<Awaited<ReturnType<BenchPage[K]>>> =>
      page.evaluate(
        ([m, a]) => ((window as unknown as { bench: BenchPage }).bench[m] as (...x: unknown[]) => Promise<never>)(...a),
        [method, args] as const,
      );

    const floorScreen: number[] = [];
    const render: number[] = [];
    for (let i = 0; i < RENDERS + 1; i++) {
      floorScreen.push(await call('floorScreen', ROWS));
      render.push(await call('render', ROWS));
    }
    const floorFilter: number[] = [];
    const filter: number[] = [];
    for (let i = 0; i < FILTERS + 1; i++) {
      filter.push(await call('filter', QUERY));
      await call('filter', '');
      floorFilter.push(await call('floorFilter', ROWS));
    }
    const scroll = (await call('scroll', SCROLL_FRAMES)).slice(5);
    const floorScroll = (await call('floorScroll', SCROLL_FRAMES)).slice(5);
    const floorHistory: number[] = [];
    const history: number[] = [];
    for (let i = 0; i < RENDERS + 1; i++) {
      floorHistory.push(await call('floorScreen', HISTORY_CALLS));
      history.push(await call('history', HISTORY_CALLS));
    }
    // The first of each is a warm-up (JIT, first layout).
    const rows: BenchRow[] = [
      latencyRow(
        'render 100k rows (mount + ingest + paint)',
        stats(render.slice(1)),
        'plain DOM screenful',
        stats(floorScreen.slice(1)),
      ),
      latencyRow(
        `query "${QUERY}" over 100k rows (parse + filter + paint)`,
        stats(filter.slice(1)),
        'hand-written loop + DOM screenful',
        stats(floorFilter.slice(1)),
      ),
      latencyRow(
        'scroll the 100k table, one frame (p95 is the goal)',
        stats(scroll),
        'plain static list, same scroll',
        stats(floorScroll),
        `n=${scroll.length} frames`,
      ),
      latencyRow(
        'open the call history with 1,000 calls (mount + paint)',
        stats(history.slice(1)),
        'plain DOM screenful',
        stats(floorHistory.slice(1)),
      ),
    ];
    return rows;
  } finally {
    await browser.close();
    await server.close();
  }
});
