import { describe, expect, it } from 'vitest';
import { overJsonBudget } from './json-budget.js';

const budget = (maxDepth: number, maxValues = 1000) => ({ maxDepth, maxValues });

/** Elements plus members of every array and object, counted on the parsed value. */
function countValues(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + 1 + countValues(v), 0);
  if (value && typeof value === 'object')
    return Object.values(value).reduce((n: number, v) => n + 1 + countValues(v), 0);
  return 0;
}

describe('overJsonBudget', () => {
  it('counts array elements and object members exactly, whitespace and strings included', () => {
    const samples = [
      '{}',
      '[]',
      '[ ]',
      '{"a":1}',
      '[1, [2, 3], { "k": [ ] , "s": "a,b]{[" }, "\\"[", []]',
      ' { "x" : [ { } , [ 1 ] ] , "y":"\\\\" } ',
      '[[[[]]]]',
    ];
    for (const text of samples) {
      const values = countValues(JSON.parse(text));
      expect(overJsonBudget(text, budget(64, values)), text).toBeUndefined();
      if (values > 0) expect(overJsonBudget(text, budget(64, values - 1)), text).toMatch(/more than/);
    }
  });

  it('measures depth as nesting of arrays and objects, the outermost being level 1', () => {
    expect(overJsonBudget('[[[]]]', budget(3))).toBeUndefined();
    expect(overJsonBudget('[[[[]]]]', budget(3))).toMatch(/deeper than 3 levels/);
    expect(overJsonBudget('{"a":{"b":[1]}}', budget(3))).toBeUndefined();
    expect(overJsonBudget('"[[[[[["', budget(1))).toBeUndefined();
    expect(overJsonBudget('no json at all [[[[', budget(3))).toMatch(/deeper/);
    expect(overJsonBudget('"unterminated [[[[', budget(1))).toBeUndefined();
  });
});
