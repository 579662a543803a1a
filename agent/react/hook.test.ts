// @vitest-environment happy-dom
// @vitest-environment-options { "url": "http://127.0.0.1/" }
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { shop } from './app-testing.js';
import { type Fiber, type FiberRoot, fiberName, isComponent } from './fiber.js';
import { installReactHook, reactHookState } from './hook.js';
import { pageRoots } from './page-roots.js';
import { freshReactHook, type LoadedReact, loadReact, mount, removeReactHook } from './testing.js';

const require = createRequire(import.meta.url);

/** A fresh copy of a package (new module instances), like a page that loads it anew. */
function fresh<T>(id: string): T {
  for (const key of Object.keys(require.cache))
    if (key.includes(`/node_modules/${id.split('/')[0]}/`)) delete require.cache[key];
  return require(id) as T;
}

/**
 * Installs the React DevTools backend's hook (react-devtools-core, as React Native and the standalone
 * DevTools load it). It defines the hook non-configurable; here it stays configurable, so that the
 * next test can start from a page without it.
 */
function installDevTools() {
  const devtools = fresh<{ initialize(): void; connectWithCustomMessagingProtocol(o: object): () => void }>(
    'react-devtools-core',
  );
  const define = Object.defineProperty;
  Object.defineProperty = ((o: object, key: PropertyKey, d: PropertyDescriptor) =>
    define(o, key, key === '__REACT_DEVTOOLS_GLOBAL_HOOK__' ? { ...d, configurable: true } : d)) as typeof define;
  try {
    devtools.initialize();
  } finally {
    Object.defineProperty = define;
  }
  return devtools;
}

const names = (root: FiberRoot) => {
  const out: string[] = [];
  const walk = (f: Fiber | null) => {
    for (; f; f = f.sibling) {
      if (isComponent(f)) out.push(fiberName(f));
      walk(f.child);
    }
  };
  walk(root.current);
  return out;
};

/** Renders the shop, clicks the counter and the theme, and reports what the page showed after each step. */
function drive(r: LoadedReact) {
  const app = shop(r.React);
  const view = mount(r, r.React.createElement(app.App));
  const html = [view.container.innerHTML];
  r.React.act(() => (view.container.querySelector('#inc') as HTMLElement).click());
  html.push(view.container.innerHTML);
  r.React.act(() => (view.container.querySelector('#theme') as HTMLElement).click());
  html.push(view.container.innerHTML);
  return { html, counts: { ...app.controls.counts }, view };
}

afterEach(() => {
  document.body.innerHTML = '';
  removeReactHook();
});

describe('the React DevTools hook', () => {
  it.each([18, 19] as const)(
    'is installed when there is none; React %s injects into it and reports each commit',
    (major) => {
      const hook = freshReactHook();
      expect(hook.mode).toBe('installed');
      const commits: FiberRoot[] = [];
      hook.listeners.add({ commit: (_id, root) => commits.push(root) });
      const r = loadReact(major);
      expect([...hook.renderers.values()]).toEqual([
        expect.objectContaining({ version: r.version, bundleType: 1, rendererPackageName: 'react-dom' }),
      ]);
      const { view } = drive(r);
      expect(commits.length).toBeGreaterThanOrEqual(3);
      const root = commits[0]!;
      expect(hook.roots.get(root)).toBe(1);
      expect(names(root)).toEqual(expect.arrayContaining(['App', 'Counter', 'Item', 'Clock', 'Fancy', 'Boundary']));
      view.unmount();
      expect(hook.roots.size).toBe(0);
    },
  );

  it("leaves the page as without it: the same output, the same renders, React's own hint still printed", () => {
    removeReactHook();
    // React hints at its DevTools in Chrome and Firefox only
    Object.defineProperty(navigator, 'userAgent', { value: 'Mozilla/5.0 Chrome/140.0', configurable: true });
    const infos: unknown[][] = [];
    const info = console.info;
    console.info = (...args: unknown[]) => void infos.push(args);
    try {
      const without = drive(loadReact(19));
      expect(globalThis).not.toHaveProperty('__REACT_DEVTOOLS_GLOBAL_HOOK__');
      const infosWithout = infos.splice(0);
      expect(String(infosWithout[0]?.[0])).toContain('Download the React DevTools');
      document.body.innerHTML = '';
      freshReactHook();
      const withHook = drive(loadReact(19));
      expect(withHook.html).toEqual(without.html);
      expect(withHook.counts).toEqual(without.counts);
      expect(infos).toEqual(infosWithout);
    } finally {
      console.info = info;
    }
  });

  it('chains to the React DevTools backend hook: DevTools sees the same operations as without Porthole', async () => {
    const run = async (withPorthole: boolean) => {
      removeReactHook();
      document.body.innerHTML = '';
      const devtools = installDevTools();
      const messages: { event: string; payload: unknown }[] = [];
      const listeners: ((m: unknown) => void)[] = [];
      const stop = devtools.connectWithCustomMessagingProtocol({
        onSubscribe: (fn: (m: unknown) => void) => listeners.push(fn),
        onUnsubscribe: () => {},
        onMessage: (event: string, payload: unknown) => messages.push({ event, payload }),
      });
      const hook = withPorthole ? installReactHook() : undefined;
      const commits: number[] = [];
      hook?.listeners.add({ commit: () => commits.push(1) });
      const out = drive(loadReact(19));
      await new Promise((r) => setTimeout(r, 50)); // the DevTools bridge sends in batches
      stop();
      const operations = messages.filter((m) => m.event === 'operations').map((m) => m.payload);
      return { out, operations, commits, mode: hook?.mode };
    };
    const without = await run(false);
    const chained = await run(true);
    expect(chained.mode).toBe('chained');
    expect(without.operations.length).toBeGreaterThan(0);
    expect(chained.operations).toEqual(without.operations);
    expect(chained.out.html).toEqual(without.out.html);
    expect(chained.commits.length).toBeGreaterThanOrEqual(3);
  });

  it.each(['before', 'after'] as const)(
    'chains with react-refresh installed %s it: Fast Refresh still swaps a component',
    (order) => {
      removeReactHook();
      const refresh = fresh<{
        injectIntoGlobalHook(g: object): void;
        register(type: unknown, id: string): void;
        performReactRefresh(): unknown;
      }>('react-refresh/runtime');
      if (order === 'before') refresh.injectIntoGlobalHook(globalThis);
      const hook = installReactHook();
      if (order === 'after') refresh.injectIntoGlobalHook(globalThis);
      expect(hook.mode).toBe(order === 'before' ? 'chained' : 'installed');
      const r = loadReact(19);
      const h = r.React.createElement;
      const First = () => h('p', null, 'first');
      refresh.register(First, 'Greeting');
      const view = mount(
        r,
        h(() => h(First)),
      );
      expect(view.container.textContent).toBe('first');
      const Second = () => h('p', null, 'second');
      refresh.register(Second, 'Greeting');
      r.React.act(() => refresh.performReactRefresh());
      expect(view.container.textContent).toBe('second');
      expect(hook.roots.size).toBe(1);
    },
  );

  it('takes over what an existing hook knew: renderers, and roots mounted before it', () => {
    removeReactHook();
    installDevTools();
    const r = loadReact(19);
    const view = mount(r, r.React.createElement(shop(r.React).App));
    const hook = installReactHook();
    expect(hook.renderers.size).toBe(1);
    expect([...hook.roots.keys()].map((root) => root.containerInfo)).toEqual([view.container]);
  });

  it('a React that loaded before any hook: its roots are still found in the page', () => {
    removeReactHook();
    const r = loadReact(19);
    const view = mount(r, r.React.createElement(shop(r.React).App));
    const hook = installReactHook();
    expect(hook.renderers.size).toBe(0);
    const roots = pageRoots();
    expect(roots.map((root) => root.containerInfo)).toEqual([view.container]);
    expect(names(roots[0]!)).toContain('Counter');
  });

  it('two React copies on one page inject two renderers, each with its roots', () => {
    const hook = freshReactHook();
    const a = loadReact(19);
    const b = loadReact(18);
    mount(a, a.React.createElement(shop(a.React).App));
    mount(b, b.React.createElement(shop(b.React).App));
    expect([...hook.renderers.values()].map((x) => x.version)).toEqual([a.version, b.version]);
    expect([...hook.roots.values()].sort()).toEqual([1, 2]);
  });

  it('a listener that throws never reaches React; a disabled hook is reported', () => {
    const hook = freshReactHook();
    hook.listeners.add({
      commit() {
        throw new Error('listener bug');
      },
    });
    const r = loadReact(19);
    const errors: unknown[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      expect(drive(r).html[1]).toContain('Clicks 1');
    } finally {
      console.error = error;
    }
    expect(errors).toEqual([]);

    removeReactHook();
    (globalThis as Record<string, unknown>).__REACT_DEVTOOLS_GLOBAL_HOOK__ = { isDisabled: true };
    expect(installReactHook().disabled).toBe(true);
    expect(reactHookState()?.mode).toBe('chained');
  });
});
