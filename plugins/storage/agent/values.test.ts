import { describe, expect, it } from 'vitest';
import { base64, keyText, parseKey, sizeOf, tagged, taggedSync } from './values.js';

describe('stored values as tagged JSON', () => {
  it('keeps plain JSON as it is and tags the rest', async () => {
    const value = {
      s: 'text',
      n: 1.5,
      nan: Number.NaN,
      neg: -0,
      u: undefined,
      big: 12n,
      d: new Date('2020-02-02T00:00:00Z'),
      bad: new Date(Number.NaN),
      re: /a+/g,
      m: new Map([['k', 1]]),
      set: new Set([1]),
      err: new TypeError('nope'),
      own: { $: 'mine' },
      list: [1, [2]],
    };
    expect((await tagged(value, 10_000)).value).toEqual({
      s: 'text',
      n: 1.5,
      nan: { $: 'number', v: 'NaN' },
      neg: { $: 'number', v: '-0' },
      u: { $: 'undefined' },
      big: { $: 'bigint', v: '12' },
      d: { $: 'date', v: '2020-02-02T00:00:00.000Z' },
      bad: { $: 'date', v: 'Invalid Date' },
      re: { $: 'regexp', v: '/a+/g' },
      m: { $: 'map', entries: [['k', 1]], size: 1 },
      set: { $: 'set', items: [1], size: 1 },
      err: { $: 'error', name: 'TypeError', message: 'nope' },
      own: { $: 'object', props: { $: 'mine' } },
      list: [1, [2]],
    });
  });

  it('describes binary values with their first bytes; Blob heads are read afterwards', async () => {
    const bytes = new Uint8Array(100).map((_, i) => i);
    const { value } = await tagged(
      { buf: bytes.buffer, view: new DataView(bytes.buffer, 10, 4), blob: new Blob([bytes], { type: 'x/y' }) },
      10_000,
    );
    expect(value).toEqual({
      buf: { $: 'binary', cls: 'ArrayBuffer', size: 100, head: Buffer.from(bytes.subarray(0, 48)).toString('base64') },
      view: { $: 'binary', cls: 'DataView', size: 4, head: Buffer.from([10, 11, 12, 13]).toString('base64') },
      blob: {
        $: 'binary',
        cls: 'Blob',
        type: 'x/y',
        size: 100,
        head: Buffer.from(bytes.subarray(0, 48)).toString('base64'),
      },
    });
    const sync = taggedSync(new Blob(['abc']), 100);
    expect(sync.blobs).toHaveLength(1);
  });

  it('stays within its budget, saying what it cut', () => {
    const big = { items: Array.from({ length: 10_000 }, (_, i) => ({ i, name: `item ${i}` })), tail: 'z'.repeat(50) };
    const { value, cut } = taggedSync(big, 2_000);
    expect(cut).toBe(true);
    expect(JSON.stringify(value).length).toBeLessThan(3_000);
    const long = taggedSync('x'.repeat(5000), 100);
    expect(long.value).toEqual({ $: 'string', v: 'x'.repeat(100), length: 5000 });
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(JSON.stringify(taggedSync(deep, 100_000).value)).toContain('"why":"depth"');
  });

  it('estimates sizes, reading a bounded number of parts', () => {
    expect(sizeOf('abcd')).toBe(4);
    expect(sizeOf({ ab: 'cd', n: 1 })).toBe(2 + 2 + 1 + 8);
    expect(sizeOf(new Uint8Array(300))).toBe(300);
    expect(sizeOf(new Blob(['12345']))).toBe(5);
    const huge = Array.from({ length: 100_000 }, () => ({ a: 1 }));
    // 20,000 parts read, not 300,000: the estimate stops there.
    expect(sizeOf(huge)).toBeLessThan(20_000 * 9);
  });

  it('base64 matches Node’s', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 47, 48]) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 37) % 256);
      expect(base64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
    }
  });
});

describe('IndexedDB keys as text', () => {
  it('writes a string as itself unless it reads as JSON, the rest as JSON, and reads them back', () => {
    const keys: IDBValidKey[] = [
      'user:1',
      '5',
      'true',
      5,
      -1.5,
      [1, 'a'],
      new Date('2021-01-01T00:00:00Z'),
      new Uint8Array([1, 2]).buffer,
    ];
    const texts = keys.map(keyText);
    expect(texts).toEqual([
      'user:1',
      '"5"',
      '"true"',
      '5',
      '-1.5',
      '[1,"a"]',
      '{"$date":"2021-01-01T00:00:00.000Z"}',
      '{"$binary":"AQI="}',
    ]);
    const back = texts.map(parseKey);
    expect(back.slice(0, 6)).toEqual(keys.slice(0, 6));
    expect((back[6] as Date).toISOString()).toBe('2021-01-01T00:00:00.000Z');
    expect(new Uint8Array(back[7] as ArrayBuffer)).toEqual(new Uint8Array([1, 2]));
    // Text that names no key is the string itself.
    expect(parseKey('true')).toBe('true');
    expect(parseKey('{"a":1}')).toBe('{"a":1}');
  });
});
