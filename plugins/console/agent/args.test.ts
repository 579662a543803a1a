import { describe, expect, it } from 'vitest';
import { type SerializeLimits, Serializer } from '../../../agent/serialize.js';
import { argsSize, serializeArgs } from './args.js';
import * as native from './args.native.js';

const LIMITS: SerializeLimits = { depth: 6, maxString: 10_000, maxItems: 100, maxBytes: 64 * 1024 };

/** What the general Serializer makes of the same arguments, and its byte estimate. */
function general(values: unknown[], limits = LIMITS) {
  const s = new Serializer(limits);
  const out = values.map((v) => s.value(v));
  return { json: JSON.stringify(out), size: s.size };
}

function check(values: unknown[], limits = LIMITS) {
  const serializer = new Serializer(limits);
  const out = serializeArgs(values, values.length, limits, serializer);
  const expected = general(values, limits);
  expect(JSON.stringify(out)).toBe(expected.json);
  expect(argsSize(serializer)).toBe(expected.size);
  // React Native's copy: the Serializer itself
  const rn = new Serializer(limits);
  expect(JSON.stringify(native.serializeArgs(values, values.length, limits, rn))).toBe(expected.json);
  expect(native.argsSize(rn)).toBe(expected.size);
  return out;
}

describe('serializeArgs', () => {
  it('makes of the usual arguments what the Serializer makes, with the same byte estimate', () => {
    check(['request %d done', 1, { status: 200, path: '/items', ms: 12.5 }]);
    check([true, null, undefined, -0, Number.NaN, Number.POSITIVE_INFINITY, '']);
    check([[1, 'a', [2, [3]]], { a: { b: { c: 1 } } }, new Array(2).fill(1, 1)]);
    check(['x'.repeat(20)], { ...LIMITS, maxString: 5 });
  });

  it('leaves what it does not handle to the Serializer, whole and the same', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const withGetter = {
      get g() {
        throw new Error('a getter must not run');
      },
    };
    const proto = JSON.parse('{"__proto__": 1, "b": 2}');
    class Point {
      x = 1;
    }
    check([cyclic, withGetter, proto, new Point(), new Map([[1, 2]]), 10n, Symbol('s'), () => 1]);
    check(['ok', { [Symbol('k')]: 1 }]);
    check([{ a: { b: { c: { d: { e: 1 } } } } }]);
    check([Array.from({ length: 150 }, (_, i) => i)]);
    check([Object.assign(new Array(2).fill(1, 1), { foo: 2 }), Object.assign([1], { foo: 2 })]);
    check([{ a: 1, b: 2 }], { ...LIMITS, maxItems: 1 });
    check([{ a: { b: 1 } }], { ...LIMITS, depth: 1 });
    check(['x'.repeat(200), { a: 1 }], { ...LIMITS, maxBytes: 100 });
    check([
      new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error('trap');
          },
        },
      ),
    ]);
  });

  it('makes objects of plain prototype, not the null-prototype ones (cheaper to encode), keys such as __proto__ excepted', () => {
    const [value] = check([{ a: 1 }]) as unknown as [{ props: object }];
    expect(Object.getPrototypeOf(value.props)).toBe(Object.prototype);
  });
});
