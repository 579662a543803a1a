import { join } from 'node:path';
import type { BenchRow } from '../harness.js';
import { defineScenario } from '../harness.js';
import { bundleSize } from '../size/bundle.js';

const root = join(import.meta.dirname, '../..');
const KB = 1024;

/**
 * What the agent adds to an app's browser bundle (esbuild, minified, gzip -9), beside the debug
 * clients users know, bundled the same way in the same run: Reactotron's client and Flipper's.
 * The ratio is against Reactotron's; the note says the bound.
 */
export default defineScenario('agent bundle size', async () => {
  const peer = await bundleSize("export { createClient } from 'reactotron-core-client';", root);
  const flipper = await bundleSize("export { flipperClient } from 'js-flipper';", root);
  const ours: [string, string, number][] = [
    ['connect() alone', "export { connect } from './agent/index.ts';", 12],
    [
      'agent + network + example',
      [
        "export { connect } from './agent/index.ts';",
        "export { network } from './plugins/network/agent/index.ts';",
        "export { example } from './plugins/example/agent/index.ts';",
      ].join('\n'),
      30,
    ],
    // The state plugin's share at startup: this row minus "connect() alone" (budget: 5 KB gz added);
    // its batch-making, reading and changing code (plugins/state/agent/work.ts) loads after, split off.
    [
      'agent + state',
      ["export { connect } from './agent/index.ts';", "export { state } from './plugins/state/agent/index.ts';"].join(
        '\n',
      ),
      14.5,
    ],
    [
      'agent + ui (what loads with the app)',
      "export { connect } from './agent/index.ts';\nexport { ui } from './plugins/ui/agent/index.ts';",
      12,
    ],
    [
      'ui: the DOM part (loads on the first ui request)',
      "export { domSource } from './plugins/ui/agent/dom/index.ts';",
      16,
    ],
    ['ui: ui_evaluate (loads on the first evaluate)', "export { evaluate } from './plugins/ui/agent/evaluate.ts';", 4],
    [
      'agent + actions',
      "export { connect } from './agent/index.ts';\nexport { actions } from './plugins/actions/agent/index.ts';",
      12,
    ],
  ];
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
  rows.push(row('bundle: js-flipper (peer)', flipper, 'flipperClient'));
  let alone: { gzip: number; bytes: number } | undefined;
  for (const [what, source, bound] of ours) {
    const size = await bundleSize(source, root);
    alone ??= size;
    const biggest = size.top.map((t) => `${t.file} ${(t.bytes / KB).toFixed(1)}`).join(', ');
    rows.push(row(`bundle: ${what}`, size, `must be ≤ ${bound} KB gz; biggest: ${biggest}`));
  }
  // A plugin's own cost: what it adds to connect() alone (and what it loads at its first request).
  const base = await bundleSize(ours[0]![1], root);
  for (const [plugin, source, bound] of [
    ['react', "export { react } from './plugins/react/agent/index.ts';", 6],
  ] as const) {
    const size = await bundleSize(`${ours[0]![1]}\n${source}`, root);
    const added = { gzip: size.gzip - base.gzip, bytes: size.bytes - base.bytes };
    const lazy = size.lazyGzip ? `; +${(size.lazyGzip / KB).toFixed(1)} KB gz at its first request` : '';
    rows.push(row(`bundle: ${plugin} plugin, added to connect()`, added, `must be ≤ ${bound} KB gz${lazy}`));
  }
  // A plugin's share: what it adds to connect() alone; the storage plugin's readers load on the
  // inspector's first question (a chunk of their own), so their size is given beside it.
  const storage = await bundleSize(
    "export { connect } from './agent/index.ts';\nexport { storage } from './plugins/storage/agent/index.ts';",
    root,
  );
  const readers = await bundleSize("export { createAreas } from './plugins/storage/agent/areas.ts';", root);
  const added = { gzip: storage.gzip - alone!.gzip, bytes: storage.bytes - alone!.bytes };
  rows.push(
    row(
      'bundle: storage plugin, added to connect()',
      added,
      `must be ≤ 4 KB gz; its readers (web storage, cookies, IndexedDB, Cache Storage, AsyncStorage, MMKV) load on the first question: ${(readers.gzip / KB).toFixed(1)} KB gz`,
    ),
  );
  return rows;
});
