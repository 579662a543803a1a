import { describe, expect, it } from 'vitest';
import { age, changeText, leafText, search } from './model.js';

const state = {
  $: 'object',
  props: {
    todos: {
      $: 'array',
      length: 2,
      items: [
        { $: 'object', props: { title: 'milk' } },
        { $: 'object', props: { title: 'eggs' } },
      ],
    },
    tags: { $: 'map', size: 1, entries: [['k', 'v']] },
    fn: { $: 'function', name: 'add' },
  },
};

describe('the State panel model', () => {
  it('searches paths and leaf values of a serialized state, from the path it was read at', () => {
    expect(search(state, 'EGG')).toEqual([{ path: 'todos[1].title', text: '"eggs"' }]);
    expect(search(state, 'todos').map((m) => m.path)).toEqual([
      'todos',
      'todos[0]',
      'todos[0].title',
      'todos[1]',
      'todos[1].title',
    ]);
    expect(search(state, 'add')).toEqual([{ path: 'fn', text: 'ƒ add()' }]);
    expect(search(state.props.todos, 'milk', 'todos')).toEqual([{ path: 'todos[0].title', text: '"milk"' }]);
    expect(search(state, '')).toEqual([]);
  });

  it('writes values and ages short', () => {
    expect(leafText({ $: 'undefined' })).toBe('undefined');
    expect(leafText({ $: 'bigint', v: '10' })).toBe('10n');
    expect(changeText({ $: 'object', props: { a: 1 } }, true)).toBe('{"a":1}');
    expect(changeText(undefined, false)).toBe('—');
    expect([age(850), age(12_400), age(180_000), age(7_200_000)]).toEqual(['850 ms', '12 s', '3 min', '2 h']);
  });
});
