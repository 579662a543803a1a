import { describe, expect, it } from 'vitest';
import { encodeTallied, FrameLimitError } from './frame.js';
import { type JsonTally, overJsonBudget } from './json-budget.js';
import { Limits } from './limits.js';
import type { Message } from './messages.js';

const note = (params: unknown) => ({ type: 'notification', plugin: 'p', method: 'm', params }) as Message;

function textTally(text: string): JsonTally {
  const tally = { values: -1, depth: -1 };
  expect(overJsonBudget(text, { maxDepth: Limits.maxDepth, maxValues: Limits.maxValues }, tally)).toBeUndefined();
  return tally;
}

function nested(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { v };
  return v;
}

describe('encodeTallied', () => {
  const cases: [string, unknown][] = [
    ['escaped strings', { body: JSON.stringify({ a: [1, '"x"', { b: '\\"' }] }), n: null }],
    ['undefined members left out', { a: undefined, b: [undefined, () => 1], c: { d: undefined } }],
    ['empty containers', { a: [], b: {}, c: [[], [{}]] }],
    ['toJSON and class instances', { when: new Date(0), bytes: new Uint8Array(3), m: new Map([[1, 2]]) }],
    ['a toJSON of its own', { a: { toJSON: () => [[[1]]] } }],
    ['null prototype', Object.assign(Object.create(null), { a: [1, 2] })],
    ['deep', nested(Limits.maxDepth - 3)],
  ];
  for (const [name, params] of cases) {
    it(`tallies at least what the text holds: ${name}`, () => {
      const { text, tally } = encodeTallied(note(params));
      const exact = textTally(text);
      expect(tally.values).toBeGreaterThanOrEqual(exact.values);
      expect(tally.depth).toBeGreaterThanOrEqual(exact.depth);
      // never more levels than the frame could have, so a frame within the limits is never sent alone for depth
      expect(tally.depth).toBeLessThanOrEqual(Limits.maxDepth);
    });
  }

  it('refuses frames past the limits whatever walks them', () => {
    expect(() => encodeTallied(note(nested(Limits.maxDepth)))).toThrow(FrameLimitError);
    expect(() => encodeTallied(note({ a: { toJSON: () => nested(Limits.maxDepth) } }))).toThrow(FrameLimitError);
    expect(() => encodeTallied(note(Array.from({ length: Limits.maxValues + 1 }, () => 0)))).toThrow(FrameLimitError);
  });

  it('accepts a frame whose undefined members alone would pass the value limit', () => {
    const params = {
      list: Array.from({ length: Limits.maxValues - 10 }, () => 0),
      more: {} as Record<string, unknown>,
    };
    for (let i = 0; i < 20; i++) params.more[`k${i}`] = undefined;
    const { text, tally } = encodeTallied(note(params));
    expect(tally).toEqual(textTally(text));
  });
});
