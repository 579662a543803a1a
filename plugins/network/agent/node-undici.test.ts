import { describe, expect, it } from 'vitest';
import { undiciHeaders } from './node-undici.js';

describe('undiciHeaders', () => {
  it('reads every shape undici takes headers in', () => {
    const want = [
      ['a', '1'],
      ['b', '2'],
      ['b', '3'],
    ];
    expect(undiciHeaders(['a', '1', 'b', '2', 'b', '3'])).toEqual(want);
    expect(
      undiciHeaders([
        ['a', '1'],
        ['b', ['2', '3']],
      ]),
    ).toEqual(want);
    expect(undiciHeaders({ a: '1', b: ['2', '3'] })).toEqual(want);
    expect(undiciHeaders('a: 1\r\nb: 2\r\nb: 3\r\n')).toEqual(want);
    expect(undiciHeaders(new Headers({ a: '1', c: '4' }))).toEqual([
      ['a', '1'],
      ['c', '4'],
    ]);
    expect(undiciHeaders(new Map([['a', '1']]))).toEqual([['a', '1']]);
    expect(undiciHeaders(null)).toEqual([]);
  });
});
