import { expect, it } from 'vitest';
import { waitFor } from '../../../electron/host/testing.js';

// The Redux DevTools browser extension was there first (it injects its API before the page's
// scripts). It cannot run outside a browser with its content script, so a stand-in plays it here,
// shaped as its page script is (extension/src/pageScript/index.ts): an enhancer function with
// connect(), and a compose that puts its enhancer innermost. Both must keep working.

type Listener = (message: { type: string; payload?: unknown; state?: string }) => void;
const seen: string[] = [];
const monitors: Listener[] = [];
// biome-ignore lint/suspicious/noExplicitAny: the extension's API is untyped
type Any = any;
const extension: Any =
  (config: Any = {}) =>
  (next: Any) =>
  (reducer: Any, preloaded: Any) => {
    const store = next(reducer, preloaded);
    seen.push(`enhancer ${config.name ?? ''}`.trim());
    return {
      ...store,
      dispatch: (action: Any) => {
        seen.push(`action ${action.type}`);
        return store.dispatch(action);
      },
    };
  };
extension.connect = (config: Any = {}) => {
  seen.push(`connect ${config.name}`);
  return {
    init: () => seen.push('init'),
    send: (action: Any) => seen.push(`send ${action.type}`),
    subscribe: (listener: Listener) => {
      monitors.push(listener);
      return () => monitors.splice(monitors.indexOf(listener), 1);
    },
    unsubscribe: () => seen.push('unsubscribe'),
    error: () => {},
  };
};
const compose =
  (config: Any) =>
  (...funcs: Any[]) =>
  (next: Any) =>
    funcs.reduceRight((composed, f) => f(composed), extension(config)(next));
const g = globalThis as Any;
g.window ??= globalThis;
g.__REDUX_DEVTOOLS_EXTENSION__ = extension;
g.__REDUX_DEVTOOLS_EXTENSION_COMPOSE__ = (...funcs: Any[]) =>
  funcs.length === 1 && typeof funcs[0] === 'object' ? compose(funcs[0]) : compose({})(...funcs);

const { startState } = await import('../host/testing.js');
const { configureStore, createSlice } = await import('@reduxjs/toolkit');
const { createStore } = await import('zustand/vanilla');
const { devtools } = await import('zustand/middleware');

it('wraps the real extension: Redux Toolkit and Zustand report to both, and both can drive them', async () => {
  expect(g.__REDUX_DEVTOOLS_EXTENSION__).not.toBe(extension);
  const { t, stored, allow } = await startState();
  allow();
  const slice = createSlice({ name: 'c', initialState: { n: 0 }, reducers: { inc: (s) => void s.n++ } });
  const store = configureStore({ reducer: slice.reducer });
  store.dispatch(slice.actions.inc());
  const bears = createStore<{ bears: number }>()(devtools(() => ({ bears: 0 }), { name: 'bears' }));
  bears.setState({ bears: 1 }, false, 'bears/one');

  expect(seen).toEqual(['enhancer', 'action c/inc', 'connect bears', 'init', 'send bears/one']);
  await stored('redux', 1);
  await stored('bears', 1);

  // Porthole dispatches through the store: the extension sees the action too.
  const done = await t.mcp.call('state_dispatch', { store: 'redux', action: { type: 'c/inc' } });
  expect(done.isError, done.text).toBe(false);
  expect(store.getState().n).toBe(2);
  expect(seen.at(-1)).toBe('action c/inc');

  // The extension's monitor still reaches Zustand (jump), and so does Porthole (set).
  for (const monitor of monitors) {
    monitor({ type: 'DISPATCH', payload: { type: 'JUMP_TO_ACTION' }, state: '{"bears":0}' });
  }
  expect(bears.getState().bears).toBe(0);
  const set = await t.mcp.call('state_dispatch', { store: 'bears', mode: 'set', action: { bears: 5 } });
  expect(set.isError, set.text).toBe(false);
  await waitFor(() => bears.getState().bears === 5, 'the set');
});
