import { expect, it } from 'vitest';
import { Serializer } from '../../../agent/serialize.js';
import { ACTION, small } from './work.js';

// The quick way to serialize an action must give exactly what the Serializer gives, or leave it to it.

class Todo {
  title = 'x';
}
const getter = {
  type: 'g',
  get secret() {
    throw new Error('a getter must not run');
  },
};
const cases: unknown[] = [
  { type: 'todos/toggle', payload: 5 },
  { type: 'a', payload: { id: 1, title: 'milk', done: false, tags: null } },
  { type: 'a', payload: { nested: { deep: 1 } } },
  { type: 'a', payload: 'x'.repeat(200) },
  { type: 'a', payload: 'x'.repeat(201) },
  { type: 'a', payload: -0 },
  { type: 'a', payload: Number.NaN },
  { type: 'a', payload: undefined },
  { type: 'a', payload: [1, 2] },
  { type: 'a', payload: new Todo() },
  { type: 'a', payload: new Map([[1, 2]]) },
  { type: 'a', [Symbol('s')]: 1 },
  Object.assign(Object.create(null), { type: 'a' }),
  Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, i])),
  Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'y'.repeat(150)])),
  { type: 'a', payload: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'y'.repeat(90)])) },
  getter,
  { type: 'fn', payload: () => 1 },
  { type: 1n },
  'a string',
  null,
];

it('gives what the Serializer gives for every shape of action', () => {
  for (const [i, x] of cases.entries()) expect(small(x), `case ${i}`).toEqual(new Serializer(ACTION).value(x));
  expect(small(cases[1])).toEqual({
    $: 'object',
    props: { type: 'a', payload: { $: 'object', props: { id: 1, title: 'milk', done: false, tags: null } } },
  });
});
