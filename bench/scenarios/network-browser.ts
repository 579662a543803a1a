import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { chromium, type Page } from '@playwright/test';
import { serveDebuggeePage } from '../../e2e/support/debuggee-page.js';
import { startTestCore, waitFor } from '../../electron/host/testing.js';
import type { NetworkHost } from '../../plugins/network/host/host-api.js';
import { type BenchRow, defineScenario, latencyRow, lowestPriority, stats } from '../harness.js';

const ROUNDS = 8;
const SMALL = 150;
const BIG_CALLS = 6;
const BODY = JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `item ${i}` })) });
const BIG = Buffer.alloc(2 * 1024 * 1024, 'porthole ');
const BIG_JSON = JSON.stringify({ text: 'x'.repeat(2 * 1024 * 1024 - 12) });

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/items': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(BODY),
  '/big': (_req, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(BIG),
  '/big.json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(BIG_JSON),
};

type Kind = 'fetch' | 'xhr' | 'bigFetch' | 'bigXhr';

/**
 * Browser fetch and XHR with capture (issue 11), in Chromium: the same sequential requests in a page
 * with the agent but without the network plugin (the floor) and in a page with it, each in its own
 * browser context, in rounds that alternate which goes first. Each call is timed in the page, from
 * the call to the whole body in the page's hands. The inspector's core is this process.
 */
export default defineScenario('network capture overhead in the browser', async () => {
  const t = await startTestCore();
  const served = await serveDebuggeePage(routes);
  const browser = await chromium.launch({
    executablePath: ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  // This process (the inspector's core; the pages time themselves) at the lowest CPU priority once
  // Chromium has started, so on a shared machine its work waits for the pages' (see network-interception.ts).
  lowestPriority();
  try {
    const open = async (plugins: string[], appId: string) => {
      const page = await (await browser.newContext()).newPage();
      await page.goto(served.pageUrl({ inspector: t.urls.debuggeeUrl, plugins, appId }));
      await page.locator('#status').filter({ hasText: 'connected' }).waitFor();
      return page;
    };
    const plain = await open(['example'], 'com.bench.plain');
    const captured = await open(['network'], 'com.bench.captured');
    const sessionId = await waitFor(
      () => t.core.sessions.list().find((s) => s.app.id === 'com.bench.captured')?.id,
      'the captured page',
    );
    const host = t.core.plugins.instance(sessionId, 'network') as unknown as NetworkHost;
    const settle = () => waitFor(() => host.stats().pending === 0, 'the page transactions', 30_000);

    const rows: BenchRow[] = [];
    const cases: [Kind, number, string][] = [
      ['fetch', SMALL, `browser fetch ×${SMALL}, capture only`],
      ['xhr', SMALL, `browser XHR ×${SMALL}, capture only`],
      ['bigFetch', BIG_CALLS, '2 MiB download (browser fetch), capture only'],
      ['bigXhr', BIG_CALLS, '2 MiB JSON download (browser XHR, responseText), capture only'],
    ];
    for (const [kind, n, name] of cases) {
      const times = { plain: [] as number[], captured: [] as number[] };
      const ratios: number[] = [];
      await run(plain, kind, 3);
      await run(captured, kind, 3);
      for (let r = 0; r < ROUNDS; r++) {
        const order = r % 2 === 0 ? (['plain', 'captured'] as const) : (['captured', 'plain'] as const);
        const medians = { plain: 0, captured: 0 };
        for (const side of order) {
          const own = await run(side === 'plain' ? plain : captured, kind, n);
          times[side].push(...own);
          medians[side] = stats(own).median;
          await settle();
        }
        ratios.push(medians.captured / medians.plain);
      }
      const row = latencyRow(name, stats(times.captured), `plain ${kind}`, stats(times.plain));
      row.ratio = stats(ratios).median;
      row.note = `n=${times.captured.length}, ${ROUNDS} rounds, ratio = median of the rounds' (all-sample ratio ${(stats(times.captured).median / stats(times.plain).median).toFixed(2)}x); host kept ${host.stats().count}`;
      rows.push(row);
    }
    return rows;
  } finally {
    await browser.close();
    await served.close();
    await t.stop();
  }
});

// In-page code as text: tsx would add helpers (__name) to a function's source that the page lacks.
const IN_PAGE = `async ([kind, n]) => {
  const one = () =>
    kind === 'xhr' || kind === 'bigXhr'
      ? new Promise((resolve, reject) => {
          const x = new XMLHttpRequest();
          x.open('GET', kind === 'xhr' ? '/items' : '/big.json');
          x.onload = () => resolve(x.responseText);
          x.onerror = reject;
          x.send();
        })
      : fetch(kind === 'fetch' ? '/items' : '/big').then((r) => r.arrayBuffer());
  const out = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await one();
    out.push(performance.now() - start);
  }
  return out;
}`;

/** `n` sequential calls in the page; each one's milliseconds until its whole body was read. */
function run(page: Page, kind: Kind, n: number): Promise<number[]> {
  return page.evaluate(`(${IN_PAGE})(${JSON.stringify([kind, n])})`) as Promise<number[]>;
}
