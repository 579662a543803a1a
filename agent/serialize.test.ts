import { Window } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { Serializer } from './serialize.js';

const limits = { depth: 6, maxString: 10_000, maxItems: 100, maxBytes: 64 * 1024 };
const ser = (value: unknown, l = limits) => new Serializer(l).value(value);

describe('serializing console arguments', () => {
  it('keeps JSON values as they are and tags the rest', () => {
    expect(ser('text')).toBe('text');
    expect(ser(1.5)).toBe(1.5);
    expect(ser(null)).toBe(null);
    expect(ser(undefined)).toEqual({ $: 'undefined' });
    expect(ser(Number.POSITIVE_INFINITY)).toEqual({ $: 'number', v: 'Infinity' });
    expect(ser(-0)).toEqual({ $: 'number', v: '-0' });
    expect(ser(2n ** 70n)).toEqual({ $: 'bigint', v: '1180591620717411303424' });
    expect(ser(Symbol.for('s'))).toEqual({ $: 'symbol', v: 'Symbol(s)' });
    expect(ser(function named() {})).toEqual({ $: 'function', name: 'named' });
    expect(ser(new Date(0))).toEqual({ $: 'date', v: '1970-01-01T00:00:00.000Z' });
    expect(ser(new Date(Number.NaN))).toEqual({ $: 'date', v: 'Invalid Date' });
    expect(ser(/a+/gi)).toEqual({ $: 'regexp', v: '/a+/gi' });
  });

  it('marks cycles, but serializes an object seen twice side by side', () => {
    const shared = { x: 1 };
    const a: Record<string, unknown> = { shared, again: shared };
    a.me = a;
    expect(ser(a)).toEqual({
      $: 'object',
      props: {
        shared: { $: 'object', props: { x: 1 } },
        again: { $: 'object', props: { x: 1 } },
        me: { $: 'circular' },
      },
    });
  });

  it('does not run getters (a throwing one included), nor a Map subclass size getter', () => {
    let ran = 0;
    const o = {
      plain: 1,
      get boom(): number {
        ran++;
        throw new Error('getter ran');
      },
    };
    expect(ser(o)).toEqual({ $: 'object', props: { plain: 1, boom: { $: 'getter' } } });
    expect(ran).toBe(0);
  });

  it('turns a proxy whose traps throw into a thrown mark', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no keys for you');
        },
      },
    );
    expect(ser([hostile, 'after'])).toEqual({
      $: 'array',
      items: [{ $: 'thrown', message: 'no keys for you' }, 'after'],
      length: 2,
    });
  });

  it('serializes errors with cause chains, AggregateError members and own properties', () => {
    const inner = new TypeError('inner');
    const outer = Object.assign(new Error('outer', { cause: inner }), { code: 'E_OUTER' });
    const out = ser(outer) as Record<string, unknown>;
    expect(out).toMatchObject({
      $: 'error',
      name: 'Error',
      message: 'outer',
      props: { code: 'E_OUTER' },
      cause: { $: 'error', name: 'TypeError', message: 'inner' },
    });
    expect(out.stack).toMatch(/^Error: outer\n\s+at /);
    expect(ser(new AggregateError([new Error('a')], 'many'))).toMatchObject({
      $: 'error',
      name: 'AggregateError',
      errors: [{ $: 'error', message: 'a' }],
    });
    expect(ser(new Error('x', { cause: 'a string' }))).toMatchObject({ cause: 'a string' });
  });

  it('serializes Map, Set, typed arrays, buffers, class instances, symbol keys and null prototypes', () => {
    class Point {
      constructor(
        public x: number,
        public y: number,
      ) {}
    }
    expect(ser(new Map([[{ k: 1 }, 'v']]))).toEqual({
      $: 'map',
      entries: [[{ $: 'object', props: { k: 1 } }, 'v']],
      size: 1,
    });
    expect(ser(new Set([1n]))).toEqual({ $: 'set', items: [{ $: 'bigint', v: '1' }], size: 1 });
    expect(ser(new Float64Array([1.5, Number.NaN]))).toEqual({
      $: 'typed',
      cls: 'Float64Array',
      items: [1.5, 'NaN'],
      length: 2,
    });
    expect(ser(new BigInt64Array([5n]))).toEqual({ $: 'typed', cls: 'BigInt64Array', items: ['5'], length: 1 });
    expect(ser(new ArrayBuffer(16))).toEqual({ $: 'typed', cls: 'ArrayBuffer', length: 16 });
    expect(ser(new DataView(new ArrayBuffer(4)))).toEqual({ $: 'typed', cls: 'DataView', length: 4 });
    expect(ser(new Point(1, 2))).toEqual({ $: 'object', cls: 'Point', props: { x: 1, y: 2 } });
    const nullProto = Object.assign(Object.create(null), { a: 1 });
    expect(ser(nullProto)).toEqual({ $: 'object', cls: 'null prototype', props: { a: 1 } });
    expect(ser({ [Symbol('tag')]: true })).toEqual({ $: 'object', props: { '[Symbol(tag)]': true } });
    const withProto = JSON.parse('{"__proto__": {"polluted": true}}');
    const out = ser(withProto) as { props: Record<string, unknown> };
    expect(Object.keys(out.props)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('cuts by depth, items, string length and bytes, and says so', () => {
    const deep = { a: { b: { c: { d: 1 } } } };
    expect(ser(deep, { ...limits, depth: 2 })).toEqual({
      $: 'object',
      props: { a: { $: 'object', props: { b: { $: 'cut', why: 'depth' } } } },
    });
    expect(
      ser(
        Array.from({ length: 5 }, (_, i) => i),
        { ...limits, maxItems: 2 },
      ),
    ).toEqual({ $: 'array', items: [0, 1], length: 5 });
    expect(ser({ a: 1, b: 2, c: 3 }, { ...limits, maxItems: 1 })).toEqual({ $: 'object', props: { a: 1 }, more: 2 });
    expect(ser('abcdef', { ...limits, maxString: 3 })).toEqual({ $: 'string', v: 'abc', length: 6 });
    const many = Array.from({ length: 100 }, () => ({ text: 'x'.repeat(1000) }));
    const cut = ser(many, { ...limits, maxBytes: 10_000 }) as { items: unknown[] };
    expect(cut.items.filter((i) => JSON.stringify(i) === '{"$":"cut","why":"bytes"}').length).toBeGreaterThan(80);
    expect(JSON.stringify(cut).length).toBeLessThan(20_000);
  });

  it('describes DOM nodes instead of walking them', () => {
    const window = new Window();
    const g = globalThis as { Node?: unknown };
    const previous = g.Node;
    g.Node = window.Node;
    try {
      const div = window.document.createElement('div');
      div.id = 'app';
      div.className = 'main wide';
      expect(ser(div)).toEqual({ $: 'node', v: '<div id="app" class="main wide">', nodeType: 1 });
      expect(ser(window.document.createTextNode('hello'))).toEqual({ $: 'node', v: '#text "hello"', nodeType: 3 });
    } finally {
      g.Node = previous;
      void window.happyDOM.close();
    }
  });
});
