import { fileURLToPath } from 'node:url';
import { appProcess, type BenchRow, defineScenario, latencyRow, stats } from '../harness.js';
import type { CaseName, Measured } from '../state-app.js';

// What the state plugin costs a store that dispatches 10,000 actions: the same store, built the same
// way, with the devtools API absent (the floor) and with the agent's in place, each side in app
// processes of its own (bench/state-app.ts), alternated. "dispatch" is the app's loop alone (what
// the issue bounds: ≤ 1.2×, goal 1.05×); "+ batches" adds the agent's work off the hot path (diffs,
// serialization, the batch's JSON) for those actions, done right after the loop on the same thread,
// as the agent does it every 50 ms.

const ACTIONS = 10_000;
const APP = fileURLToPath(new URL('../state-app.ts', import.meta.url));

/**
 * V8's young generation at the full size it reaches in a long-running app, from the start, on both
 * sides (`steady` cases). V8 grows it once enough bytes have survived its scavenges: the side with the
 * agent, which keeps a few states and actions between batches, gets there around its tenth burst and
 * pays for growing in that burst (30–60 ms of CPU); the plain side does not within a bench process's
 * life. An app that runs for minutes has grown it either way.
 */
const FULL_YOUNG_GENERATION = ['--min-semi-space-size=16', '--max-semi-space-size=16'];

/** One app process: its rounds' figures. */
const app = (c: Case, api: 'off' | 'on' | 'idle') =>
  appProcess<Measured[]>(
    APP,
    { BENCH_CASE: c.which, BENCH_API: api, BENCH_ROUNDS: String(c.rounds), BENCH_WARM: String(c.warm) },
    `the state bench app (${c.which}, ${api})`,
    c.steady ? FULL_YOUNG_GENERATION : [],
  );

interface Case {
  name: string;
  which: CaseName;
  /** App processes per side, alternated ABBA, and the bursts each measures after its warm-up ones. */
  pairs: number;
  rounds: number;
  warm: number;
  /** Not Porthole: a library's own devtools cost (an extension that does nothing), for comparison. */
  peer?: true;
  /** Both sides with the young generation at its full size (FULL_YOUNG_GENERATION): a long-running app. */
  steady?: true;
}
// Redux Toolkit's development checks take 400 ms a burst in one process and 850 in the next, on
// either side: its row takes many processes of few bursts, so that the median is not one process's.
const cases: Case[] = [
  { name: 'redux createStore', which: 'redux', pairs: 8, rounds: 10, warm: 3 },
  { name: 'RTK configureStore (dev checks on)', which: 'rtk', pairs: 10, rounds: 2, warm: 1 },
  { name: 'zustand devtools', which: 'zustand', pairs: 8, rounds: 10, warm: 3 },
  { name: 'redux createStore, steady state', which: 'redux', pairs: 8, rounds: 10, warm: 3, steady: true },
  { name: 'zustand devtools, steady state', which: 'zustand', pairs: 8, rounds: 10, warm: 3, steady: true },
  {
    name: 'zustand devtools, a do-nothing extension (its own cost)',
    which: 'zustand',
    pairs: 6,
    rounds: 10,
    warm: 3,
    peer: true,
  },
];

export default defineScenario('state plugin: dispatch cost', async () => {
  const rows: BenchRow[] = [];
  for (const c of cases) {
    const plain: Measured[] = [];
    const ours: Measured[] = [];
    for (let r = 0; r < c.pairs * 2; r++) {
      const order = [
        ['off', plain],
        [c.peer ? 'idle' : 'on', ours],
      ] as const;
      for (const [api, into] of r % 2 ? [...order].reverse() : order) into.push(...(await app(c, api)));
    }
    const of = (m: Measured[], k: keyof Measured) => stats(m.map((x) => x[k]));
    const floorName = 'same store, no devtools API';
    const goal = c.peer ? 'a peer: no Porthole in this row' : 'must be ≤ 1.2× (goal 1.05×)';
    rows.push(
      latencyRow(
        `state: ${c.name}, ${ACTIONS} dispatches: app CPU`,
        of(ours, 'loopCpu'),
        floorName,
        of(plain, 'loopCpu'),
        `CPU ms of the loop; ${goal}`,
      ),
      latencyRow(`state: ${c.name}, ${ACTIONS} dispatches: wall`, of(ours, 'loop'), floorName, of(plain, 'loop'), goal),
    );
    if (c.peer) continue;
    rows.push(
      latencyRow(
        `state: ${c.name}, + the agent's batches: app CPU`,
        of(ours, 'totalCpu'),
        floorName,
        of(plain, 'loopCpu'),
        'CPU ms of the loop and the batches made right after it',
      ),
      latencyRow(
        `state: ${c.name}, + the agent's batches: wall`,
        of(ours, 'total'),
        floorName,
        of(plain, 'loop'),
        'diffs, serialization and JSON of the batches, on the app thread off the hot path',
      ),
    );
  }
  return rows;
});
