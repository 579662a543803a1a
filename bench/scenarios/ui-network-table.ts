import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { chromium } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { type BenchRow, defineScenario, latencyRow, stats } from '../harness.js';

const ROWS = 100_000;
const RENDERS = 5;
const FILTERS = 10;
const ROOT = join(import.meta.dirname, '../..');
const OUT = join(ROOT, 'out/bench-ui');
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

interface BenchPage {
  render(n: number): Promise<number>;
  filter(text: string): Promise<number>;
  floorScreen(n: number): Promise<number>;
  floorFilter(n: number, text: string): Promise<number>;
}

/**
 * The network panel's table in Chromium with 100,000 transactions, timed in the page up to the
 * painted frame: mounting it and ingesting them, and applying a URL filter. Floors, in the same
 * page: a screenful of plain DOM rows (for the render), and Array.filter over the URLs plus a
 * screenful of plain DOM (for the filter).
 */
export default defineScenario('window: network table, 100k transactions', async () => {
  await build({
    root: join(ROOT, 'bench/ui'),
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: OUT, emptyOutDir: true, rollupOptions: { input: join(ROOT, 'bench/ui/network-table.html') } },
  });
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = normalize(join(OUT, path));
    if (!file.startsWith(OUT) || !existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await chromium.launch({
    executablePath: ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)),
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('crash', () => process.stderr.write('crash\n'));
    page.on('pageerror', (e) => process.stderr.write(`pageerror ${e.message}\n`));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/network-table.html`);
    await page.waitForFunction(() => 'bench' in window);
    const call = <K extends keyof BenchPage>(method: K, ...args: Parameters<BenchPage[K]>) =>
      page.evaluate(
        ([m, a]) =>
          ((window as unknown as { bench: BenchPage }).bench[m] as (...x: unknown[]) => Promise<number>)(...a),
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
      filter.push(await call('filter', i % 2 === 0 ? 'orders/1' : ''));
      floorFilter.push(await call('floorFilter', ROWS, 'orders/1'));
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
        'apply a URL filter over 100k rows',
        stats(filter.slice(1)),
        'Array.filter + DOM screenful',
        stats(floorFilter.slice(1)),
      ),
    ];
    return rows;
  } finally {
    await browser.close();
    server.closeAllConnections();
    server.close();
  }
});
