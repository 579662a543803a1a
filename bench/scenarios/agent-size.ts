import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchRow } from '../harness.js';
import { defineScenario } from '../harness.js';
import { type BundleSize, bundleSize } from '../size/bundle.js';

const root = join(import.meta.dirname, '../..');
const KB = 1024;

/**
 * Each plugin's budget for what its agent part adds to connect() in an app's startup bundle (KB
 * gzip); a plugin not listed gets DEFAULT_PLUGIN_BUDGET. A new plugin gets its row by itself: every
 * plugins/<id>/agent/index.ts is measured, through its export named like the plugin (or its first).
 */
const PLUGIN_BUDGETS: Record<string, number> = {
  console: 6,
  example: 2,
  network: 8,
  react: 6,
  state: 5,
  storage: 4,
  ui: 12,
  actions: 12,
};
const DEFAULT_PLUGIN_BUDGET = 5;

export const CONNECT = "export { connect } from './agent/index.ts';";

/** The plugins with an agent part, and the source that imports its factory. */
export function pluginEntries(): { id: string; source: string }[] {
  return readdirSync(join(root, 'plugins'))
    .filter((id) => existsSync(join(root, 'plugins', id, 'agent/index.ts')))
    .sort()
    .map((id) => ({ id, source: `export * as ${id}Agent from './plugins/${id}/agent/index.ts';` }));
}

/**
 * What the agent adds to an app's browser bundle (esbuild, minified, gzip -9), beside the debug
 * clients users know, bundled the same way in the same run: Reactotron's client and Flipper's.
 * The ratio is against Reactotron's; the note says the issue's bound. "startup" is what the app's
 * first chunks hold; what loads after (connect()'s link, at once; a plugin's rarer paths, when used)
 * is in the note, and counts in a bundle that does not split.
 */
export default defineScenario('agent bundle size', async () => {
  const peer = await bundleSize("export { createClient } from 'reactotron-core-client';", root);
  const flipper = await bundleSize("export { flipperClient } from 'js-flipper';", root);
  const rows: BenchRow[] = [];
  const floor = { name: 'reactotron-core-client', median: peer.gzip / KB };
  const row = (scenario: string, size: { gzip: number; bytes: number }, note: string): BenchRow => ({
    scenario,
    unit: 'KB gz',
    median: size.gzip / KB,
    p95: size.gzip / KB,
    floor,
    ratio: size.gzip / peer.gzip,
    note: `${(size.bytes / KB).toFixed(1)} KB min; ${note}`,
  });
  const later = (size: BundleSize) =>
    size.lazyGzip
      ? `; +${(size.lazyGzip / KB).toFixed(1)} KB gz loaded after startup (link at connect, rarer paths when used)`
      : '';
  const biggest = (size: BundleSize) => size.top.map((t) => `${t.file} ${(t.bytes / KB).toFixed(1)}`).join(', ');
  rows.push(row('bundle: js-flipper (peer)', flipper, 'flipperClient'));
  const ours: [string, string, number][] = [
    ['connect() alone', CONNECT, 5],
    [
      'agent + network + example',
      [
        CONNECT,
        "export { network } from './plugins/network/agent/index.ts';",
        "export { example } from './plugins/example/agent/index.ts';",
      ].join('\n'),
      15,
    ],
  ];
  for (const [what, source, bound] of ours) {
    const size = await bundleSize(source, root);
    rows.push(
      row(`bundle: ${what}, startup`, size, `must be ≤ ${bound} KB gz${later(size)}; biggest: ${biggest(size)}`),
    );
  }
  // A plugin's own cost: what it adds to connect() alone at startup (and what it loads later).
  const base = await bundleSize(CONNECT, root);
  for (const { id, source } of pluginEntries()) {
    const size = await bundleSize(`${CONNECT}\n${source}`, root);
    const added = { gzip: size.gzip - base.gzip, bytes: size.bytes - base.bytes };
    const bound = PLUGIN_BUDGETS[id] ?? DEFAULT_PLUGIN_BUDGET;
    rows.push(row(`bundle: ${id} plugin, added to connect()`, added, `must be ≤ ${bound} KB gz${later(size)}`));
  }
  // Parts a plugin loads on the inspector's first question, each a chunk of its own.
  for (const [what, source, bound] of [
    [
      'ui: the DOM part (loads on the first ui request)',
      "export { domSource } from './plugins/ui/agent/dom/index.ts';",
      16,
    ],
    ['ui: ui_evaluate (loads on the first evaluate)', "export { evaluate } from './plugins/ui/agent/evaluate.ts';", 4],
    [
      'storage: its readers (web storage, cookies, IndexedDB, Cache Storage, AsyncStorage, MMKV; on the first question)',
      "export { createAreas } from './plugins/storage/agent/areas.ts';",
      10,
    ],
  ] as const) {
    const size = await bundleSize(source, root);
    rows.push(row(`bundle: ${what}`, size, `must be ≤ ${bound} KB gz`));
  }
  return rows;
});
