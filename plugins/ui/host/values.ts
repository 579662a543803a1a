import type { SerializedValue } from '../../../shared/serialized-value.js';

/**
 * A serialized value as plain JSON wherever it is plain (objects of class Object, arrays, strings,
 * finite numbers, booleans, null), keeping the tags where JSON cannot say it (undefined, NaN, a
 * Map, a cut, a cycle, a DOM node): what an agent reads most easily, and still exact.
 */
export function plainValue(v: SerializedValue): unknown {
  if (v === null || typeof v !== 'object') return v;
  switch (v.$) {
    case 'array':
      if (v.cls) return v;
      return v.length > v.items.length ? { ...v, items: v.items.map(plainValue) } : v.items.map(plainValue);
    case 'object': {
      if (v.cls || v.more || Object.hasOwn(v.props, '$')) return { ...v, props: mapValues(v.props) };
      return mapValues(v.props);
    }
    case 'map':
      return { ...v, entries: v.entries.map(([k, x]) => [plainValue(k), plainValue(x)]) };
    case 'set':
      return { ...v, items: v.items.map(plainValue) };
    default:
      return v;
  }
}

function mapValues(props: Record<string, SerializedValue>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(props)) out[key] = plainValue(value);
  return out;
}
