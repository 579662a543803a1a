import { afterEach, describe, expect, it } from 'vitest';
import { shop } from '../../../agent/react/app-testing.js';
import { freshReactHook, installDom, loadReact, mount, removeReactHook } from '../../../agent/react/testing.js';
import { startPlugin } from '../../../electron/host/plugin-testing.js';
import { waitFor } from '../../../electron/host/testing.js';
import { react } from '../agent/index.js';
import type { InspectResult, RendersResult } from '../protocol.js';
import reactPlugin from './index.js';

// Writing props, state and hooks as React DevTools does (the renderer's overrides), from an agent
// (react_inspect's `set`, which asks the person first) and from the panel (the person's own edit).

installDom();
const g = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
afterEach(() => {
  g.IS_REACT_ACT_ENVIRONMENT = true;
  document.body.innerHTML = '';
  removeReactHook();
});

async function page(major: 18 | 19, production = false) {
  freshReactHook();
  const t = await startPlugin(reactPlugin, react());
  const r = loadReact(major, { production });
  const app = shop(r.React);
  const view = mount(r, r.React.createElement(app.App));
  // Then React schedules writes as in a page, not inside a test's act().
  g.IS_REACT_ACT_ENVIRONMENT = false;
  const asked: string[] = [];
  let answer: 'deny' | 'allow-once' = 'deny';
  t.core.bus.on('permission:ask', ({ ask }) => {
    asked.push(ask.change);
    t.core.permissions.answer(ask.id, answer);
  });
  const allow = (yes: boolean) => {
    answer = yes ? 'allow-once' : 'deny';
  };
  const text = (selector: string) => view.container.querySelector(selector)?.textContent;
  return { t, app, asked, allow, text };
}

describe('writing props, state and hooks', () => {
  it.each([19, 18] as const)(
    'React %s: an agent sets a useState value and a prop after the person allows it; a denial changes nothing',
    async (major) => {
      const { t, app, asked, allow, text } = await page(major);
      const before = { ...app.controls.counts };

      const denied = await t.mcp.call('react_inspect', { name: 'Counter', set: { path: ['hooks', '0'], value: 41 } });
      expect(denied.isError).toBe(true);
      expect(denied.text).toMatch(/declined react_inspect/);
      expect(asked).toEqual(['Set hooks[0] of the React component "Counter" to 41 (React re-renders it)']);
      expect(text('#inc')).toBe('Clicks 0');
      expect(app.controls.counts).toEqual(before);

      allow(true);
      const set = await t.mcp.call('react_inspect', { name: 'Counter', set: { path: ['hooks', '0'], value: 41 } });
      expect(set.isError, set.text).toBe(false);
      const after = set.structuredContent as InspectResult;
      expect(after.hooks?.[0]).toEqual({ kind: 'state', value: 41 });
      expect(after.hooks?.[2]).toMatchObject({ kind: 'memo', value: 82 });
      expect(text('#inc')).toBe('Clicks 41');
      expect(app.controls.counts.Counter).toBeGreaterThan(before.Counter!);
      const renders = await t.mcp.call('react_renders', { name: 'Counter' });
      expect((renders.structuredContent as RendersResult).components[0]?.why).toMatchObject({ written: 1 });

      const prop = await t.mcp.call('react_inspect', {
        id: after.id,
        set: { path: ['props', 'label'], value: 'Taps' },
      });
      expect((prop.structuredContent as InspectResult).props.label).toBe('Taps');
      expect(text('#inc')).toBe('Taps 41');
      expect(asked).toHaveLength(3);

      // a reducer's state, deep inside it: a copy with the item replaced
      await t.mcp.call('react_inspect', { id: after.id, set: { path: ['hooks', '1'], value: ['a', 'b'] } });
      await t.mcp.call('react_inspect', { id: after.id, set: { path: ['hooks', '1', '0'], value: 'z' } });
      expect(text('#info')).toMatch(/ 2$/);
      const reducer = (await t.mcp.call('react_inspect', { id: after.id })).structuredContent as InspectResult;
      expect(reducer.hooks?.[1]?.value).toMatchObject({ $: 'array', items: ['z', 'b'] });

      // a class component's state, through its own setState
      const clock = await t.mcp.call('react_inspect', { name: 'Clock', set: { path: ['state', 'ticks'], value: 7 } });
      expect((clock.structuredContent as InspectResult).state).toMatchObject({ ticks: 7 });
      expect(text('time')).toBe('ticks 7');
    },
  );

  it('refuses what cannot be written, saying what can; the app is untouched', async () => {
    const { t, allow, text } = await page(19);
    allow(true);
    const refused = async (args: Record<string, unknown>) => {
      const answer = await t.mcp.call('react_inspect', args);
      expect(answer.isError, answer.text).toBe(true);
      return answer.text;
    };
    expect(await refused({ name: 'Counter', set: { path: ['hooks', '2'], value: 1 } })).toMatch(
      /hook #2 is a memo hook: only state and reducer hooks can be written/,
    );
    expect(await refused({ name: 'Counter', set: { path: ['hooks', '99'], value: 1 } })).toMatch(/no hook #99/);
    expect(await refused({ name: 'Counter', set: { path: ['state', 'count'], value: 1 } })).toMatch(
      /only a class component has state of its own/,
    );
    expect(await refused({ name: 'Counter', set: { path: ['context', 'x'], value: 1 } })).toMatch(
      /the path starts with "props", "state" or "hooks"/,
    );
    expect(await refused({ name: 'Nope', set: { path: ['props', 'x'], value: 1 } })).toMatch(/no mounted component/);
    expect(await refused({ name: 'Counter', set: { path: ['props'], value: 1 } })).toMatch(/path/);
    expect(await refused({ name: 'Counter', set: { path: ['props', 'label'] } })).toMatch(/set\.value/);
    expect(text('#inc')).toBe('Clicks 0');
  });

  it('with the read-only switch on, a write is refused without asking; reading still works', async () => {
    const { t, asked, allow, text } = await page(19);
    allow(true);
    t.core.permissions.set({ ...t.core.permissions.policy(), readOnly: true });
    const write = await t.mcp.call('react_inspect', { name: 'Counter', set: { path: ['hooks', '0'], value: 9 } });
    expect(write.isError).toBe(true);
    expect(write.text).toMatch(/read-only for AI agents.*switch read-only off/);
    expect(asked).toEqual([]);
    expect(text('#inc')).toBe('Clicks 0');
    const read = await t.mcp.call('react_inspect', { name: 'Counter' });
    expect(read.isError, read.text).toBe(false);
    expect((read.structuredContent as InspectResult).hooks?.[0]).toEqual({ kind: 'state', value: 0 });
  });

  it('a production build has no overrides: told plainly', async () => {
    const { t, allow } = await page(19, true);
    allow(true);
    const answer = await t.mcp.call('react_inspect', { name: 'Counter', set: { path: ['hooks', '0'], value: 3 } });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/production build.*development build/);
  });

  it("the panel's edit is the person's own: written without asking", async () => {
    const { t, asked, text } = await page(19);
    const tree = await t.panel.call('tree', { name: 'Counter', depth: 40, limit: 150, hosts: false });
    const id = tree.nodes.find((n) => n.n === 'Counter')!.id;
    const after = await t.panel.call('inspect', { id, highlight: false, set: { path: ['hooks', '0'], value: 5 } });
    expect(after.hooks?.[0]).toEqual({ kind: 'state', value: 5 });
    await waitFor(() => text('#inc') === 'Clicks 5', 'the page to show the new state');
    expect(asked).toEqual([]);
  });
});
