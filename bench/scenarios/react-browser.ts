import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import { build } from 'esbuild';
import { type BenchRow, defineScenario, latencyRow, lowestPriority, stats } from '../harness.js';

// The react plugin's cost in Chromium: a 1,000-component app re-rendering (each commit timed in the
// page) with the plugin counting renders against the same app without Porthole, each in its own
// page, in rounds that alternate which goes first; then react_tree's time on the page's thread.

const ROOT = join(import.meta.dirname, '../..');
const ROUNDS = 16;
const PER_ROUND = 20;

/** bench/react/<entry>.ts as one script for the page, React's development or production build. */
async function bundle(entry: 'plain' | 'watched', mode: 'development' | 'production'): Promise<string> {
  const out = await build({
    entryPoints: [join(ROOT, 'bench/react', `${entry}.ts`)],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    minify: mode === 'production',
    define: { 'process.env.NODE_ENV': JSON.stringify(mode) },
    logLevel: 'error',
  });
  return out.outputFiles[0]!.text;
}

async function open(browser: Browser, script: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.setContent('<!doctype html><html><body><div id="root"></div></body></html>');
  await page.addScriptTag({ content: script });
  return page;
}

const commits = (page: Page, n: number) =>
  page.evaluate(
    (rounds) => (window as unknown as { bench: { commits(r: number): number[] } }).bench.commits(rounds),
    n,
  );

export default defineScenario('react plugin in Chromium', async () => {
  const browser = await chromium.launch({
    executablePath: ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  lowestPriority();
  const rows: BenchRow[] = [];
  try {
    for (const mode of ['development', 'production'] as const) {
      const plain = await open(browser, await bundle('plain', mode));
      const watched = await open(browser, await bundle('watched', mode));
      await commits(plain, PER_ROUND);
      await commits(watched, PER_ROUND);
      const a: number[] = [];
      const b: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 ? ([plain, watched] as const) : ([watched, plain] as const);
        for (const page of order) (page === plain ? a : b).push(...(await commits(page, PER_ROUND)));
      }
      rows.push(
        latencyRow(
          `react in Chromium: commit of 1,000 components re-rendering (${mode})`,
          stats(b),
          'the same page without Porthole',
          stats(a),
          `n=${b.length}; must be ≤ 1.2x, goal 1.05x`,
        ),
      );
      if (mode === 'development') {
        const bench = (p: object) =>
          watched.evaluate(
            (params) =>
              (window as unknown as { bench: { tree(p: object): Promise<{ ms: number; bytes: number }> } }).bench.tree(
                params,
              ),
            p,
          );
        for (const [what, params] of [
          ['default (150 lines)', { depth: 40, limit: 150, hosts: false }],
          ['the panel (2,000 lines, hosts)', { depth: 200, limit: 2000, hosts: true }],
        ] as const) {
          await bench(params);
          const times: number[] = [];
          let bytes = 0;
          for (let i = 0; i < 30; i++) {
            const answer = await bench(params);
            times.push(answer.ms);
            bytes = answer.bytes;
          }
          const floor = stats(a);
          rows.push(
            latencyRow(
              `react_tree in Chromium, 5,002 fibers: ${what}`,
              stats(times),
              'one commit of the app without Porthole',
              floor,
              `on the page's thread; answer ${(bytes / 1024).toFixed(1)} KB`,
            ),
          );
        }
      }
      await plain.context().close();
      await watched.context().close();
    }
  } finally {
    await browser.close();
  }
  return rows;
});
