import { describe, expect, it } from 'vitest';
import { defaultMemoryBudgetBytes, estimateBytes, MemoryBudget, RECORD_OVERHEAD_BYTES } from './records.js';

const size = (v: string) => v.length;

describe('MemoryBudget and record stores', () => {
  it('drops the oldest records of a store past its own byte budget and counts them', () => {
    const budget = new MemoryBudget(10_000, 0);
    const drops: string[][] = [];
    const store = budget.open<string>('log', { sizeOf: size, maxBytes: 100, onDrop: (v) => drops.push(v) });
    for (let i = 0; i < 10; i++) store.set(`k${i}`, `${i}`.padEnd(30, '.'));
    expect(store.bytes).toBeLessThanOrEqual(100);
    expect([...store.values()].map((v) => v[0])).toEqual(['7', '8', '9']);
    expect(store.dropped).toEqual({ count: 7, bytes: 210 });
    expect(drops.flat().map((v) => v[0])).toEqual(['0', '1', '2', '3', '4', '5', '6']);
    expect(budget.usedBytes).toBe(90);
  });

  it('keeps the age order across stores through deletes, replacements and drops', () => {
    const budget = new MemoryBudget(100, 0);
    const told: string[] = [];
    const a = budget.open<string>('a', { sizeOf: size, onDrop: (_v, _d, keys) => told.push(...keys) });
    const b = budget.open<string>('b', { sizeOf: size, onDrop: (_v, _d, keys) => told.push(...keys) });
    a.set('a1', 'x'.repeat(20));
    b.set('b1', 'x'.repeat(20));
    a.set('a2', 'x'.repeat(20));
    b.set('b2', 'x'.repeat(20));
    a.delete('a1'); // not counted, and no longer the oldest
    a.set('a2', 'y'.repeat(20)); // replaced in place: keeps its age
    expect(a.drop('a2')).toBe(true); // the owner's own bound: counted and told
    expect(a.drop('a2')).toBe(false);
    expect(told).toEqual(['a2']);
    expect(a.dropped).toEqual({ count: 1, bytes: 20 });
    a.set('a3', 'x'.repeat(30));
    b.set('b3', 'x'.repeat(40)); // 20 + 20 + 30 + 40 = 110: b1, the oldest of all, goes
    expect(told).toEqual(['a2', 'b1']);
    expect([...b.entries()].map(([k]) => k)).toEqual(['b2', 'b3']);
    b.set('b4', 'x'.repeat(40)); // then b2, then a3
    expect(told).toEqual(['a2', 'b1', 'b2', 'a3']);
    expect(budget.usedBytes).toBe(80);
    expect(budget.dropped).toEqual({ count: 4, bytes: 90 });
  });

  it('past the global budget drops the oldest record of any store, never the one being added', () => {
    const budget = new MemoryBudget(100, 0);
    const a = budget.open<string>('a', { sizeOf: size });
    const b = budget.open<string>('b', { sizeOf: size });
    a.set('a1', 'x'.repeat(40));
    b.set('b1', 'y'.repeat(40));
    a.set('a2', 'z'.repeat(40));
    expect(a.has('a1')).toBe(false);
    expect(b.has('b1')).toBe(true);
    expect(budget.dropped).toEqual({ count: 1, bytes: 40 });
    const huge = budget.open<string>('c', { sizeOf: size });
    huge.set('c1', 'w'.repeat(500));
    expect(huge.has('c1')).toBe(true);
    expect(a.size + b.size).toBe(0);
    expect(budget.stats().stores.a?.dropped.count).toBe(2);
  });

  it('keeps a replaced record in place and remeasures a changed one; close releases the bytes', () => {
    const budget = new MemoryBudget(1000, 0);
    const store = budget.open<{ text: string }>('t', { sizeOf: (v) => v.text.length, maxCount: 2 });
    store.set('1', { text: 'a' });
    store.set('2', { text: 'b' });
    store.set('1', { text: 'aaaa' });
    expect([...store.values()].map((v) => v.text)).toEqual(['aaaa', 'b']);
    const two = store.get('2')!;
    two.text = 'bbbbbbbb';
    store.remeasure('2');
    expect(store.bytes).toBe(12);
    store.set('3', { text: 'c' });
    expect(store.has('1')).toBe(false);
    store.close();
    expect(budget.usedBytes).toBe(0);
    expect(budget.stats().records).toBe(0);
  });

  it('estimates nested values without recursing without bound', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(estimateBytes(deep)).toBeGreaterThan(0);
    expect(estimateBytes({ url: 'x'.repeat(1000) })).toBeGreaterThan(1000);
  });

  // Issue 30, memory 9: small records cost 5-7 times their string lengths; the budget counts
  // what they cost (bench/scenarios/memory-per-byte.ts measures it against real heaps).
  it('counts what records cost: a per-record overhead, two-byte strings, containers and boxed numbers', () => {
    expect(estimateBytes('abc')).toBe(19);
    expect(estimateBytes('été')).toBe(19);
    expect(estimateBytes('日本')).toBe(20);
    expect(estimateBytes(7)).toBe(8);
    expect(estimateBytes(0.5)).toBe(24);
    expect(estimateBytes({ a: 1, b: 'xy' })).toBe(32 + 16 + 8 + 16 + 18);
    expect(estimateBytes([1, 2])).toBe(32 + 2 * 16);
    const budget = new MemoryBudget(10_000);
    const store = budget.open<string>('s', { sizeOf: (v) => v.length });
    store.set('k', 'x'.repeat(10));
    expect(store.bytes).toBe(10 + RECORD_OVERHEAD_BYTES);
    expect(budget.usedBytes).toBe(10 + RECORD_OVERHEAD_BYTES);
    for (let i = 0; i < 100; i++) store.set(`k${i}`, 'y');
    expect(budget.usedBytes).toBeLessThanOrEqual(10_000);
    expect(store.size).toBe(Math.floor(10_000 / (1 + RECORD_OVERHEAD_BYTES)));
  });

  it('sizes the default budget from the machine', () => {
    const MiB = 1024 * 1024;
    const GiB = 1024 * MiB;
    expect(defaultMemoryBudgetBytes({ totalMemoryBytes: 32 * GiB, heapLimitBytes: 4 * GiB })).toBe(512 * MiB);
    expect(defaultMemoryBudgetBytes({ totalMemoryBytes: 8 * GiB, heapLimitBytes: 2 * GiB })).toBe(512 * MiB);
    expect(defaultMemoryBudgetBytes({ totalMemoryBytes: 4 * GiB, heapLimitBytes: 2 * GiB })).toBe(256 * MiB);
    expect(defaultMemoryBudgetBytes({ totalMemoryBytes: 8 * GiB, heapLimitBytes: 1 * GiB })).toBe(256 * MiB);
    expect(defaultMemoryBudgetBytes({ totalMemoryBytes: 512 * MiB, heapLimitBytes: 1 * GiB })).toBe(64 * MiB);
  });
});
