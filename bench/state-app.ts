import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// The app of bench/scenarios/state-dispatch.ts, forked once per measured side: a store dispatching
// 10,000 actions, built with the devtools API absent (BENCH_API=off, no agent loaded), the agent's
// (on) or an extension that does nothing (idle). Each side has a process of its own, as an app has
// Porthole or not: in one process both sides' stores run the same library code (Redux's dispatch,
// Zustand's setState), whose call sites then see both sides' functions and slow down both.
// The scenario imports this file's types only: its top level is the app.

const ACTIONS = 10_000;
export type Measured = { loop: number; total: number; loopCpu: number; totalCpu: number };
export type CaseName = 'redux' | 'rtk' | 'zustand';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const WARM = Number(process.env.BENCH_WARM ?? 3);
const api = process.env.BENCH_API as 'off' | 'on' | 'idle';
const which = process.env.BENCH_CASE as CaseName;

// A collection before every timed run, so that no run pays for the last one's garbage.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

// The libraries find the API on `window`: as in a page (or React Native), before they load.
const g = globalThis as Record<string, unknown>;
g.window ??= globalThis;
const agent = api === 'on' ? await startAgent() : undefined;
if (api === 'idle')
  g.__REDUX_DEVTOOLS_EXTENSION__ = Object.assign(() => (next: unknown) => next, {
    connect: () => ({ init() {}, send() {}, subscribe: () => () => {}, unsubscribe() {}, error() {} }),
  });
const { configureStore, createSlice } = await import('@reduxjs/toolkit');
const { createStore, compose } = await import('redux');
const { createStore: createZustand } = await import('zustand/vanilla');
const { devtools } = await import('zustand/middleware');

/** The agent's state plugin, not connected; `drain` does what it does when batches leave (makes them, JSON). */
async function startAgent() {
  const { hub } = await import('../plugins/state/agent/hub.js');
  await import('../plugins/state/agent/index.js');
  const work = await import('../plugins/state/agent/work.js');
  const h = hub();
  h.maxPending = ACTIONS * 2;
  // As the agent sends to an inspector of this version (state 1.1): a burst's runs as one entry each.
  h.runs = true;
  // Each burst begins a window of its own, as bursts apart do in an app: its first `burst` actions
  // wait whole and keep their states (the window begins `flushMs` after the last ran out: the idle
  // time between bursts, below, is longer).
  h.flushMs = 1;
  return {
    drain: () => {
      let chars = 0;
      while (h.waiting.count) chars += JSON.stringify(work.drain(h, false)).length;
      return chars;
    },
  };
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

const make: Record<CaseName, () => (i: number) => void> = {
  redux: () => {
    const compose_ = g.__REDUX_DEVTOOLS_EXTENSION_COMPOSE__ as ((o: object) => typeof compose) | undefined;
    const store = api === 'on' ? createStore(reducer, compose_!({ name: 'bench' })()) : createStore(reducer, compose());
    return (i) => void store.dispatch({ type: 'toggle', id: i % 1000 });
  },
  rtk: () => {
    const store = configureStore({ reducer: slice.reducer, devTools: api !== 'off' });
    return (i) => void store.dispatch(slice.actions.toggle(i % 100));
  },
  zustand: () => {
    const store = createZustand<S>()(devtools(() => ({ todos, count: 0 }), { name: 'bench', enabled: true }));
    return (i) =>
      store.setState(
        (s) => {
          const next = s.todos.slice();
          next[i % 1000] = { ...next[i % 1000]!, done: !next[i % 1000]!.done };
          return { todos: next, count: s.count + 1 };
        },
        false,
        'toggle',
      );
  },
};

const cpuMs = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};

/**
 * Wall and CPU ms (the process's: every thread, GC helpers and compilers included) of one burst of
 * dispatches to the process's one store. V8 never optimizes this function (below): optimized, its
 * loop was compiled anew in almost every burst (the collection before each burst clears V8's cache
 * of on-stack-replacement code), with the dispatch path inlined into it, so each side paid for
 * compiling its whole dispatch path once a burst, the side with the agent more. An app's dispatches
 * come from its handlers, not from one loop; the dispatch path keeps its own compiled code here.
 */
function loop(dispatch: (i: number) => void): { ms: number; cpu: number } {
  gc();
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < ACTIONS; i++) dispatch(i);
  return { ms: performance.now() - start, cpu: cpuMs(cpu) };
}

setFlagsFromString('--allow-natives-syntax');
(runInNewContext('(f) => %NeverOptimizeFunction(f)') as (f: unknown) => void)(loop);

/** The agent's batches of a burst, made as its timer makes them in an app: in a task of their own. */
function batches(drain: () => number): { ms: number; cpu: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  drain();
  return { ms: performance.now() - start, cpu: cpuMs(cpu) };
}

function measure(dispatch: (i: number) => void): Measured {
  const l = loop(dispatch);
  const b = agent ? batches(agent.drain) : { ms: 0, cpu: 0 };
  return { loop: l.ms, total: l.ms + b.ms, loopCpu: l.cpu, totalCpu: l.cpu + b.cpu };
}

/**
 * Idle ms before each burst (BENCH_IDLE_MS, 5 by default: time for the agent's timer to begin a new
 * window, on both sides). A longer idle time lets the work the last burst left to other threads
 * (V8 compiling, the collector's helpers) end before the next.
 */
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 5);
const idle = () => (IDLE_MS > 0 ? new Promise((resolve) => setTimeout(resolve, IDLE_MS)) : undefined);

if (process.send) {
  // One store, as an app has, doing bursts; the first ones warm the libraries' code and the agent's.
  const dispatch = make[which]();
  const runs: Measured[] = [];
  for (let i = 0; i < WARM + ROUNDS; i++) {
    await idle();
    const m = measure(dispatch);
    if (i >= WARM) runs.push(m);
  }
  process.send(runs, () => process.exit(0));
}
