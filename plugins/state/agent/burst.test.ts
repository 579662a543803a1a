import { createStore } from 'redux';
import { expect, it } from 'vitest';
import { MemoryBudget } from '../../../shared/records.js';
import { StateData } from '../host/data.js';
import type { ActionSent } from '../protocol.js';
import { enhancer } from './devtools.js';
import { Hub } from './hub.js';
import { change, drain } from './work.js';

// A burst keeps every action (type, order, time) but not every state: the first `burst` entries of
// each window wait whole and keep their states, the last one keeps its state and its diff covers
// those between (`span`); past the first `burst` an action keeps its type, the latest its payload too.

type S = { items: number[]; n: number };
const reducer = (s: S = { items: [0, 0, 0], n: 0 }, a: { type: string; i?: number }): S => {
  if (a.type !== 'bump' || a.i === undefined) return s;
  const items = s.items.slice();
  items[a.i] = items[a.i]! + 1;
  return { items, n: s.n + 1 };
};

function drainAll(h: Hub) {
  const out: ActionSent[] = [];
  while (h.waiting.count) out.push(...((drain(h, false).actions ?? []) as ActionSent[]));
  return out;
}

function setup(flushMs: number) {
  const h = new Hub();
  h.flushMs = flushMs;
  const store = createStore(reducer, enhancer(h, { name: 'burst' }) as never);
  return { h, store, s: h.stores[0]! };
}

it('keeps every action of a burst, the states of its first actions and of its last, and says what the last diff spans', () => {
  const { h, store, s } = setup(60_000);
  for (let i = 0; i < 1000; i++) store.dispatch({ type: 'bump', i: i % 3 });
  const actions = drainAll(h);
  expect(actions.map((a) => a.seq)).toEqual(Array.from({ length: 1001 }, (_, i) => i));
  expect(actions.every((a, i) => i === 0 || a.type === 'bump')).toBe(true);
  // Past the window's first `burst` entries an action waits as its type; the latest is whole.
  expect(actions[h.burst - 1]!.action).toMatchObject({ props: { type: 'bump', i: (h.burst - 2) % 3 } });
  expect(actions[h.burst]!.action).toEqual({ $: 'object', props: { type: 'bump' } });
  expect(actions[500]!.action).toEqual({ $: 'object', props: { type: 'bump' } });
  expect(actions[1000]!.action).toMatchObject({ props: { type: 'bump', i: 0 } });
  const diffed = actions.filter((a) => a.diff?.length).map((a) => a.seq);
  // The window's first `burst` entries (the init and 19 actions) keep their states; then only the last.
  const kept = h.burst - 1;
  expect(diffed).toEqual([...Array.from({ length: kept }, (_, i) => i + 1), 1000]);
  expect(actions[1000]).toMatchObject({
    span: 1000 - kept - 1,
    diff: [{ path: 'items[0]' }, { path: 'items[1]' }, { path: 'items[2]' }, { path: 'n', before: kept, after: 1000 }],
  });

  // A jump goes to a state the app kept, and explains one it let go.
  const back = change(h, { store: s.info.id, mode: 'jump', value: 5 });
  expect(back.to).toBe(1001);
  expect(store.getState().n).toBe(5);
  expect(() => change(h, { store: s.info.id, mode: 'jump', value: 500 })).toThrow(
    /no longer keeps the state after #500 .*in a burst only the first 20 actions of each 60000 ms and the last/,
  );
});

it('keeps the state of every action when they come apart, and the last of a burst once the next window begins', async () => {
  const { h, store } = setup(5);
  for (let i = 0; i < 30; i++) store.dispatch({ type: 'bump', i: 1 });
  await new Promise((r) => setTimeout(r, 10));
  store.dispatch({ type: 'bump', i: 2 });
  const actions = drainAll(h);
  const last = actions.at(-1)!;
  // The burst's last state (#30) stayed, so the action after the pause has a diff of its own.
  expect(last).toMatchObject({ seq: 31, diff: [{ path: 'items[2]', before: 0, after: 1 }, { path: 'n' }] });
  expect(last.span).toBeUndefined();
});

it('sends a run of actions kept by type alone as one entry to an inspector that speaks 1.1, which lists each of them', () => {
  const sent = (hostVersion: string) => {
    const { h, store } = setup(60_000);
    h.ctx = { hostVersion } as never;
    for (let i = 0; i < 3000; i++) store.dispatch({ type: 'bump', i: i % 3 });
    const actions = drainAll(h);
    const data = new StateData(new MemoryBudget());
    data.ingest({ run: h.run, stores: h.stores.map((s) => s.info), full: true });
    for (let i = 0; i < actions.length; i += 500) data.ingest({ run: h.run, actions: actions.slice(i, i + 500) });
    return { actions, listed: data.timeline(h.stores[0]!.info.id) };
  };
  const old = sent('1.0.0');
  const runs = sent('1.1.0');
  expect(old.actions).toHaveLength(3001);
  expect(old.actions.some((a) => a.repeat)).toBe(false);
  // The actions of one clock reading (32 at most apart) and one type ride in one entry.
  expect(runs.actions.length).toBeLessThan(3001 / 20);
  expect(runs.actions.reduce((n, a) => n + 1 + (a.repeat ?? 0), 0)).toBe(3001);
  // The inspector lists the same timeline either way (times and store ids aside: two stores, two clocks).
  const strip = (list: typeof old.listed) => list.map(({ time: _t, store: _s, ...a }) => a);
  expect(strip(runs.listed)).toEqual(strip(old.listed));
  expect(runs.listed.map((a) => a.seq)).toEqual(Array.from({ length: 3001 }, (_, i) => i));
});

it('keeps the order and type of every action in runs of mixed types and stores, at most 1,000 a run', () => {
  const h = new Hub();
  h.flushMs = 60_000;
  h.runs = true;
  const a = createStore(reducer, enhancer(h, { name: 'a' }) as never);
  const b = createStore(reducer, enhancer(h, { name: 'b' }) as never);
  const sent: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const type = i < 2500 ? 'bump' : i % 2 ? 'other' : 'bump';
    a.dispatch({ type, i: 0 });
    sent.push(`a:${type}`);
    if (i % 100 === 99 && i > 2000) {
      b.dispatch({ type: 'bump', i: 1 });
      sent.push('b:bump');
    }
  }
  const actions = drainAll(h);
  const [ia, ib] = h.stores.map((s) => s.info.id);
  const names = new Map([
    [ia, 'a'],
    [ib, 'b'],
  ]);
  const listed = actions
    .filter((x) => x.seq > 0)
    .flatMap((x) => Array.from({ length: 1 + (x.repeat ?? 0) }, () => `${names.get(x.store)}:${x.type}`));
  expect(listed).toEqual(sent);
  expect(Math.max(...actions.map((x) => 1 + (x.repeat ?? 0)))).toBeLessThanOrEqual(1000);
  expect(actions.length).toBeLessThan(700);
});

it('gives a store with an actionSanitizer each action of a run, one by one', () => {
  const h = new Hub();
  h.flushMs = 60_000;
  h.runs = true;
  const seen: number[] = [];
  const actionSanitizer = (action: unknown, id: number) => {
    seen.push(id);
    return { ...(action as object), clean: true };
  };
  const store = createStore(reducer, enhancer(h, { name: 'clean', actionSanitizer }) as never);
  for (let i = 0; i < 100; i++) store.dispatch({ type: 'bump', i: 0 });
  const actions = drainAll(h);
  expect(actions).toHaveLength(101);
  expect(actions.every((x) => x.repeat === undefined)).toBe(true);
  expect(seen).toEqual(Array.from({ length: 101 }, (_, i) => i));
  expect(actions[50]!.action).toEqual({ $: 'object', props: { type: 'bump', clean: true } });
});
