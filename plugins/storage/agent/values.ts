// Stored values as the inspector reads them: tagged JSON within a character budget, an estimate of
// their size, and IndexedDB keys written as text and read back.

const toTag = Object.prototype.toString;
const tagOf = (x: object) => toTag.call(x).slice(8, -1);
/** Bytes of a binary value sent as its head. */
const HEAD_BYTES = 48;
const MAX_DEPTH = 24;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A Blob or File (also a Blob from another realm). */
const isBlob = (x: object): x is Blob => {
  const tag = tagOf(x);
  return tag === 'Blob' || tag === 'File';
};

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
export function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + (i + 1 < bytes.length ? B64[(n >> 6) & 63] : '=');
    out += i + 2 < bytes.length ? B64[n & 63] : '=';
  }
  return out;
}

/** ArrayBuffers and views (typed arrays, DataView) as bytes, or undefined. */
function bytesOf(x: object): Uint8Array | undefined {
  if (ArrayBuffer.isView(x)) return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  const tag = tagOf(x);
  if (tag === 'ArrayBuffer' || tag === 'SharedArrayBuffer') return new Uint8Array(x as ArrayBuffer);
  return undefined;
}

const className = (x: object) => {
  const ctor = (Object.getPrototypeOf(x) as { constructor?: { name?: unknown } } | null)?.constructor;
  return typeof ctor?.name === 'string' && ctor.name ? ctor.name : tagOf(x);
};

type BlobHeads = [Blob, Record<string, Json>][];

/**
 * A stored value as tagged JSON of at most about `maxChars` characters (see protocol.ts): plain
 * JSON as itself, the rest tagged; binary values described with their first bytes in base64 (a
 * Blob's are read by `withBlobHeads`, asynchronously). Values read from IndexedDB are fresh copies;
 * nothing here calls the app's code but an adapter value's getters.
 */
export function taggedSync(value: unknown, maxChars: number): { value: Json; cut: boolean; blobs: BlobHeads } {
  let left = maxChars;
  let cut = false;
  const blobs: BlobHeads = [];
  const walk = (x: unknown, depth: number): Json => {
    if (left <= 0) {
      cut = true;
      return { $: 'cut', why: 'bytes' };
    }
    switch (typeof x) {
      case 'string':
        if (x.length + 2 > left) {
          cut = true;
          const v = x.slice(0, Math.max(0, left));
          left = 0;
          return { $: 'string', v, length: x.length };
        }
        left -= x.length + 2;
        return x;
      case 'number':
        left -= 8;
        return Number.isFinite(x) && !Object.is(x, -0) ? x : { $: 'number', v: Object.is(x, -0) ? '-0' : String(x) };
      case 'boolean':
        left -= 5;
        return x;
      case 'bigint':
        left -= 24;
        return { $: 'bigint', v: String(x) };
      case 'undefined':
        left -= 16;
        return { $: 'undefined' };
      case 'symbol':
      case 'function':
        left -= 24;
        return { $: typeof x, v: String(x).slice(0, 100) };
    }
    if (x === null) {
      left -= 4;
      return null;
    }
    const o = x as object;
    if (depth >= MAX_DEPTH) {
      cut = true;
      return { $: 'cut', why: 'depth' };
    }
    left -= 16;
    const bytes = bytesOf(o);
    if (bytes) {
      left -= 80;
      return { $: 'binary', cls: className(o), size: bytes.length, head: base64(bytes.subarray(0, HEAD_BYTES)) };
    }
    if (isBlob(o)) {
      left -= 120;
      const out: Record<string, Json> = { $: 'binary', cls: tagOf(o), type: o.type, size: o.size };
      const name = (o as File).name;
      if (typeof name === 'string') out.name = name;
      if (blobs.length < 32) blobs.push([o, out]);
      return out;
    }
    const tag = tagOf(o);
    if (tag === 'Date') {
      const t = (o as Date).getTime();
      return { $: 'date', v: Number.isNaN(t) ? 'Invalid Date' : new Date(t).toISOString() };
    }
    if (tag === 'RegExp') return { $: 'regexp', v: String(o) };
    if (tag === 'Error') return { $: 'error', name: String((o as Error).name), message: String((o as Error).message) };
    if (Array.isArray(o)) {
      const items: Json[] = [];
      for (let i = 0; i < o.length && left > 0; i++) items.push(walk(o[i], depth + 1));
      if (items.length === o.length) return items;
      cut = true;
      return { $: 'array', items, length: o.length };
    }
    if (tag === 'Map' || tag === 'Set') {
      const list: Json[] = [];
      const size = (o as Set<unknown>).size;
      for (const item of o as Iterable<unknown>) {
        if (left <= 0) {
          cut = true;
          break;
        }
        list.push(tag === 'Map' ? (item as unknown[]).map((part) => walk(part, depth + 1)) : walk(item, depth + 1));
      }
      return tag === 'Map' ? { $: 'map', entries: list, size } : { $: 'set', items: list, size };
    }
    const props: Record<string, Json> = {};
    let more = 0;
    for (const key of Object.keys(o)) {
      if (left <= 0) {
        more++;
        continue;
      }
      left -= key.length + 3;
      props[key] = walk((o as Record<string, unknown>)[key], depth + 1);
    }
    if (more > 0) cut = true;
    // An object of its own with a `$` key, or one cut short, is written as the tagged form.
    return '$' in props || more > 0 ? { $: 'object', props, ...(more > 0 ? { more } : {}) } : props;
  };
  const out = walk(value, 0);
  return { value: out, cut, blobs };
}

/** Fills in the heads of the Blobs taggedSync described. */
export function withBlobHeads(blobs: BlobHeads): Promise<unknown> {
  return Promise.all(
    blobs.map(async ([blob, out]) => {
      try {
        out.head = base64(new Uint8Array(await blob.slice(0, HEAD_BYTES).arrayBuffer()));
      } catch (e) {
        out.head = `(unreadable: ${(e as Error).message})`;
      }
    }),
  );
}

/** taggedSync with the Blobs' heads read. */
export async function tagged(value: unknown, maxChars: number): Promise<{ value: Json; cut: boolean }> {
  const result = taggedSync(value, maxChars);
  await withBlobHeads(result.blobs);
  return result;
}

/**
 * About the bytes a value takes (text counts its length), reading at most `nodes` parts of it; past
 * them the estimate is what was counted.
 */
export function sizeOf(x: unknown, budget = { nodes: 20_000 }): number {
  if (typeof x === 'string') return x.length;
  if (typeof x === 'boolean') return 4;
  if (x === null || typeof x !== 'object') return 8;
  if (--budget.nodes < 0) return 0;
  const bytes = bytesOf(x);
  if (bytes) return bytes.length;
  if (isBlob(x)) return x.size;
  if (Array.isArray(x)) {
    let n = 0;
    for (const item of x) n += sizeOf(item, budget);
    return n;
  }
  const tag = tagOf(x);
  if (tag === 'Map' || tag === 'Set') {
    let n = 0;
    for (const item of x as Iterable<unknown>) n += sizeOf(item, budget);
    return n;
  }
  if (tag === 'Date') return 8;
  let n = 0;
  for (const key of Object.keys(x)) n += key.length + sizeOf((x as Record<string, unknown>)[key], budget);
  return n;
}

/** The first characters of a value as text (JSON for structures) and whether that is all of it. */
export function previewOf(value: unknown, chars: number): { preview: string; previewCut?: true } {
  const text = typeof value === 'string' ? value : JSON.stringify(taggedSync(value, chars * 2).value);
  return text.length > chars ? { preview: text.slice(0, chars), previewCut: true } : { preview: text };
}

// IndexedDB keys ------------------------------------------------------------------------------

const isJsonText = (s: string) => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};

type KeyJson = number | string | { $date: string } | { $binary: string } | KeyJson[];

function keyJson(k: unknown): KeyJson {
  if (typeof k === 'number' || typeof k === 'string') return k;
  if (Array.isArray(k)) return k.map(keyJson);
  if (k instanceof Date) return { $date: k.toISOString() };
  const bytes = k && typeof k === 'object' ? bytesOf(k) : undefined;
  return bytes ? { $binary: base64(bytes) } : String(k);
}

/** An IndexedDB key as text: a string as itself (JSON-quoted when it would read as JSON), others as JSON. */
export function keyText(k: unknown): string {
  return typeof k === 'string' && !isJsonText(k) ? k : JSON.stringify(keyJson(k));
}

function fromBase64(s: string): Uint8Array {
  const bytes: number[] = [];
  let bits = 0;
  let n = 0;
  for (const c of s) {
    const v = B64.indexOf(c);
    if (v < 0) continue;
    n = (n << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((n >> bits) & 255);
    }
  }
  return new Uint8Array(bytes);
}

function fromKeyJson(v: unknown): IDBValidKey | undefined {
  if (typeof v === 'number' || typeof v === 'string') return v;
  if (Array.isArray(v)) {
    const parts = v.map(fromKeyJson);
    return parts.every((p) => p !== undefined) ? (parts as IDBValidKey[]) : undefined;
  }
  if (v && typeof v === 'object') {
    const o = v as { $date?: unknown; $binary?: unknown };
    if (typeof o.$date === 'string') return new Date(o.$date);
    if (typeof o.$binary === 'string') return fromBase64(o.$binary).buffer as ArrayBuffer;
  }
  return undefined;
}

/** The IndexedDB key a text names (keyText's inverse); text that is no key's JSON is the string itself. */
export function parseKey(text: string): IDBValidKey {
  try {
    return fromKeyJson(JSON.parse(text)) ?? text;
  } catch {
    return text;
  }
}
