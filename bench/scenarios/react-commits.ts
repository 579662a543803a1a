import type { Fiber } from '../../agent/react/fiber.js';
import { installReactHook } from '../../agent/react/hook.js';
import { installDom, type LoadedReact, loadReact, removeReactHook } from '../../agent/react/testing.js';
import { outline } from '../../plugins/react/host/tools.js';
import type { TreeResult } from '../../plugins/react/protocol.js';
import { type BenchRow, defineScenario, latencyRow, type Stats, stats } from '../harness.js';

// The react plugin's cost on the app's thread, with real React in happy-dom:
// - a 1,000-component app re-rendering: each commit (flushSync of a new root.render) timed with the
//   plugin counting renders, against the same app in a React copy that loaded with no hook at all;
// - react_tree of a 5,000-fiber app: the agent's answer time against a plain walk of those fibers,
//   and the answer's size.

const ROUNDS = 200;

interface Copy {
  r: LoadedReact;
  root: ReturnType<LoadedReact['createRoot']>;
  render(tick: number): void;
}

/** An app of `n` components (each with a state and a memo) under one list, in its own container. */
function app(r: LoadedReact, n: number, shape: 'flat' | 'deep'): Copy {
  const { React } = r;
  const h = React.createElement;
  // biome-ignore lint/correctness/noComponentHookFactories: each React copy needs components that call its own hooks
  const Item = ({ i, tick }: { i: number; tick: number }) => {
    const [open] = React.useState(false);
    const label = React.useMemo(() => `item ${i}`, [i]);
    return shape === 'flat'
      ? h('li', { className: open ? 'open' : undefined }, label, ' ', tick)
      : h('li', null, h('span', null, label), h('b', null, tick));
  };
  // biome-ignore lint/correctness/noComponentHookFactories: as Item
  const App = ({ tick }: { tick: number }) =>
    h(
      'ul',
      null,
      Array.from({ length: n }, (_, i) => h(Item, { key: i, i, tick })),
    );
  const container = document.createElement('div');
  document.body.append(container);
  const root = r.createRoot(container);
  const render = (tick: number) => r.flushSync(() => root.render(h(App, { tick })));
  render(0);
  return { r, root, render };
}

/** Commit time of the same app in two React copies, interleaved so that drift hits both. */
function commits(plain: Copy, watched: Copy): { plain: Stats; watched: Stats } {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 1; i <= ROUNDS + 20; i++) {
    // ABBA: neither copy always runs first (after the other's garbage)
    const pairs = [
      [plain, a],
      [watched, b],
    ] as const;
    for (const [copy, times] of i % 2 ? pairs : [...pairs].reverse()) {
      const start = performance.now();
      copy.render(i);
      if (i > 20) times.push(performance.now() - start);
    }
  }
  return { plain: stats(a), watched: stats(b) };
}

function countFibers(f: Fiber | null): number {
  let n = 0;
  for (; f; f = f.sibling) n += 1 + countFibers(f.child);
  return n;
}

type Handler = (params: unknown, signal: AbortSignal) => Promise<unknown>;

export default defineScenario('react plugin: commits and tree', async () => {
  installDom();
  // testing.ts sets it for tests; outside act() React would warn on every render
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  const rows: BenchRow[] = [];
  for (const production of [false, true]) {
    const build = production ? 'production' : 'development';
    removeReactHook();
    const plain = app(loadReact(19, { production }), 1000, 'flat');
    installReactHook();
    const watched = app(loadReact(19, { production }), 1000, 'flat');
    // React's own share first: a hook present (React then tracks more in development), nothing counting
    const hookOnly = commits(plain, watched);
    // imported now: the plugin module installs the hook when it loads
    const { react } = await import('../../plugins/react/agent/index.js');
    const plugin = react();
    const measured = commits(plain, watched);
    rows.push(
      latencyRow(
        `react: commit of 1,000 components re-rendering (${build})`,
        measured.watched,
        'the same app, no hook',
        measured.plain,
        `n=${ROUNDS}; must be ≤ 1.2x, goal 1.05x; with the hook alone (React's own extra work) ${(hookOnly.watched.median / hookOnly.plain.median).toFixed(2)}x`,
      ),
    );
    if (!production) {
      const handler = (name: string) => (plugin.runtime.handlers.get(name) as Handler).bind(null);
      const signal = new AbortController().signal;
      const renders = handler('renders');
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const start = performance.now();
        await renders({ limit: 30 }, signal);
        times.push(performance.now() - start);
      }
      rows.push(
        latencyRow(
          'react: react_renders over a full ring (20,000 renders)',
          stats(times),
          'one commit of the app',
          measured.watched,
          'the app thread, per call',
        ),
      );
    }
    plugin.dispose();
    plain.root.unmount();
    watched.root.unmount();
    document.body.innerHTML = '';
  }

  // react_tree of a 5,000-fiber app (development build).
  removeReactHook();
  installReactHook();
  const { react } = await import('../../plugins/react/agent/index.js');
  const plugin = react();
  const big = app(loadReact(19), 1250, 'deep');
  const rootFiber = (big.root as unknown as { _internalRoot: { current: Fiber } })._internalRoot.current;
  const fibers = countFibers(rootFiber);
  const tree = plugin.runtime.handlers.get('tree') as Handler;
  const signal = new AbortController().signal;
  const walk: number[] = [];
  for (let i = 0; i < 60; i++) {
    const start = performance.now();
    countFibers(rootFiber);
    walk.push(performance.now() - start);
  }
  for (const [what, params] of [
    ['default (limit 150)', { depth: 40, limit: 150, hosts: false }],
    ['the panel (limit 2000, hosts)', { depth: 200, limit: 2000, hosts: true }],
    ['name filter', { name: 'Item', depth: 40, limit: 150, hosts: false }],
  ] as const) {
    const times: number[] = [];
    let answer: TreeResult | undefined;
    for (let i = 0; i < 60; i++) {
      const start = performance.now();
      answer = (await tree(params, signal)) as TreeResult;
      times.push(performance.now() - start);
    }
    const json = JSON.stringify(answer).length;
    const text = outline(answer!, params.limit).length;
    rows.push(
      latencyRow(
        `react_tree of ${fibers} fibers: ${what}`,
        stats(times.slice(10)),
        'a plain walk of the fibers',
        stats(walk.slice(10)),
        `answer ${(json / 1024).toFixed(1)} KB JSON from the app, outline ${(text / 1024).toFixed(1)} KB`,
      ),
    );
  }
  plugin.dispose();
  return rows;
});
