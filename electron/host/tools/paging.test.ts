import { describe, expect, it } from 'vitest';
import { pageOf } from './paging.js';

describe('pageOf', () => {
  const items = Array.from({ length: 7 }, (_, i) => ({ i, text: 'x'.repeat(100) }));

  it('pages by count and by bytes, always at least one item, until no nextCursor is given', () => {
    expect(pageOf(items, { limit: 3 })).toMatchObject({ total: 7, nextCursor: '3', items: items.slice(0, 3) });
    expect(pageOf(items, { limit: 3, cursor: '6' })).toEqual({ items: items.slice(6), total: 7 });
    expect(pageOf(items, { limit: 10, maxBytes: 250 }).items).toHaveLength(2);
    expect(pageOf(items, { limit: 10, maxBytes: 1 }).items).toHaveLength(1);
    expect(pageOf([], { limit: 10 })).toEqual({ items: [], total: 0 });
  });

  it('refuses a cursor it did not hand out, saying what to do', () => {
    expect(() => pageOf(items, { limit: 3, cursor: 'abc' })).toThrow(/call again without cursor/);
    expect(() => pageOf(items, { limit: 3, cursor: '8' })).toThrow(/it has 7 entries now/);
  });
});
