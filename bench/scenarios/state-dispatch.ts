import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type BenchRow, defineScenario, latencyRow, type Stats, stats } from '../harness.js';

// What the state plugin costs a store that dispatches 10,000 actions: the same store, built the same
// way, with the devtools API absent (the floor) and with the agent's in place, in alternating
// rounds. "dispatch" is the app's loop alone (what the issue bounds: ≤ 1.2×, goal 1.05×); "+ batches"
// adds the agent's work off the hot path (diffs, serialization, the batch's JSON) for those actions,
// done here right after the loop on the same thread, as the agent does it every 50 ms.

const ACTIONS = 10_000;
const ROUNDS = 21;
// A collection before every timed run, so that neither side pays for the other's garbage.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

// The libraries find the API on `window`: as in a page (or React Native), before they load.
const g = globalThis as Record<string | symbol, unknown>;
g.window ??= globalThis;
const { hub } = await import('../../plugins/state/agent/hub.js');
await import('../../plugins/state/agent/index.js');
const { configureStore, createSlice } = await import('@reduxjs/toolkit');
const { createStore, compose } = await import('redux');
const { createStore: createZustand } = await import('zustand/vanilla');
const { devtools } = await import('zustand/middleware');

const work = await import('../../plugins/state/agent/work.js');

const h = hub();
h.maxPending = ACTIONS * 2;
/** What the agent does when batches leave: makes them (work.drain) and encodes them as JSON. */
const drain = () => {
  let chars = 0;
  while (h.waiting.count) chars += JSON.stringify(work.drain(h, false)).length;
  return chars;
};
const api = {
  ext: g.__REDUX_DEVTOOLS_EXTENSION__,
  compose: g.__REDUX_DEVTOOLS_EXTENSION_COMPOSE__ as (o: object) => typeof compose,
};
/** An extension that takes everything and does nothing: what a library's own devtools code costs. */
const idle = Object.assign(() => (next: unknown) => next, {
  connect: () => ({ init() {}, send() {}, subscribe: () => () => {}, unsubscribe() {}, error() {} }),
});
/** Runs `make` with the devtools API absent (the floor), present, or a do-nothing one in its place. */
function withApi<T>(on: boolean | 'idle', make: () => T): T {
  if (on === true) return make();
  if (on) g.__REDUX_DEVTOOLS_EXTENSION__ = idle;
  else delete g.__REDUX_DEVTOOLS_EXTENSION__;
  try {
    return make();
  } finally {
    g.__REDUX_DEVTOOLS_EXTENSION__ = api.ext;
  }
}

const todos = Array.from({ length: 1000 }, (_, i) => ({ id: i, title: `todo ${i}`, done: false }));
type S = { todos: typeof todos; count: number; last?: number };
const reducer = (s: S = { todos, count: 0 }, a: { type: string; id?: number }): S => {
  if (a.type !== 'toggle' || a.id === undefined) return s;
  const next = s.todos.slice();
  next[a.id] = { ...next[a.id]!, done: !next[a.id]!.done };
  return { ...s, todos: next, count: s.count + 1, last: a.id };
};
// Redux Toolkit's development checks walk the whole state per action: its store holds 100 todos,
// so that the floor stays near the others' (its own checks, not Porthole, would dominate otherwise).
const slice = createSlice({
  name: 'todos',
  initialState: { todos: todos.slice(0, 100), count: 0 } as S,
  reducers: {
    toggle: (s, a: { payload: number }) => {
      s.todos[a.payload]!.done = !s.todos[a.payload]!.done;
      s.count++;
    },
  },
});

function zustand(on: boolean | 'idle') {
  const store = withApi(on, () =>
    createZustand<S>()(devtools(() => ({ todos, count: 0 }), { name: 'bench', enabled: true })),
  );
  return (i: number) =>
    store.setState(
      (s) => {
        const next = s.todos.slice();
        next[i % 1000] = { ...next[i % 1000]!, done: !next[i % 1000]!.done };
        return { todos: next, count: s.count + 1 };
      },
      false,
      'toggle',
    );
}

interface Case {
  name: string;
  /** Not Porthole: a library's own devtools cost, for comparison. */
  peer?: true;
  make(on: boolean): (i: number) => void;
}
const cases: Case[] = [
  {
    name: 'redux createStore',
    make: (on) => {
      const store = on ? createStore(reducer, api.compose({ name: 'bench' })()) : createStore(reducer, compose());
      return (i) => void store.dispatch({ type: 'toggle', id: i % 1000 });
    },
  },
  {
    name: 'RTK configureStore (dev checks on)',
    make: (on) => {
      const store = configureStore({ reducer: slice.reducer, devTools: on });
      return (i) => void store.dispatch(slice.actions.toggle(i % 100));
    },
  },
  {
    name: 'zustand devtools',
    make: (on) => zustand(on),
  },
  {
    // A peer, not Porthole: Zustand's middleware against an extension that does nothing.
    name: 'zustand devtools, a do-nothing extension (its own cost)',
    peer: true,
    make: (on) => zustand(on && 'idle'),
  },
];

type Measured = { loop: number; total: number; loopCpu: number; totalCpu: number };
const cpuMs = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};

/** Wall and CPU ms (the process's: every thread, GC helpers included) of the loop, and with the batches. */
function measure(c: Case, on: boolean): Measured {
  h.stores.splice(0);
  const dispatch = c.make(on);
  for (let i = 0; i < 200; i++) dispatch(i); // warm the store's own code
  drain();
  gc();
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < ACTIONS; i++) dispatch(i);
  const loop = performance.now() - start;
  const loopCpu = cpuMs(cpu);
  drain();
  return { loop, total: performance.now() - start, loopCpu, totalCpu: cpuMs(cpu) };
}

export default defineScenario('state plugin: dispatch cost', async () => {
  const rows: BenchRow[] = [];
  for (const c of cases) {
    const plain: Record<keyof Measured, number[]> = { loop: [], total: [], loopCpu: [], totalCpu: [] };
    const ours: Record<keyof Measured, number[]> = { loop: [], total: [], loopCpu: [], totalCpu: [] };
    measure(c, false);
    measure(c, true);
    for (let r = 0; r < ROUNDS; r++) {
      const order = [
        [false, plain],
        [true, ours],
      ] as const;
      for (const [on, into] of r % 2 ? [...order].reverse() : order) {
        const m = measure(c, on);
        for (const k of ['loop', 'total', 'loopCpu', 'totalCpu'] as const) into[k].push(m[k]);
      }
    }
    const floor: Stats = stats(plain.loop);
    const floorCpu: Stats = stats(plain.loopCpu);
    const floorName = 'same store, no devtools API';
    const goal = c.peer ? 'a peer: no Porthole in this row' : 'must be ≤ 1.2× (goal 1.05×)';
    rows.push(
      latencyRow(
        `state: ${c.name}, ${ACTIONS} dispatches: app CPU`,
        stats(ours.loopCpu),
        floorName,
        floorCpu,
        `CPU ms of the loop; ${goal}`,
      ),
      latencyRow(`state: ${c.name}, ${ACTIONS} dispatches: wall`, stats(ours.loop), floorName, floor, goal),
    );
    if (c.peer) continue;
    rows.push(
      latencyRow(
        `state: ${c.name}, + the agent's batches: app CPU`,
        stats(ours.totalCpu),
        floorName,
        floorCpu,
        'CPU ms of the loop and the batches made right after it',
      ),
      latencyRow(
        `state: ${c.name}, + the agent's batches: wall`,
        stats(ours.total),
        floorName,
        floor,
        'diffs, serialization and JSON of the batches, on the app thread off the hot path',
      ),
    );
  }
  return rows;
});
