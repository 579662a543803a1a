import type { SerializeLimits, Serializer } from '../../../agent/serialize.js';
import type { SerializedValue } from '../../../shared/serialized-value.js';

// The usual console arguments (strings, finite numbers, booleans, null, plain objects and arrays of
// them a few levels deep) serialized without agent/serialize.ts's general walk, into objects V8
// keeps fast (cheaper to stringify than the Serializer's null-prototype props): the Serializer's
// output, byte estimate included. Anything else, and what is past a limit, goes to the Serializer
// whole. args.native.ts takes this file's place in React Native's tree (its bundle budget).

let bytes = 0;
let limits: SerializeLimits;

/** Serializes the first `n` of a console call's arguments; argsSize() then says about how many JSON characters. */
export function serializeArgs(
  values: readonly unknown[],
  n: number,
  within: SerializeLimits,
  serializer: Serializer,
): SerializedValue[] {
  limits = within;
  bytes = 0;
  const out: SerializedValue[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const v = fast(values[i], 0);
      if (v === undefined) break;
      out.push(v);
    }
  } catch {
    // a proxy's trap threw: the Serializer says so
  }
  if (out.length === n) return out;
  serializer.reset();
  for (let i = 0; i < n; i++) out[i] = serializer.value(values[i]);
  bytes = serializer.size;
  return out;
}

/** The approximate JSON characters of the last serializeArgs(). */
export function argsSize(_serializer: Serializer): number {
  return bytes;
}

const ownProp = Object.getOwnPropertyDescriptor;

/** As Serializer.value(), or undefined: the Serializer's case. */
function fast(x: unknown, depth: number): SerializedValue | undefined {
  switch (typeof x) {
    case 'string':
      bytes += x.length + 3;
      return x.length <= limits.maxString ? x : undefined;
    case 'number':
      bytes += 8;
      return Number.isFinite(x) && !Object.is(x, -0) ? x : undefined;
    case 'boolean':
      bytes += 5;
      return x;
    case 'object':
      break;
    default:
      return undefined;
  }
  if (x === null) {
    bytes += 4;
    return null;
  }
  // Past 3 levels, the Serializer (which also finds cycles).
  if (depth >= 3 || depth >= limits.depth || bytes > limits.maxBytes) return undefined;
  const proto = Object.getPrototypeOf(x);
  const array = proto === Array.prototype && Array.isArray(x);
  if (!array && proto !== Object.prototype) return undefined;
  const keys = Object.keys(x);
  if (keys.length > limits.maxItems || Object.getOwnPropertySymbols(x).length > 0) return undefined;
  bytes += 16;
  const length = array ? (x as unknown[]).length : keys.length;
  // an array's holes or other keys: the Serializer
  if (keys.length !== length) return undefined;
  const props: Record<string, SerializedValue> = {};
  const items: SerializedValue[] = [];
  for (let i = 0; i < length; i++) {
    const key = array ? i : keys[i]!;
    const desc = ownProp(x, key);
    if (!desc || !('value' in desc) || key === '__proto__') return undefined;
    if (!array) bytes += (key as string).length + 3;
    const v = fast(desc.value, depth + 1);
    if (v === undefined) return undefined;
    if (array) items.push(v);
    else props[key] = v;
  }
  return array ? { $: 'array', items, length } : { $: 'object', props };
}
