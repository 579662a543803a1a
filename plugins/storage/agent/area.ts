import { RequestError } from '../../../shared/protocol/request-error.js';
import { MAX_KEY_CHARS, PREVIEW_CHARS } from '../constants.js';
import type {
  Area,
  AreaKind,
  Change,
  Entries,
  Entry,
  GetParams,
  KeyInfo,
  KeyPage,
  KeysParams,
  Removed,
  RemoveParams,
  SetParams,
} from '../protocol.js';
import type { AdapterKey, StorageAdapter } from './adapter.js';
import { previewOf, sizeOf, tagged } from './values.js';

/** What the inspector asks of one area. */
export interface AreaReader {
  keys(params: KeysParams): Promise<KeyPage>;
  get(params: GetParams): Promise<Entries>;
  set(params: SetParams): Promise<Change>;
  remove(params: RemoveParams): Promise<Removed>;
}

/** A refusal the inspector passes on to whoever asked. */
export const fail = (message: string) => new RequestError('handler-error', message);

/** `kind/part/part`, with `%` and `/` in the parts escaped. */
export const nameOf = (kind: string, ...parts: string[]) =>
  [kind, ...parts.map((p) => p.replace(/%/g, '%25').replace(/\//g, '%2F'))].join('/');

/** The parts of an area named `kind/…`, or undefined. */
export function partsOf(area: string, kind: string): string[] | undefined {
  if (!area.startsWith(`${kind}/`)) return undefined;
  try {
    return area
      .slice(kind.length + 1)
      .split('/')
      .map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

const now = () => (globalThis.performance ?? Date).now();
let sliceStart = now();
/** Lets the app's thread run when the inspector's work has held it for 8 ms. */
export async function breathe(): Promise<void> {
  if (now() - sliceStart < 8) return;
  await new Promise((resolve) => setTimeout(resolve, 0));
  sliceStart = now();
}

/** A value as an entry: text sliced from `offset` to at most `maxChars` characters, other values tagged. */
export async function entryOf(key: string, value: unknown, offset: number, maxChars: number): Promise<Entry> {
  if (typeof value === 'string') {
    const text = value.slice(offset, offset + maxChars);
    const whole = offset === 0 && text.length === value.length;
    return {
      key,
      found: true,
      size: value.length,
      text,
      ...(whole ? {} : { offset, length: value.length, more: offset + text.length < value.length }),
    };
  }
  const { value: out, cut } = await tagged(value, maxChars);
  return { key, found: true, size: sizeOf(value), value: out, ...(cut ? { more: true } : {}) };
}

/** A store error as the inspector says it; a full store in words that say nothing was written. */
export function explain(e: unknown, what: string): RequestError {
  if (e instanceof RequestError) return e;
  const err = e as { name?: string; message?: string };
  const name = typeof err?.name === 'string' ? err.name : 'Error';
  const message = typeof err?.message === 'string' ? err.message : String(e);
  if (name === 'QuotaExceededError' || /quota|disk is full|SQLITE_FULL/i.test(message)) {
    return fail(
      `${what}: the app's storage is full (${name}: ${message}); nothing was written. Remove keys (storage_set remove: true) or write a shorter value; Safari's private mode accepts nothing at all.`,
    );
  }
  return fail(`${what}: ${name === 'Error' ? '' : `${name}: `}${message}`);
}

const keyOf = (k: AdapterKey) => (typeof k === 'string' ? { key: k } : { key: String(k.key), size: k.size });
const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** The index of the first key after `key` in a sorted list. */
function after(list: { key: string }[], key: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.key <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const cut = (key: string): Pick<KeyInfo, 'key' | 'keyCut'> =>
  key.length > MAX_KEY_CHARS ? { key: key.slice(0, MAX_KEY_CHARS), keyCut: true } : { key };

/**
 * An adapter as an area: its keys sorted and paged (a page is stable while keys come and go: it
 * continues after the last key seen), values read on demand.
 */
export function adapterArea(adapter: StorageAdapter, kind: AreaKind): AreaReader & { summary(): Promise<Area> } {
  const secret = adapter.secret ? { secret: true } : {};
  const sortedKeys = async () => {
    const keys = (await adapter.keys()).map(keyOf);
    keys.sort(byKey);
    return keys;
  };
  const read = async (key: string, offset: number, maxChars: number): Promise<Entry> => {
    let value: unknown;
    try {
      value = await adapter.get(key);
    } catch (e) {
      throw explain(e, `${adapter.name} could not read "${key}"`);
    }
    if (value === undefined || value === null) return { key, found: false };
    const entry = await entryOf(key, value, offset, maxChars);
    const meta = (await adapter.meta?.(key)) as Entry['meta'];
    return { ...entry, ...(meta ? { meta } : {}), ...secret };
  };
  const change = async <T>(what: string, run: (() => unknown) | undefined, verb: string): Promise<T> => {
    if (!run) throw fail(`${adapter.name} cannot ${verb}: the app's adapter has no ${verb} method`);
    try {
      return (await run()) as T;
    } catch (e) {
      throw explain(e, what);
    }
  };
  return {
    async summary() {
      const base = { area: adapter.name, kind, ...secret, ...(adapter.set ? {} : { readOnly: true }) };
      try {
        const keys = (await adapter.keys()).map(keyOf);
        const sized = keys.every((k) => k.size !== undefined);
        return {
          ...base,
          count: keys.length,
          ...(sized ? { size: keys.reduce((n, k) => n + k.size!, 0) } : {}),
          ...(adapter.note ? { note: adapter.note } : {}),
        };
      } catch (e) {
        const err = e as Error;
        return {
          ...base,
          error: `it cannot be read here (${err?.name}: ${err?.message}): a sandboxed frame, site data blocked by the browser, or the store failed`,
        };
      }
    },
    async keys({ prefix, after: last, limit }) {
      let all: { key: string; size?: number }[];
      try {
        all = await sortedKeys();
      } catch (e) {
        throw explain(e, `${adapter.name} cannot be read here`);
      }
      const matched = prefix ? all.filter((k) => k.key.startsWith(prefix)) : all;
      const start = last === undefined ? 0 : after(matched, last);
      const keys: KeyInfo[] = [];
      for (const k of matched.slice(start, start + limit)) {
        await breathe();
        let value: unknown;
        try {
          value = await adapter.get(k.key);
        } catch {
          value = undefined;
        }
        // A key removed since the list was read is left out.
        if (value === undefined || value === null) continue;
        keys.push({ ...cut(k.key), size: k.size ?? sizeOf(value), ...previewOf(value, PREVIEW_CHARS) });
      }
      const sized = all.every((k) => k.size !== undefined);
      return {
        area: adapter.name,
        keys,
        total: all.length,
        ...(sized ? { totalSize: all.reduce((n, k) => n + k.size!, 0) } : {}),
        ...(prefix ? { matched: matched.length } : {}),
        ...(start + limit < matched.length ? { after: matched[start + limit - 1]!.key } : {}),
        ...secret,
      };
    },
    async get({ key, to, after: last, limit = 20, offset = 0, maxChars }) {
      if (to === undefined) return { entries: [await read(key, offset, maxChars)] };
      const all = await sortedKeys();
      const start = last === undefined ? all.findIndex((k) => k.key >= key) : after(all, last);
      const inRange = (start < 0 ? [] : all.slice(start)).filter((k) => k.key <= to);
      const entries: Entry[] = [];
      for (const k of inRange.slice(0, limit)) {
        await breathe();
        const entry = await read(k.key, 0, maxChars);
        if (entry.found) entries.push(entry);
      }
      return { entries, ...(inRange.length > limit ? { after: inRange[limit - 1]!.key } : {}) };
    },
    async set({ key, value, maxChars }) {
      const before = await read(key, 0, maxChars);
      await change(`${adapter.name} did not take "${key}"`, adapter.set && (() => adapter.set!(key, value)), 'set');
      return { before, after: await read(key, 0, maxChars) };
    },
    async remove({ key, clear, maxChars }) {
      if (key !== undefined) {
        const before = await read(key, 0, maxChars);
        await change(
          `${adapter.name} did not remove "${key}"`,
          adapter.remove && (() => adapter.remove!(key)),
          'remove',
        );
        return { removed: before.found ? 1 : 0, before };
      }
      const keys = await sortedKeys();
      const beforeSize = keys.every((k) => k.size !== undefined) ? keys.reduce((n, k) => n + k.size!, 0) : undefined;
      if (clear) {
        const each =
          adapter.remove &&
          (async () => {
            for (const k of keys) await adapter.remove!(k.key);
          });
        await change(`${adapter.name} was not cleared`, adapter.clear ? () => adapter.clear!() : each, 'clear');
      }
      return { removed: keys.length, beforeCount: keys.length, ...(beforeSize !== undefined ? { beforeSize } : {}) };
    },
  };
}
