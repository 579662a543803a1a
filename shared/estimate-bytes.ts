// How many bytes a value holds in memory, estimated: its own module so that agent code (the
// offline buffer) can use it without the inspector's record stores.

/**
 * Estimated bytes a JSON-like value holds in a JavaScript heap (V8's layout, 64-bit): a string's
 * header and its characters (two bytes each once one is past U+00FF), an object's header and a
 * slot per member, an array's backing store, a number that is not a small integer boxed. Keys are
 * not counted (parsed JSON shares them). Bounded in depth (deeper values count as 64 bytes):
 * values come off the link. `bench/scenarios/memory-per-byte.ts` checks it against real heaps.
 */
export function estimateBytes(value: unknown, depth = 0): number {
  if (typeof value === 'string') return stringBytes(value);
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 2 ** 30 ? 8 : 24;
  if (value === null || typeof value !== 'object') return 8;
  if (depth > 32) return 64;
  if (Array.isArray(value)) {
    let n = 32;
    for (const item of value) n += 8 + estimateBytes(item, depth + 1);
    return n;
  }
  let n = 32;
  for (const key in value) n += 16 + estimateBytes((value as Record<string, unknown>)[key], depth + 1);
  return n;
}

const TWO_BYTE = /[\u0100-\uffff]/;

/** A string's bytes in a V8 heap: 16 of header, then one byte per character, or two once any needs it. */
export function stringBytes(value: string): number {
  return 16 + (TWO_BYTE.test(value) ? value.length * 2 : value.length);
}
