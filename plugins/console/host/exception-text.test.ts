import { expect, it } from 'vitest';
import { waitFor } from '../../../electron/host/testing.js';
import { startConsoleDebuggee } from './testing.js';

// The first line of an uncaught exception, as the list, the panel and the tools show it, for what
// agents really send: an agent in another language may send the error's stack and no argument.

it('names an uncaught exception by its stack when its value says nothing, never "Uncaught undefined"', async () => {
  const { t } = await startConsoleDebuggee();
  const stack = 'TypeError: cart.items is not iterable\n    at checkout (http://127.0.0.1:5173/src/cart.ts:12:9)';
  const time = Date.now();
  t.sendEvent('batch', {
    dropped: 0,
    messages: [
      { kind: 'exception', time, args: [], stack },
      { kind: 'rejection', time, args: [{ $: 'undefined' }], stack },
      { kind: 'exception', time, args: [{ $: 'error', name: '', message: '' }], stack },
      { kind: 'exception', time, args: [{ $: 'error', name: 'RangeError', message: '' }] },
      { kind: 'rejection', time, args: [{ $: 'undefined' }] },
    ],
  } as never);
  const texts = await waitFor(() => {
    const all = t.host.store.all().map((e) => e.text);
    return all.length === 5 && all;
  }, 'the five messages');
  expect(texts).toEqual([
    'Uncaught TypeError: cart.items is not iterable',
    'Uncaught (in promise) TypeError: cart.items is not iterable',
    'Uncaught TypeError: cart.items is not iterable',
    'Uncaught RangeError',
    // Nothing better to say: a promise really rejected with undefined (as DevTools prints it).
    'Uncaught (in promise) undefined',
  ]);
  const listed = await t.mcp.call('console_list_errors');
  expect(listed.text).toContain('Uncaught TypeError: cart.items is not iterable');
  expect(listed.text).not.toMatch(/Uncaught undefined/);
});
