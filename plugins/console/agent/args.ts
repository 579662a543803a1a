import type { SerializeLimits, Serializer } from '../../../agent/serialize.js';
import type { SerializedValue } from '../../../shared/serialized-value.js';

// The usual console arguments serialized without agent/serialize.ts's general walk (no set of
// ancestors, no class or tag probes), into objects V8 keeps fast (JSON.stringify and the frame's
// tally are cheaper on them than on the Serializer's null-prototype props). What it does not
// handle here it leaves to the Serializer, whose output it equals wherever it answers.

/** Nesting walked here; deeper values go to the Serializer (which also finds cycles). */
const DEPTH = 3;

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
  const out: SerializedValue[] = new Array(n);
  let i = 0;
  try {
    for (; i < n; i++) {
      const v = fast(values[i], 0);
      if (v === undefined) break;
      out[i] = v;
    }
  } catch {
    i = -1;
  }
  if (i === n) return out;
  // Not one of the usual shapes (or a proxy threw): the general walk, from the first argument.
  serializer.reset();
  for (let j = 0; j < n; j++) out[j] = serializer.value(values[j]);
  bytes = serializer.size;
  return out;
}

/** The approximate JSON characters of the last serializeArgs(). */
export function argsSize(): number {
  return bytes;
}

const getProto = Object.getPrototypeOf;
const ownProp = Object.getOwnPropertyDescriptor;
const keysOf = Object.keys;
const symbolsOf = Object.getOwnPropertySymbols;
const ObjectProto = Object.prototype;
const ArrayProto = Array.prototype;
const isArray = Array.isArray;

/** As Serializer.value(), or undefined: the Serializer's case. */
function fast(x: unknown, depth: number): SerializedValue | undefined {
  switch (typeof x) {
    case 'string': {
      const max = limits.maxString;
      if (x.length <= max) {
        bytes += x.length + 3;
        return x;
      }
      bytes += max + 3;
      return { $: 'string', v: x.slice(0, max), length: x.length };
    }
    case 'number':
      bytes += 8;
      if (Number.isFinite(x) && !(x === 0 && 1 / x < 0)) return x;
      return { $: 'number', v: x === 0 ? '-0' : (String(x) as 'NaN') };
    case 'boolean':
      bytes += 5;
      return x;
    case 'undefined':
      bytes += 16;
      return { $: 'undefined' };
    case 'object':
      if (x === null) {
        bytes += 4;
        return null;
      }
      break;
    default:
      return undefined;
  }
  if (depth >= DEPTH || depth >= limits.depth || bytes > limits.maxBytes) return undefined;
  const proto = getProto(x);
  const max = limits.maxItems;
  if (proto === ArrayProto && isArray(x)) {
    const length = (x as unknown[]).length;
    if (length > max) return undefined;
    bytes += 16;
    const items: SerializedValue[] = new Array(length);
    for (let i = 0; i < length; i++) {
      const desc = ownProp(x, i);
      let v: SerializedValue | undefined;
      if (desc === undefined) v = { $: 'undefined' };
      else if ('value' in desc) v = fast(desc.value, depth + 1);
      if (v === undefined) return undefined;
      items[i] = v;
    }
    return { $: 'array', items, length };
  }
  if (proto !== ObjectProto) return undefined;
  const keys = keysOf(x);
  if (keys.length > max || symbolsOf(x).length > 0) return undefined;
  bytes += 16;
  const props: Record<string, SerializedValue> = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key === '__proto__') return undefined;
    const desc = ownProp(x, key);
    if (desc === undefined || !('value' in desc)) return undefined;
    bytes += key.length + 3;
    const v = fast(desc.value, depth + 1);
    if (v === undefined) return undefined;
    props[key] = v;
  }
  return { $: 'object', props };
}
