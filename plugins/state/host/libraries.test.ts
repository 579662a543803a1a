import { describe, expect, it } from 'vitest';
import { waitFor } from '../../../electron/host/testing.js';
import { startState, windowIsGlobal } from './testing.js';

// The real libraries, wired as their docs say, through the plugin kit: a real core, the agent part
// in this process, the tools called by a real MCP SDK client over HTTP and by the window.

windowIsGlobal();
const { configureStore, createSlice } = await import('@reduxjs/toolkit');
type Middleware = import('@reduxjs/toolkit').Middleware;
const { createStore } = await import('zustand/vanilla');
const { devtools } = await import('zustand/middleware');
const { QueryClient } = await import('@tanstack/query-core');

type Json = Record<string, unknown>;

const todos = createSlice({
  name: 'todos',
  initialState: {
    items: [] as { id: number; title: string; done: boolean }[],
    filter: 'all',
    auth: { token: 'tok-1' },
  },
  reducers: {
    added: (s, a: { payload: string }) => void s.items.push({ id: s.items.length + 1, title: a.payload, done: false }),
    toggled: (s, a: { payload: number }) => {
      const t = s.items.find((i) => i.id === a.payload);
      if (t) t.done = !t.done;
    },
    boom: () => {
      throw new Error('the reducer blew up');
    },
  },
});

const rtkStore = () => configureStore({ reducer: todos.reducer });

describe('Redux Toolkit with devTools left at its default', () => {
  it('lists the store, its actions with diffs, reads by path, and behaves as without Porthole', async () => {
    const { t, stored } = await startState();
    const store = rtkStore();
    const plain = configureStore({ reducer: todos.reducer, devTools: false });
    let notified = 0;
    let notifiedPlain = 0;
    store.subscribe(() => notified++);
    plain.subscribe(() => notifiedPlain++);
    for (const s of [store, plain]) {
      expect(s.dispatch(todos.actions.added('milk'))).toEqual(todos.actions.added('milk'));
      s.dispatch(todos.actions.added('eggs'));
      s.dispatch(todos.actions.toggled(2));
    }
    expect(store.getState()).toEqual(plain.getState());
    expect(notified).toBe(notifiedPlain);
    await stored('redux', 3);

    const list = await t.mcp.call('state_list_stores');
    expect(list.isError, list.text).toBe(false);
    expect((list.structuredContent as { stores: Json[] }).stores).toEqual([
      expect.objectContaining({
        name: 'redux',
        library: 'redux',
        active: true,
        actions: 4,
        latest: 3,
        can: ['dispatch', 'set', 'jump'],
      }),
    ]);

    const actions = await t.mcp.call('state_list_actions', { store: 'redux' });
    const listed = (actions.structuredContent as { actions: Json[] }).actions;
    expect(listed.map((a) => a.type)).toEqual(['@@INIT', 'todos/added', 'todos/added', 'todos/toggled']);
    expect(listed[1]).toMatchObject({
      seq: 1,
      payload: { payload: 'milk' },
      diff: [{ path: 'items[0]', after: { id: 1, title: 'milk', done: false } }],
    });
    expect(listed[3]).toMatchObject({ diff: [{ path: 'items[1].done', before: false, after: true }] });

    // The session's timeline shows the actions, with the store's name (the init is not an event).
    const onTimeline = t.core.plugins.timeline(t.sessionId).query({ plugins: ['state'], limit: 10 });
    expect(onTimeline.entries.map((e) => [e.kind, e.summary])).toEqual([
      ['action', 'redux: todos/added (1 change)'],
      ['action', 'redux: todos/added (1 change)'],
      ['action', 'redux: todos/toggled (1 change)'],
    ]);

    const since = await t.mcp.call('state_list_actions', { since: 2, type: 'TOGGLED' });
    expect((since.structuredContent as { actions: Json[] }).actions.map((a) => a.seq)).toEqual([3]);

    const read = await t.mcp.call('state_get', { path: 'items[1]' });
    expect(read.isError, read.text).toBe(false);
    expect(read.structuredContent).toEqual({
      summary: expect.any(String),
      store: 'redux',
      path: 'items[1]',
      value: { id: 2, title: 'eggs', done: true },
      size: 3,
    });
    const dotted = await t.mcp.call('state_get', { path: 'items.0.title' });
    expect(dotted.structuredContent).toMatchObject({ path: 'items[0].title', value: 'milk' });
    const missing = await t.mcp.call('state_get', { path: 'items[7]' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/nothing at items\[7\]: items is an array of 2/);
  });

  it('dispatches (through the middleware, with Ask by default answered), sets and jumps back', async () => {
    const { t, stored, allow } = await startState();
    const passed: string[] = [];
    const counting: Middleware = () => (next) => (action) => {
      passed.push((action as { type: string }).type);
      return next(action);
    };
    const store = configureStore({
      reducer: todos.reducer,
      middleware: (d) => d().concat(counting),
    });
    store.dispatch(todos.actions.added('milk'));
    await stored('redux', 1);

    // Ask by default: the window (the kit's bridge is open) is asked; the test answers it.
    const pending = t.mcp.call('state_dispatch', { action: { type: 'todos/added', payload: 'bread' } });
    const ask = await waitFor(() => t.core.permissions.asks()[0], 'the permission prompt');
    expect(ask).toMatchObject({
      tool: 'state_dispatch',
      change: 'Dispatches {"type":"todos/added","payload":"bread"} to the store in the app.',
    });
    t.core.permissions.answer(ask.id, 'allow-once');
    const done = await pending;
    expect(done.isError, done.text).toBe(false);
    expect(done.structuredContent).toMatchObject({
      store: 'redux',
      mode: 'dispatch',
      actions: [{ seq: 2, type: 'todos/added', diff: [{ path: 'items[1]', after: { title: 'bread' } }] }],
    });
    expect(store.getState().items.map((i) => i.title)).toEqual(['milk', 'bread']);
    expect(passed).toEqual(['todos/added', 'todos/added']); // through the app's middleware

    allow();
    const thunk = await t.mcp.call('state_dispatch', { mode: 'set', action: { filter: 'done' } });
    expect(thunk.structuredContent).toMatchObject({
      actions: [{ kind: 'set', diff: [{ path: 'filter', before: 'all', after: 'done' }] }],
    });
    expect(store.getState().filter).toBe('done');

    const jump = await t.mcp.call('state_dispatch', { mode: 'jump', action: 1 });
    expect(jump.isError, jump.text).toBe(false);
    expect(store.getState()).toMatchObject({ items: [{ title: 'milk' }], filter: 'all' });
    expect(jump.structuredContent).toMatchObject({ actions: [{ kind: 'jump', seq: 4 }] });

    const tooOld = await t.mcp.call('state_dispatch', { mode: 'jump', action: 99 });
    expect(tooOld.text).toMatch(/no longer keeps the state after #99 .*maxAge/);
  });

  it('records an action whose reducer throws, and the app still gets the throw', async () => {
    const { t, stored } = await startState();
    const store = rtkStore();
    expect(() => store.dispatch(todos.actions.boom())).toThrow('the reducer blew up');
    await stored('redux', 1);
    const actions = await t.mcp.call('state_list_actions');
    expect((actions.structuredContent as { actions: Json[] }).actions.at(-1)).toMatchObject({
      type: 'todos/boom',
      kind: 'error',
      error: 'the reducer threw: the reducer blew up',
      diff: [],
    });
    // From the inspector: the person allows it, the throw comes back as the tool's failure.
    const pending = t.mcp.call('state_dispatch', { action: { type: 'todos/boom' } });
    const ask = await waitFor(() => t.core.permissions.asks()[0], 'the permission prompt');
    t.core.permissions.answer(ask.id, 'allow-once');
    const failed = await pending;
    expect(failed.isError).toBe(true);
    expect(failed.text).toMatch(/the store threw while dispatching todos\/boom: the reducer blew up/);
  });
});

describe("Zustand's devtools middleware", () => {
  it('is found as zustand, sets state through __setState, jumps, and dispatches to its redux middleware', async () => {
    const { t, stored, allow } = await startState();
    allow();
    const bears = createStore<{ bears: number; add: () => void }>()(
      devtools((set) => ({ bears: 0, add: () => set((s) => ({ bears: s.bears + 1 }), false, 'bears/add') }), {
        name: 'bears',
      }),
    );
    bears.getState().add();
    bears.getState().add();
    await stored('bears', 2);
    expect(t.host.stores().find((s) => s.name === 'bears')).toMatchObject({
      library: 'zustand',
      can: { set: true, jump: true },
    });
    const read = await t.mcp.call('state_get', { store: 'bears' });
    expect(read.structuredContent).toMatchObject({ value: { bears: 2, add: { $: 'function', name: 'add' } } });

    const set = await t.mcp.call('state_dispatch', { store: 'bears', mode: 'set', action: { bears: 10 } });
    expect(set.isError, set.text).toBe(false);
    expect(bears.getState().bears).toBe(10);
    expect(typeof bears.getState().add).toBe('function');

    const jump = await t.mcp.call('state_dispatch', { store: 'bears', mode: 'jump', action: 1 });
    expect(jump.isError, jump.text).toBe(false);
    expect(bears.getState().bears).toBe(1);

    const dispatched = await t.mcp.call('state_dispatch', { store: 'bears', action: { type: 'bears/add' } });
    expect(dispatched.structuredContent).toMatchObject({
      actions: [],
      note: expect.stringMatching(/recorded no action.*use mode set/),
    });
  });

  it('tells two stores with one name apart', async () => {
    const { t, stored } = await startState();
    const make = () => createStore<{ n: number }>()(devtools(() => ({ n: 0 }), { name: 'counter' }));
    make();
    make();
    await stored('counter (2)');
    const list = await t.mcp.call('state_list_stores');
    expect((list.structuredContent as { stores: Json[] }).stores).toEqual([
      expect.objectContaining({ name: 'counter' }),
      expect.objectContaining({
        name: 'counter (2)',
        note: expect.stringMatching(/another store connected with the name "counter" first/),
      }),
    ]);
    const ambiguous = await t.mcp.call('state_get');
    expect(ambiguous.text).toMatch(/name the store: the app has "counter", "counter \(2\)"/);
  });
});

describe('TanStack Query (query-core), handed over with state({ queryClient })', () => {
  it('lists queries with status and age, reads one by key, invalidates and refetches behind Ask', async () => {
    const client = new QueryClient();
    let fetched = 0;
    await client.fetchQuery({ queryKey: ['todos', 1], queryFn: async () => ({ id: 1, title: 'milk', secret: 's3' }) });
    await client
      .fetchQuery({
        queryKey: ['user'],
        queryFn: async () => Promise.reject(new Error('401 unauthorized')),
        retry: false,
      })
      .catch(() => {});
    const { t, allow } = await startState({ queryClient: client });
    await client.fetchQuery({ queryKey: ['counter'], queryFn: async () => ++fetched });
    client.getQueryCache().build(client, { queryKey: ['later'], queryFn: async () => 0 });
    await waitFor(() => t.host.data.queries.size === 4, 'four queries');

    const list = await t.mcp.call('state_list_stores', { queries: true });
    expect(list.isError, list.text).toBe(false);
    const queries = (list.structuredContent as { queries: Json[] }).queries;
    expect(queries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          key: ['todos', 1],
          status: 'success',
          fetchStatus: 'idle',
          ageMs: expect.any(Number),
          observers: 0,
        }),
        expect.objectContaining({ key: ['user'], status: 'error', error: '401 unauthorized' }),
        expect.objectContaining({ key: ['later'], status: 'pending' }),
      ]),
    );
    const errors = await t.mcp.call('state_list_stores', { status: 'error' });
    expect((errors.structuredContent as { total: number }).total).toBe(1);

    const one = await t.mcp.call('state_get', { query: ['todos', 1] });
    expect(one.isError, one.text).toBe(false);
    expect(one.structuredContent).toMatchObject({
      query: { status: 'success' },
      path: '',
      value: { id: 1, title: 'milk', secret: '[redacted]' },
    });

    allow();
    const invalidate = await t.mcp.call('state_dispatch', { mode: 'invalidate', action: ['todos'] });
    expect(invalidate.structuredContent).toMatchObject({ mode: 'invalidate', queries: 1 });
    await waitFor(
      () => t.host.data.queries.get(client.getQueryCache().find({ queryKey: ['todos', 1] })!.queryHash)?.invalidated,
      'invalidated',
    );
    const refetch = await t.mcp.call('state_dispatch', { mode: 'refetch', action: ['counter'] });
    expect(refetch.structuredContent).toMatchObject({ queries: 1 });
    await waitFor(() => client.getQueryData(['counter']) === 2, 'the refetch');
  });
});
