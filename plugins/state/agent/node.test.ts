import { configureStore, createSlice, type Middleware } from '@reduxjs/toolkit';
import { expect, it } from 'vitest';
import { startState } from '../host/testing.js';
import { stateEnhancer } from './index.js';

// Node has no `window`: Redux Toolkit's default devTools finds nothing there (as with the real
// extension), so a Node app adds the plugin's enhancer itself. The agent's API is on globalThis.

it('in Node: the default devTools sees nothing, stateEnhancer does; its dispatches reach the store below the middleware', async () => {
  expect((globalThis as { window?: unknown }).window).toBeUndefined();
  expect(typeof (globalThis as { __REDUX_DEVTOOLS_EXTENSION__?: unknown }).__REDUX_DEVTOOLS_EXTENSION__).toBe(
    'function',
  );
  const { t, stored, allow } = await startState();
  allow();
  const slice = createSlice({ name: 'c', initialState: { n: 0 }, reducers: { inc: (s) => void s.n++ } });
  configureStore({ reducer: slice.reducer });
  const passed: string[] = [];
  const counting: Middleware = () => (next) => (action) => {
    passed.push((action as { type: string }).type);
    return next(action);
  };
  const store = configureStore({
    reducer: slice.reducer,
    middleware: (d) => d().concat(counting),
    enhancers: (d) => d().concat(stateEnhancer({ name: 'server' })),
  });
  store.dispatch(slice.actions.inc());
  await stored('server', 1);
  expect(t.host.stores().map((s) => s.name)).toEqual(['server']);

  const done = await t.mcp.call('state_dispatch', { store: 'server', action: { type: 'c/inc' } });
  expect(done.isError, done.text).toBe(false);
  expect(store.getState().n).toBe(2);
  // An enhancer listed after RTK's defaults is inside applyMiddleware and cannot reach the outer
  // dispatch (the compose API can: __REDUX_DEVTOOLS_EXTENSION_COMPOSE__, as configureStore uses it).
  expect(passed).toEqual(['c/inc']);
});
