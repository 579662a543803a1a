// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { shop } from './app-testing.js';
import { currentFiber, type Fiber, fiberName } from './fiber.js';
import { contextsOf, fiberBadge, hooksOf, hostNodes, ownersOf, sourceOf } from './fiber-details.js';
import { freshReactHook, type LoadedReact, loadReact, mount, removeReactHook } from './testing.js';

afterEach(() => {
  document.body.innerHTML = '';
  removeReactHook();
});

function find(r: LoadedReact, container: HTMLElement, name: string): Fiber {
  const key = Object.keys(container).find((k) => k.startsWith('__reactContainer$'))!;
  const root = (container as unknown as Record<string, Fiber>)[key]!.stateNode.current as Fiber;
  const stack = [root];
  while (stack.length) {
    const f = stack.pop()!;
    if (typeof f.type !== 'string' && f.tag !== 3 && fiberName(f) === name) return f;
    for (let c = f.child; c; c = c.sibling) stack.push(c);
  }
  throw new Error(`${name} not found (React ${r.version})`);
}

const SHOP_HOOKS = [
  'state',
  'reducer',
  'memo',
  'callback',
  'ref',
  'effect',
  'layoutEffect',
  'context',
  'id',
  'transition',
  'deferredValue',
  'syncExternalStore',
];

describe('reading fibers', () => {
  it.each([18, 19] as const)('names hooks by kind with their values (React %s, development)', (major) => {
    freshReactHook();
    const r = loadReact(major);
    const app = shop(r.React);
    const view = mount(r, r.React.createElement(app.App));
    r.React.act(() => (view.container.querySelector('#inc') as HTMLElement).click());
    const counter = currentFiber(find(r, view.container, 'Counter'))!;
    const hooks = hooksOf(counter);
    expect(hooks.map((h) => h.kind)).toEqual(SHOP_HOOKS);
    const byKind = Object.fromEntries(hooks.map((h) => [h.kind, h]));
    expect(byKind.state!.value).toBe(1);
    expect(byKind.reducer!.value).toEqual([]);
    expect(byKind.memo).toMatchObject({ value: 2, deps: [1] });
    expect(typeof byKind.callback!.value).toBe('function');
    expect(byKind.ref!.value).toBe(view.container.querySelector('#inc'));
    expect(byKind.effect!.deps).toEqual([1]);
    expect(byKind.context!.value).toBe('light');
    expect(byKind.id!.value).toMatch(/r/);
    expect(byKind.transition!.value).toBe(false);
    expect(byKind.syncExternalStore!.value).toBe(1);
    expect(contextsOf(counter)).toEqual([{ name: 'Theme', value: 'light' }]);
  });

  it('infers hook kinds from their shape in a production build', () => {
    freshReactHook();
    const r = loadReact(19, { production: true });
    const view = mount(r, r.React.createElement(shop(r.React).App));
    const hooks = hooksOf(find(r, view.container, 'Counter'));
    // no names in production: useContext leaves no entry, an id is a plain value, a transition two
    expect(hooks.map((h) => h.kind)).toEqual([
      'state',
      'state',
      'memo',
      'callback',
      'ref',
      'effect',
      'layoutEffect',
      'hook',
      'state',
      'hook',
      'hook',
      'syncExternalStore',
      'effect',
    ]);
  });

  it('finds the committed fiber of either version, and none once unmounted', () => {
    freshReactHook();
    const r = loadReact(19);
    const view = mount(r, r.React.createElement(shop(r.React).App));
    const first = find(r, view.container, 'Counter');
    r.React.act(() => (view.container.querySelector('#inc') as HTMLElement).click());
    const now = find(r, view.container, 'Counter');
    expect(currentFiber(first)).toBe(now);
    expect(currentFiber(now)).toBe(now);
    expect(hooksOf(currentFiber(first)!)[0]!.value).toBe(1);
    view.unmount();
    expect(currentFiber(now)).toBeNull();
  });

  it('gives names, badges, host nodes and owners as React DevTools shows them', () => {
    freshReactHook();
    const r = loadReact(19);
    const view = mount(r, r.React.createElement(shop(r.React).App));
    const fancy = find(r, view.container, 'Fancy');
    expect(fiberBadge(fancy)).toBe('forwardRef');
    expect(hostNodes(fancy)).toEqual([view.container.querySelector('input')]);
    expect(fiberBadge(find(r, view.container, 'Item'))).toBe('memo');
    expect(fiberBadge(find(r, view.container, 'Clock'))).toBe('class');
    expect(ownersOf(fancy).map((o) => fiberName(o as Fiber))).toEqual(['App']);
    const suspense = find(r, view.container, 'Suspense');
    expect(fiberBadge(suspense)).toBe('suspended');
    // the suspended content is hidden: only the fallback is on screen
    expect(hostNodes(suspense)).toEqual([view.container.querySelector('#loading')]);
  });

  it('React 18: the source location of an element from _debugSource', () => {
    freshReactHook();
    const r = loadReact(18);
    const h = r.React.createElement;
    const Leaf = () => h('i', null, 'leaf');
    const __source = { fileName: '/src/App.tsx', lineNumber: 12, columnNumber: 7 };
    const view = mount(r, h('div', null, h(Leaf, { __source } as object)));
    expect(sourceOf(find(r, view.container, 'Leaf'))).toEqual({
      at: { file: '/src/App.tsx', line: 12, column: 7 },
    });
  });

  it('React 19: the source location of an element from its owner stack (_debugStack)', () => {
    freshReactHook();
    const r = loadReact(19);
    const h = r.React.createElement;
    const Leaf = () => h('i', null, 'leaf');
    function Parent() {
      return h(Leaf); // marker: element site
    }
    const view = mount(r, h(Parent));
    const source = sourceOf(find(r, view.container, 'Leaf'))!;
    const marker = readFileSync(import.meta.filename, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('marker: element site'));
    expect(source.at).toEqual({ file: import.meta.filename, line: marker + 1, column: 14, fn: 'Parent' });
    expect(source.stack?.length ?? 0).toBeLessThanOrEqual(5);
  });
});
