import { expect, it } from 'vitest';
import { hub } from '../agent/hub.js';
import { startState, windowIsGlobal } from './testing.js';

// A burst over a real link: the inspector says it speaks state 1.1 in its welcome, the agent sends
// the burst's actions kept by type alone in runs, and the inspector lists every one of them.

windowIsGlobal();
const { configureStore, createSlice } = await import('@reduxjs/toolkit');

const counter = createSlice({
  name: 'counter',
  initialState: { n: 0 },
  reducers: { bumped: (s) => void s.n++ },
});

it('lists every action of a burst the agent sent in runs', async () => {
  const { t, stored } = await startState();
  const store = configureStore({ reducer: counter.reducer, devTools: { name: 'burst' } });
  await stored('burst');
  expect(hub().ctx?.hostVersion).toBe('1.1.0');
  for (let i = 0; i < 3000; i++) store.dispatch(counter.actions.bumped());
  const s = await stored('burst', 3000);
  expect(s.actions).toBe(3001);
  const listed = t.host.data.timeline(s.id);
  expect(listed.map((a) => a.seq)).toEqual(Array.from({ length: 3001 }, (_, i) => i));
  expect(listed.slice(1).every((a) => a.type === 'counter/bumped')).toBe(true);
  const page = await t.mcp.call('state_list_actions', { store: 'burst', since: 2990 });
  expect((page.structuredContent as { actions: { seq: number }[] }).actions.map((a) => a.seq)).toEqual(
    Array.from({ length: 10 }, (_, i) => 2991 + i),
  );
  expect(store.getState().n).toBe(3000);
});
