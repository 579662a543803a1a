/**
 * A value as the agent serialized it (console arguments, evaluated expressions, React props and
 * hooks, store state): JSON, with what JSON cannot say as tagged objects `{ $: kind, ... }`.
 * A value the agent cut (depth, size, count) says so: `{ $: 'cut' }`, `length`/`size` above the
 * items sent, `more`. Made by agent/serialize.ts; the host and the window read it defensively,
 * since an app may send anything (its wire schema is `z.json()`).
 */
export type SerializedValue =
  | string
  | number
  | boolean
  | null
  | { $: 'undefined' }
  | { $: 'number'; v: 'NaN' | 'Infinity' | '-Infinity' | '-0' }
  | { $: 'bigint'; v: string }
  | { $: 'symbol'; v: string }
  | { $: 'string'; v: string; length: number } // cut: v is the start
  | { $: 'function'; name: string }
  | { $: 'array'; cls?: string; items: SerializedValue[]; length: number }
  | { $: 'object'; cls?: string; props: Record<string, SerializedValue>; more?: number }
  | { $: 'map'; cls?: string; entries: [SerializedValue, SerializedValue][]; size: number }
  | { $: 'set'; cls?: string; items: SerializedValue[]; size: number }
  | { $: 'typed'; cls: string; items?: (number | string)[]; length: number }
  | { $: 'date'; v: string }
  | { $: 'regexp'; v: string }
  | {
      $: 'error';
      name: string;
      message: string;
      stack?: string;
      cause?: SerializedValue;
      errors?: SerializedValue[];
      props?: Record<string, SerializedValue>;
    }
  | { $: 'node'; v: string; nodeType: number }
  | { $: 'circular' }
  | { $: 'getter' }
  | { $: 'cut'; why: 'depth' | 'bytes'; cls?: string }
  | { $: 'thrown'; message: string };

/**
 * A serialized value as plain JSON wherever it is plain (objects of class Object, arrays, strings,
 * finite numbers, booleans, null), keeping the tags where JSON cannot say it (undefined, NaN, a
 * Map, a cut, a cycle, a DOM node): what an agent reads most easily, and still exact.
 */
export function plainSerialized(v: SerializedValue): unknown {
  if (v === null || typeof v !== 'object') return v;
  switch (v.$) {
    case 'array':
      if (v.cls) return v;
      return v.length > v.items.length ? { ...v, items: v.items.map(plainSerialized) } : v.items.map(plainSerialized);
    case 'object': {
      if (v.cls || v.more || Object.hasOwn(v.props, '$')) return { ...v, props: mapValues(v.props) };
      return mapValues(v.props);
    }
    case 'map':
      return { ...v, entries: v.entries.map(([k, x]) => [plainSerialized(k), plainSerialized(x)]) };
    case 'set':
      return { ...v, items: v.items.map(plainSerialized) };
    default:
      return v;
  }
}

function mapValues(props: Record<string, SerializedValue>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(props)) out[key] = plainSerialized(value);
  return out;
}
