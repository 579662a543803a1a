import { existsSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';
import { serveDebuggeePage } from '../../e2e/support/debuggee-page.js';
import { serveUiApps } from '../../e2e/support/ui-apps.js';
import { startTestCore, waitFor } from '../../electron/host/testing.js';
import type { UiHost } from '../../plugins/ui/host/index.js';
import { type BenchRow, defineScenario, latencyRow, lowestPriority, sample, stats } from '../harness.js';

const SNAPSHOTS = 60;
const ACTS = 300;
const ROUNDS = 8;
const FETCHES = 150;

/**
 * The ui plugin (issue 31), in Chromium against a core in this process:
 * - ui_snapshot of a 5,000-element page: the page thread's time (measured in the page) against a
 *   plain walk of document.querySelectorAll('*') in the same page;
 * - a ui_act click's round trip through the tool runner against example_send_ping's, same page;
 * - the ui + actions, react, state and storage plugins, each loaded and idle: fetch in a page with
 *   network + those against one with network alone (the network bench's floor), alternating rounds.
 */
export default defineScenario('ui plugin', async () => {
  const t = await startTestCore();
  const apps = await serveUiApps();
  const served = await serveDebuggeePage({
    '/items': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[1,2,3]}'),
  });
  const browser = await chromium.launch({
    executablePath: ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  lowestPriority();
  try {
    const rows: BenchRow[] = [];
    const page = await (await browser.newContext()).newPage();
    await page.goto(apps.url('big', t.urls.debuggeeUrl, { plugins: 'ui,example' }));
    await page.waitForFunction(() => document.getElementById('porthole-status')?.textContent === 'connected');
    const sessionId = await waitFor(() => t.core.sessions.list().find((s) => s.active)?.id, 'the page');
    const host = t.core.plugins.instance(sessionId, 'ui') as unknown as UiHost;
    const elements = await page.evaluate(() => document.querySelectorAll('*').length);

    const walk = await inPage(page, SNAPSHOTS);
    const snap = async (limit: number, maxChars: number) => {
      const times: number[] = [];
      for (let i = 0; i < SNAPSHOTS + 5; i++) {
        const o = await host.outline({ limit, maxChars });
        if (i >= 5) times.push(o.ms);
      }
      return stats(times);
    };
    const byDefault = await snap(400, 11_500);
    rows.push(
      latencyRow(
        `ui_snapshot, ${elements} elements, default size (page thread)`,
        byDefault,
        'querySelectorAll walk',
        walk,
        `n=${SNAPSHOTS}; must be ≤ 3x`,
      ),
    );
    const whole = await snap(20_000, 1_000_000);
    rows.push(
      latencyRow(
        `ui_snapshot, ${elements} elements, every line (page thread)`,
        whole,
        'querySelectorAll walk',
        walk,
        `n=${SNAPSHOTS}; for reference`,
      ),
    );

    const row = (await host.snapshot({ text: 'Customer 500' })).match(/ row (e\d+)/)?.[1];
    const outline = await host.snapshot({ ref: row });
    const ref = outline.match(/button "Edit" (e\d+)/)?.[1];
    if (!ref) throw new Error(`no Edit button in:\n${outline}`);
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await t.core.tools.call(name, args, { surface: 'ui' });
      if (result.result.isError) throw new Error(`${name}: ${result.result.textContent}`);
    };
    const ping = await sample(() => call('example_send_ping', {}), ACTS);
    const click = await sample(() => call('ui_act', { ref, action: 'click' }), ACTS);
    rows.push(
      latencyRow(
        'ui_act click round trip (tool runner)',
        click,
        'example_send_ping',
        ping,
        `n=${ACTS}; must be ≤ 1.5x`,
      ),
    );

    // Idle: the plugins are loaded and nobody calls them.
    const open = async (plugins: string[], appId: string) => {
      const p = await (await browser.newContext()).newPage();
      await p.goto(served.pageUrl({ inspector: t.urls.debuggeeUrl, plugins, appId }));
      await p.locator('#status').filter({ hasText: 'connected' }).waitFor();
      return p;
    };
    // Each plugin that only answers when asked, loaded beside network and idle (issue 40: ≤ 1.02x each),
    // against a network-only page opened and warmed with it (a page warmed longer fetches faster);
    // [] is a second network-only page: the spread between two pages that load the same plugins.
    for (const set of [[], ['ui', 'actions'], ['react'], ['state'], ['storage']]) {
      const plain = await open(['network'], `com.bench.network-${set.join('-')}`);
      const loaded = await open(['network', ...set], `com.bench.idle-${set.join('-') || 'network'}`);
      const times = { plain: [] as number[], loaded: [] as number[] };
      const ratios: number[] = [];
      for (let i = 0; i < 4; i++) {
        await fetches(plain, 50);
        await fetches(loaded, 50);
      }
      for (let r = 0; r < ROUNDS; r++) {
        const order = r % 2 === 0 ? (['plain', 'loaded'] as const) : (['loaded', 'plain'] as const);
        const medians = { plain: 0, loaded: 0 };
        for (const side of order) {
          const own = await fetches(side === 'plain' ? plain : loaded, FETCHES);
          times[side].push(...own);
          medians[side] = stats(own).median;
        }
        ratios.push(medians.loaded / medians.plain);
      }
      const idle = latencyRow(
        set.length
          ? `browser fetch, network + ${set.join(' + ')} idle`
          : 'browser fetch, another network-only page (A/A)',
        stats(times.loaded),
        'network alone',
        stats(times.plain),
      );
      idle.ratio = stats(ratios).median;
      idle.note = `n=${times.loaded.length}, ${ROUNDS} rounds, ratio = median of the rounds'; must be ≤ 1.02x`;
      rows.push(idle);
      await loaded.context().close();
      await plain.context().close();
    }
    return rows;
  } finally {
    await browser.close();
    await served.close();
    await apps.close();
    await t.stop();
  }
});

/** The floor: the page's own walk over every element, timed in the page (ms per walk). */
async function inPage(page: Page, n: number) {
  const times = (await page.evaluate(`(() => {
    const out = [];
    for (let i = 0; i < ${n + 5}; i++) {
      const start = performance.now();
      let count = 0;
      for (const el of document.querySelectorAll('*')) if (el.tagName) count++;
      out.push(performance.now() - start);
    }
    return out.slice(5);
  })()`)) as number[];
  return stats(times);
}

function fetches(page: Page, n: number): Promise<number[]> {
  return page.evaluate(`(async () => {
    const out = [];
    for (let i = 0; i < ${n}; i++) {
      const start = performance.now();
      await fetch('/items').then((r) => r.text());
      out.push(performance.now() - start);
    }
    return out;
  })()`) as Promise<number[]>;
}
