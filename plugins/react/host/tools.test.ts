import { afterEach, describe, expect, it } from 'vitest';
import { shop } from '../../../agent/react/app-testing.js';
import { installReactHook } from '../../../agent/react/hook.js';
import {
  act,
  freshReactHook,
  installDom,
  type LoadedReact,
  loadReact,
  mount,
  removeReactHook,
} from '../../../agent/react/testing.js';
import { startPlugin } from '../../../electron/host/plugin-testing.js';
import { react } from '../agent/index.js';
import type { InspectResult, RendersResult } from '../protocol.js';
import reactPlugin from './index.js';

installDom();

afterEach(() => {
  document.body.innerHTML = '';
  removeReactHook();
});

/** A page with the react plugin connected to a real inspector, then React loaded and the shop rendered. */
async function page(major: 18 | 19 = 19, options: { production?: boolean; app?: Parameters<typeof shop>[1] } = {}) {
  freshReactHook();
  const t = await startPlugin(reactPlugin, react());
  const r = loadReact(major, options);
  const app = shop(r.React, options.app);
  const view = mount(r, r.React.createElement(app.App));
  return { t, r, app, view };
}

const click = (r: LoadedReact, el: Element | null) => act(r, () => (el as HTMLElement).click());
const idOf = (outline: string, name: string) => new RegExp(`^\\s*${name}\\b.* #(\\S+)`, 'm').exec(outline)?.[1];

describe('react tools', () => {
  it.each([19, 18] as const)(
    'React %s: finds a component by name, reads its props and state, and says why it rendered after a click',
    async (major) => {
      const { t, r, view } = await page(major);
      const tree = await t.mcp.call('react_tree', { name: 'Counter' });
      expect(tree.isError).toBe(false);
      expect(tree.text).toMatch(new RegExp(`^react-dom ${r.version.replace(/\./g, '\\.')} \\(development\\): 1 root`));
      expect(tree.text.split('\n').slice(1)).toEqual([
        expect.stringMatching(/^Root div #\S+$/),
        expect.stringMatching(/^ App #\S+ ×1$/),
        expect.stringMatching(/^ {2}Theme\.Provider #\S+$/),
        expect.stringMatching(/^ {3}Counter #\S+ ×1$/),
      ]);
      const id = idOf(tree.text, 'Counter')!;

      const inspected = (await t.mcp.call('react_inspect', { id })).structuredContent as InspectResult;
      expect(inspected).toMatchObject({ name: 'Counter', kind: 'function', renders: 1, props: { label: 'Clicks' } });
      expect(inspected.hooks?.[0]).toEqual({ kind: 'state', value: 0 });
      expect(inspected.owners).toEqual([{ id: expect.any(String), name: 'App' }]);
      expect(inspected.contexts).toEqual([{ name: 'Theme', value: 'light' }]);
      expect(inspected.hosts?.[0]).toBe(`<div id="${view.container.querySelector('.counter')!.id}" class="counter">`);

      const before = (await t.mcp.call('react_renders', {})).structuredContent as RendersResult;
      click(r, view.container.querySelector('#inc'));
      const after = (await t.mcp.call('react_renders', { since: before.commit })).structuredContent as RendersResult;
      // a click renders it twice: the new state, then the deferred value catching up
      expect(after.components).toEqual([
        expect.objectContaining({
          id,
          name: 'Counter',
          renders: 2,
          why: { 'hook #0 state': 1, 'hook #10 deferredValue': 1 },
        }),
      ]);
      expect(after.components[0]!.ms).toBeGreaterThanOrEqual(0);
      const byId = (await t.mcp.call('react_inspect', { id })).structuredContent as InspectResult;
      expect(byId.hooks?.[0]).toEqual({ kind: 'state', value: 1 });
      expect(byId.renders).toBe(3);

      click(r, view.container.querySelector('#theme'));
      const theme = (await t.mcp.call('react_renders', { since: after.commit })).structuredContent as RendersResult;
      const why = Object.fromEntries(theme.components.map((c) => [c.name, c.why]));
      expect(why.App).toEqual({ 'hook #0 state': 1 });
      expect(why.Counter).toEqual({ 'context Theme': 1, parent: 1 });
      expect(why.Clock).toEqual({ parent: 1 });
      expect(why.Item).toBeUndefined(); // memo: same props, did not render
    },
  );

  it('filters the tree by text and by subtree, cuts it by depth and limit, and says what is left', async () => {
    const { t } = await page();
    const byText = await t.mcp.call('react_tree', { text: 'ticks 0' });
    expect(byText.text.split('\n').slice(1)).toEqual([
      expect.stringMatching(/^Root div #/),
      expect.stringMatching(/^ App #/),
      expect.stringMatching(/^ {2}Theme\.Provider #/),
      expect.stringMatching(/^ {3}Clock \[class\] #\S+ ×1$/),
    ]);
    const all = await t.mcp.call('react_tree', {});
    const appId = idOf(all.text, 'App')!;
    const limited = await t.mcp.call('react_tree', { id: appId, limit: 3 });
    expect(limited.text).toMatch(/\n… \d+ more: filter by name or text, start at an id, or raise limit \(3\)$/);
    expect(limited.text.split('\n')).toHaveLength(5);
    const shallow = await t.mcp.call('react_tree', { depth: 2 });
    expect(shallow.text).toMatch(/… \d+ below depth: call again with id of a listed component/);
    const hosts = await t.mcp.call('react_tree', { name: 'button', hosts: true });
    expect(hosts.text).toMatch(/^ {5}button "Clicks 0" #/m);
    expect(Buffer.byteLength(all.text)).toBeLessThan(10_000);
  });

  it('refuses ids of unmounted components, of another page load, and unknown names, saying what to do', async () => {
    const { t, r, view } = await page();
    const tree = await t.mcp.call('react_tree', { name: 'Bomb' });
    const bomb = idOf(tree.text, 'Bomb')!;
    act(r, () => view.root.render(r.React.createElement('p', null, 'gone')));
    const gone = await t.mcp.call('react_inspect', { id: bomb });
    expect(gone.isError).toBe(true);
    expect(gone.text).toBe(`component ${bomb} is no longer mounted: take a new react_tree`);
    const other = await t.mcp.call('react_inspect', { id: 'zzz.1' });
    expect(other.text).toBe('component id zzz.1 is from another session or page load: take a new react_tree');
    const unknown = await t.mcp.call('react_inspect', { name: 'Nope' });
    expect(unknown.text).toBe('no mounted component is named "Nope": list them with react_tree');
    const neither = await t.mcp.call('react_inspect', {});
    expect(neither.text).toBe('give the id (from react_tree) or the name of a component');
    const subtree = await t.mcp.call('react_tree', { id: bomb });
    expect(subtree.text).toContain('no longer mounted');
  });

  it('a 50 MB prop and a cyclic state are cut and marked, the answer stays small and quick', async () => {
    const big = 'x'.repeat(50 * 1024 * 1024);
    const { t } = await page(19, { app: { bigProp: big, cyclic: true } });
    const started = performance.now();
    const answer = await t.mcp.call('react_inspect', { name: 'Clock' });
    expect(performance.now() - started).toBeLessThan(5_000);
    const clock = answer.structuredContent as InspectResult;
    expect(clock.props).toEqual({ big: { $: 'string', v: 'x'.repeat(2000), length: big.length } });
    expect(clock.state).toEqual({ ticks: 0, self: { $: 'circular' } });
    expect(answer.text.length).toBeLessThan(25_000);
  });

  it('a prop that throws when read is shown as thrown; the rest of the answer stands', async () => {
    freshReactHook();
    const t = await startPlugin(reactPlugin, react());
    const r = loadReact(19);
    const h = r.React.createElement;
    // biome-ignore lint/correctness/noComponentHookFactories: made from the React copy this test loads
    const Hostile = (props: { trap: object; n: number }) => h('p', null, typeof props.trap);
    const trap = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('trapped');
        },
      },
    );
    const view = mount(r, h('main', null, h(Hostile, { trap, n: 1 })));
    expect(view.container.textContent).toBe('object');
    const inspected = (await t.mcp.call('react_inspect', { name: 'Hostile' })).structuredContent as InspectResult;
    expect(inspected.props).toEqual({ trap: { $: 'thrown', message: 'trapped' }, n: 1 });
    act(r, () => view.root.render(h('main', null, h(Hostile, { trap, n: 2 }))));
    const renders = (await t.mcp.call('react_renders', {})).structuredContent as RendersResult;
    expect(renders.components).toEqual([expect.objectContaining({ name: 'Hostile', why: { mount: 1, 'props.n': 1 } })]);
  });

  it('shows a Suspense boundary mid-suspend with its fallback, then its content', async () => {
    const { t, r, app } = await page();
    const waiting = await t.mcp.call('react_tree', { name: 'Suspense', hosts: false });
    expect(waiting.text).toMatch(/Suspense \[suspended\] #/);
    const suspense = (await t.mcp.call('react_inspect', { name: 'Suspense' })).structuredContent as InspectResult;
    expect(suspense.hosts).toEqual(['<p id="loading">']);
    expect(suspense.notes).toEqual(['suspended: showing its fallback']);
    expect((await t.mcp.call('react_tree', { name: 'Data' })).text).toContain('(nothing matches)');
    await r.React.act(async () => {
      app.controls.resolve();
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    const done = await t.mcp.call('react_tree', { name: 'Data' });
    expect(done.text).toMatch(/^ {4}Data #\S+ ×\d+$/m);
    expect(done.text).not.toContain('[suspended]');
  });

  it('a crash inside a render caught by an error boundary: the app behaves as without Porthole, renders say so', async () => {
    const run = async (withPorthole: boolean) => {
      document.body.innerHTML = '';
      removeReactHook();
      if (withPorthole) installReactHook();
      const t = withPorthole ? await startPlugin(reactPlugin, react()) : undefined;
      const r = loadReact(19);
      const app = shop(r.React);
      const errors: unknown[] = [];
      const error = console.error;
      console.error = (...args: unknown[]) => void errors.push(String(args[0]).slice(0, 60));
      try {
        const view = mount(r, r.React.createElement(app.App));
        act(r, () => view.root.render(r.React.createElement(app.App, { armed: true })));
        const renders = (await t?.mcp.call('react_renders', { name: 'Bo' }))?.structuredContent as RendersResult;
        const html = view.container.innerHTML;
        view.unmount();
        return { html, counts: app.controls.counts, log: app.controls.log, errors, renders };
      } finally {
        console.error = error;
      }
    };
    const without = await run(false);
    const withIt = await run(true);
    expect(withIt.html).toContain('caught: bomb went off');
    expect({ ...withIt, renders: undefined }).toEqual({ ...without, renders: undefined });
    const boundary = withIt.renders.components.find((c) => c.name === 'Boundary')!;
    expect(boundary.why).toMatchObject({ mount: 1, state: 1 });
  });

  it('two roots and two React copies: one tree with each root', async () => {
    const { t } = await page(19);
    const other = loadReact(18);
    mount(other, other.React.createElement(shop(other.React).App));
    const tree = await t.mcp.call('react_tree', { name: 'Fancy' });
    expect(tree.text.split('\n')[0]).toMatch(
      /^react-dom 19\.\S+ \(development\), react-dom 18\.3\.1 \(development\): 2 roots/,
    );
    expect(tree.text.match(/^ {3}Fancy \[forwardRef\]/gm)).toHaveLength(2);
  });

  it('says plainly when React is a production build, and when it loaded before the hook, with the fix', async () => {
    const prod = await page(19, { production: true });
    const text = (await prod.t.mcp.call('react_tree', { limit: 5 })).text;
    expect(text).toMatch(/^react-dom \S+ \(production\): 1 root, \d+ commits\n! React is a production build/);
    await prod.t.stop();
    document.body.innerHTML = '';

    removeReactHook();
    const r = loadReact(19);
    mount(r, r.React.createElement(shop(r.React).App));
    installReactHook();
    const t = await startPlugin(reactPlugin, react());
    const late = await t.mcp.call('react_tree', { name: 'Counter' });
    expect(late.text).toContain(
      "! React loaded before Porthole's hook: components are read from the page, but renders are not counted and some details are missing. Fix: import '@porthole/agent/react/register' as the first import of the app's entry",
    );
    expect(late.text).toMatch(/^ {3}Counter #/m);
  });

  it('the panel gets the tree, an inspection and the commits as they happen', async () => {
    const { t, r, view } = await page();
    const tree = await t.panel.call('tree', { limit: 500 });
    expect(tree.nodes.find((n) => n.n === 'Counter')).toMatchObject({ d: 3, r: 1 });
    const counter = tree.nodes.find((n) => n.n === 'Counter')!;
    const inspected = await t.panel.call('inspect', { id: counter.id, highlight: true });
    expect(inspected.highlighted).toBe('nothing to outline: it renders no visible element'); // happy-dom has no layout
    click(r, view.container.querySelector('#inc'));
    const commits = await t.panel.waitForEvent('commits');
    expect(commits.commit).toBeGreaterThan(1);
    expect((await t.panel.call('status', {})).status).toMatchObject({ hook: 'installed', roots: 1 });
  });

  it('its three tools fit their share of tools/list', async () => {
    const { t } = await page();
    const tools = (await t.mcp.tools()).filter((tool) => tool.name.startsWith('react_'));
    expect(tools.map((tool) => tool.name)).toEqual(['react_tree', 'react_inspect', 'react_renders']);
    const bytes = tools.reduce((sum, tool) => sum + JSON.stringify(tool).length, 0);
    // 2,198 bytes before react_inspect's `set` (writing props, hooks, state) took about 300
    expect(bytes).toBeLessThanOrEqual(2.5 * 1024);
  });
});
