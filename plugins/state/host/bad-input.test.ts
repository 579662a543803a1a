import { describe, expect, it } from 'vitest';
import { waitFor } from '../../../electron/host/testing.js';
import { hub } from '../agent/hub.js';
import { state } from '../agent/index.js';
import { LIMITS } from './data.js';
import { startState, windowIsGlobal } from './testing.js';

// What a debuggee may hold or do that a toy would not survive: values JSON cannot hold, a 50 MB
// state, a flood of actions, a store made before connect(), a broken batch, secrets in the state.

windowIsGlobal();
const { configureStore, createSlice } = await import('@reduxjs/toolkit');
const { createStore } = await import('zustand/vanilla');
const { devtools } = await import('zustand/middleware');

type Json = Record<string, unknown>;

class Cart {
  items = new Map<string, number>([['apple', 2]]);
  owner = { name: 'Ann' } as { name: string; self?: unknown };
  total() {
    return 2;
  }
}

describe('values JSON cannot hold', () => {
  it('reads functions, class instances, Maps, Sets, Dates and cycles, and diffs a Map that changed', async () => {
    const { t, stored } = await startState();
    const cart = new Cart();
    cart.owner.self = cart.owner;
    const s = createStore<Json>()(
      devtools(() => ({ cart, tags: new Set(['a']), when: new Date(0), big: 10n, fn: () => 1 }), { name: 'odd' }),
    );
    s.setState({ cart: Object.assign(new Cart(), { items: new Map([['pear', 1]]) }) }, false, 'cart/replace');
    await stored('odd', 1);
    const read = await t.mcp.call('state_get', { store: 'odd' });
    expect(read.isError, read.text).toBe(false);
    expect((read.structuredContent as { value: Json }).value).toMatchObject({
      cart: { $class: 'Cart', items: { $: 'map', size: 1 }, owner: { name: 'Ann' } },
      tags: { $: 'set', size: 1, items: ['a'] },
      when: { $: 'date', v: '1970-01-01T00:00:00.000Z' },
      big: { $: 'bigint', v: '10' },
      fn: { $: 'function', name: 'fn' },
    });
    const cyclic = await t.mcp.call('state_get', { store: 'odd', path: 'cart.owner' });
    expect(cyclic.structuredContent).toMatchObject({ value: { name: 'Ann' } });
    const actions = await t.mcp.call('state_list_actions', { store: 'odd' });
    const last = (actions.structuredContent as { actions: Json[] }).actions.at(-1)!;
    expect(last).toMatchObject({
      type: 'cart/replace',
      diff: [{ path: 'cart', before: { $class: 'Cart' }, after: { $class: 'Cart' } }],
    });
  });
});

describe('size and speed the app sets', () => {
  it('answers within bounds for a 50 MB state, pages a big collection, and says the size is a lower bound', async () => {
    const { t, stored } = await startState();
    const rows = Array.from({ length: 250_000 }, (_, i) => ({ id: i, title: `row ${i} ${'x'.repeat(170)}` }));
    const slice = createSlice({
      name: 'big',
      initialState: { rows, selected: 0 },
      reducers: { select: (s, a: { payload: number }) => void (s.selected = a.payload) },
    });
    // Immutability and serializability checks walk the whole state per action: off, as apps with big states do.
    const store = configureStore({
      reducer: slice.reducer,
      middleware: (d) => d({ immutableCheck: false, serializableCheck: false }),
      devTools: { name: 'big' },
    });
    store.dispatch(slice.actions.select(7));
    const view = await stored('big', 1);
    expect(JSON.stringify(rows).length).toBeGreaterThan(50_000_000);
    const sized = await waitFor(() => t.host.stores().find((s) => s.name === 'big' && s.size), 'a size estimate');
    expect(sized.sizeAtLeast).toBe(true);
    expect(view.can).toMatchObject({ jump: true });

    const root = await t.mcp.call('state_get', { store: 'big' });
    expect(root.isError, root.text).toBe(false);
    expect(root.text.length).toBeLessThan(25_000);
    const page = await t.mcp.call('state_get', { store: 'big', path: 'rows' });
    const answer = page.structuredContent as { value: unknown[]; size: number; next: string };
    expect(answer.size).toBe(250_000);
    expect(answer.next).toMatch(/^\d+ more: call again with offset \d+$/);
    const offset = Number(/offset (\d+)/.exec(answer.next)![1]);
    const next = await t.mcp.call('state_get', { store: 'big', path: 'rows', offset });
    expect((next.structuredContent as { value: Json[] }).value[0]).toMatchObject({ id: offset });

    const actions = await t.mcp.call('state_list_actions', { store: 'big' });
    expect((actions.structuredContent as { actions: Json[] }).actions.at(-1)).toMatchObject({
      diff: [{ path: 'selected', before: 0, after: 7 }],
    });
  });

  it('keeps a flood of 100,000 actions bounded and counts what it dropped', async () => {
    const { t } = await startState();
    const slice = createSlice({
      name: 'n',
      initialState: { n: 0 },
      reducers: { inc: (s) => void s.n++, dec: (s) => void s.n-- },
    });
    const settled = (name: string) =>
      waitFor(
        () => t.host.stores().find((s) => s.name === name && s.latest === 100_000),
        `${name}'s last action`,
        20_000,
      );

    // One type: the app sends the flood in runs; the inspector keeps the newest 20,000 and counts the rest.
    const runs = configureStore({ reducer: slice.reducer, devTools: { name: 'flood' } });
    for (let i = 0; i < 100_000; i++) runs.dispatch(slice.actions.inc());
    expect(runs.getState().n).toBe(100_000);
    const view = await settled('flood');
    expect(view.actions).toBe(LIMITS.actions);
    expect(view.dropped).toBe(100_001 - LIMITS.actions);

    // Types that alternate: one entry each; 5,000 wait in the app at most, the rest were dropped there and counted.
    const apart = configureStore({ reducer: slice.reducer, devTools: { name: 'alternating' } });
    for (let i = 0; i < 100_000; i++) apart.dispatch(i % 2 ? slice.actions.dec() : slice.actions.inc());
    const alternating = await settled('alternating');
    expect(alternating.dropped).toBe(100_001 - 5_000);
    expect(alternating.actions).toBe(5_000);
    // The inspector's 20,000 are for all stores: the first flood gave up its oldest to the second.
    const list = await t.mcp.call('state_list_stores');
    const [flood, second] = (list.structuredContent as { stores: { actions: number; dropped: number }[] }).stores;
    expect(flood!.actions + second!.actions).toBe(LIMITS.actions);
    expect(flood!.actions + flood!.dropped).toBe(100_001);
    expect(second).toMatchObject({ name: 'alternating', dropped: 95_001 });
  }, 30_000);
});

describe('timing and identity', () => {
  it('lists a store created before connect() as early, with what it did since', async () => {
    hub().stores.splice(0);
    const early = createStore<{ n: number }>()(devtools(() => ({ n: 0 }), { name: 'early' }));
    early.setState({ n: 1 }, false, 'n/one');
    const { t, stored } = await startState({}, { keepStores: true });
    await stored('early', 1);
    const list = await t.mcp.call('state_list_stores');
    expect((list.structuredContent as { stores: Json[] }).stores).toEqual([
      expect.objectContaining({ name: 'early', early: expect.stringMatching(/created before connect\(\)/), latest: 1 }),
    ]);
  });

  it('explains an app with no store, and a session whose app went away', async () => {
    const { t } = await startState();
    const empty = await t.mcp.call('state_list_stores');
    expect(empty.structuredContent).toMatchObject({
      stores: [],
      hint: expect.stringMatching(/import @porthole\/agent\/state .* before the module that creates your store/),
    });
    const read = await t.mcp.call('state_get');
    expect(read.isError).toBe(true);
    expect(read.text).toMatch(/no store to read: No store has connected/);
    await t.disconnect();
    const gone = await t.mcp.call('state_list_stores', { sessionId: t.sessionId });
    expect(gone.structuredContent).toMatchObject({ hint: expect.stringMatching(/not connected/) });
  });

  it('refuses a malformed action from a broken agent, counts it, and keeps the rest', async () => {
    const { t, stored } = await startState();
    createStore<{ n: number }>()(devtools(() => ({ n: 0 }), { name: 'ok' }));
    const view = await stored('ok');
    t.sendEvent('batch', {
      run: view.id.split('.')[0]!,
      actions: [
        { store: view.id, seq: 'x' },
        { store: 'nobody', seq: 1, time: 0, type: 't', diff: [] },
        { store: view.id, seq: 1, time: 1, type: 'fine', diff: [] },
      ],
    });
    await stored('ok', 1);
    expect(t.host.data.refused).toBe(2);
    expect(t.host.data.lastRefusal).toMatch(/never announced/);
  });
});

describe('redaction', () => {
  it('hides secret keys and the app’s paths from agents, shows everything to the window, and the Agent view says so', async () => {
    const { t, stored } = await startState();
    createStore<Json>()(
      devtools(() => ({ auth: { token: 'eyJ.secret', user: { name: 'Ann', ssn: '123-45' } }, password: 'hunter2' }), {
        name: 'session',
      }),
    );
    const view = await stored('session');
    const before = await t.mcp.call('state_get', { store: 'session' });
    expect(before.structuredContent).toMatchObject({
      value: { auth: { token: '[redacted]', user: { name: 'Ann', ssn: '123-45' } }, password: '[redacted]' },
    });
    expect(before.text).not.toContain('hunter2');

    await t.panel.call('setRules', { paths: ['auth.user.ssn'], keys: [] });
    const after = await t.mcp.call('state_get', { store: 'session', path: 'auth.user' });
    expect(after.structuredContent).toMatchObject({ value: { name: 'Ann', ssn: '[redacted]' } });
    const direct = await t.mcp.call('state_get', { store: 'session', path: 'auth.token' });
    expect(direct.structuredContent).toMatchObject({ value: '[redacted]' });

    const raw = await t.panel.call('read', { store: view.id, path: '', offset: 0, maxBytes: 20_000 });
    expect(JSON.stringify(raw.value)).toContain('hunter2');
    const agentView = await t.panel.call('agentView', { store: view.id, path: '', offset: 0, maxBytes: 20_000 });
    expect(agentView.rules).toEqual({ paths: ['auth.user.ssn'], keys: [] });
    expect(JSON.stringify(agentView.result)).not.toMatch(/hunter2|123-45|eyJ/);
    expect(t.panel.events.some((e) => e.event === 'rules')).toBe(true);
  });
});

it('the agent part alone can be created twice (a second connect() takes over the hub)', () => {
  const a = state();
  const b = state();
  a.dispose();
  b.dispose();
  expect(hub().stores).toBeDefined();
});
