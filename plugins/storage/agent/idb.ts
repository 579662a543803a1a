import { MAX_KEY_CHARS, PREVIEW_CHARS } from '../constants.js';
import type { Area, Entry, KeyInfo } from '../protocol.js';
import { type AreaReader, entryOf, fail, nameOf, partsOf } from './area.js';
import { keyText, parseKey, previewOf, sizeOf, taggedSync, withBlobHeads } from './values.js';

// IndexedDB object stores as areas `indexedDB/<database>/<store>`. Every read opens the database
// (never creating it), reads in one short transaction, and closes it again, so the app's own
// upgrades are never blocked by the inspector; a record is read per cursor step, one task each.

const factory = () => (globalThis as { indexedDB?: IDBFactory }).indexedDB;

const done = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

/** Opens an existing database at its version; one deleted meanwhile is not created again. */
function open(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory()!.open(name);
    request.onupgradeneeded = () => request.transaction?.abort();
    request.onsuccess = () => {
      const db = request.result;
      db.onversionchange = () => db.close();
      resolve(db);
    };
    request.onerror = () =>
      reject(
        request.error?.name === 'AbortError'
          ? new Error(`the app has no IndexedDB database "${name}" (it was deleted); storage_list lists the areas`)
          : request.error,
      );
  });
}

async function withStore<T>(
  dbName: string,
  storeName: string,
  mode: IDBTransactionMode,
  use: (store: IDBObjectStore, tx: IDBTransaction) => Promise<T>,
): Promise<T> {
  const db = await open(dbName);
  try {
    if (!db.objectStoreNames.contains(storeName)) {
      throw new Error(
        `IndexedDB database "${dbName}" has no object store "${storeName}"; storage_list lists the areas`,
      );
    }
    const tx = db.transaction(storeName, mode);
    const ended = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onabort = () => reject(tx.error ?? new Error('the transaction was aborted'));
    });
    ended.catch(() => {});
    const result = await use(tx.objectStore(storeName), tx);
    await ended;
    return result;
  } finally {
    db.close();
  }
}

function storeNote(db: IDBDatabase, store: IDBObjectStore): string {
  const path = (p: string | string[] | null) => (p === null ? 'out of line' : JSON.stringify(p));
  const indexes = [...store.indexNames].map((n) => {
    const ix = store.index(n);
    return `${n} (${path(ix.keyPath)}${ix.unique ? ', unique' : ''}${ix.multiEntry ? ', multi-entry' : ''})`;
  });
  return `database ${db.name} version ${db.version}; keys ${path(store.keyPath)}${store.autoIncrement ? ', auto-increment' : ''}${indexes.length ? `; indexes: ${indexes.join(', ')}` : ''}`;
}

/** Every object store of every database the page's origin has. */
export async function indexedDbAreas(): Promise<Area[]> {
  const f = factory();
  if (!f) return [];
  let databases: IDBDatabaseInfo[];
  try {
    databases = await f.databases();
  } catch (e) {
    return [
      {
        area: 'indexedDB',
        kind: 'indexedDB',
        error: `it cannot be read here (${(e as Error).name}: ${(e as Error).message}): a sandboxed frame, site data blocked by the browser, or a browser without indexedDB.databases()`,
      },
    ];
  }
  const areas: Area[] = [];
  for (const { name } of databases) {
    if (name === undefined) continue;
    try {
      const db = await open(name);
      try {
        if (db.objectStoreNames.length === 0) {
          areas.push({
            area: nameOf('indexedDB', name),
            kind: 'indexedDB',
            count: 0,
            note: `database ${name} version ${db.version} has no object stores`,
          });
        }
        for (const storeName of db.objectStoreNames) {
          const store = db.transaction(storeName, 'readonly').objectStore(storeName);
          const count = await done(store.count());
          areas.push({
            area: nameOf('indexedDB', name, storeName),
            kind: 'indexedDB',
            count,
            note: storeNote(db, store),
          });
        }
      } finally {
        db.close();
      }
    } catch (e) {
      areas.push({
        area: nameOf('indexedDB', name),
        kind: 'indexedDB',
        error: `cannot be opened: ${(e as Error).message}`,
      });
    }
  }
  return areas;
}

/** About the bytes of values one request brings back: each reply is one task of the page's thread. */
const CHUNK_BYTES = 128 * 1024;

/**
 * Reads up to `limit` records of `range` in one transaction, a few at a time (getAll with a count
 * that adapts to the records' size): a cursor would let the browser prefetch up to a hundred large
 * values into one reply, one long task of the page's thread.
 */
async function readRecords<T>(
  store: IDBObjectStore,
  range: IDBKeyRange | undefined,
  limit: number,
  visit: (key: IDBValidKey, value: unknown, size: number) => T,
): Promise<{ items: T[]; more: boolean }> {
  const items: T[] = [];
  let part = range;
  let count = 4;
  for (;;) {
    const want = Math.min(count, limit - items.length + 1);
    const [keys, values] = await Promise.all([done(store.getAllKeys(part, want)), done(store.getAll(part, want))]);
    let bytes = 0;
    for (let i = 0; i < keys.length; i++) {
      if (items.length === limit) return { items, more: true };
      const size = sizeOf(values[i]);
      bytes += size;
      items.push(visit(keys[i]!, values[i], size));
    }
    if (keys.length < want) return { items, more: false };
    part = rangeOf(keys.at(-1), true, range?.upper, range?.upperOpen) ?? undefined;
    count = bytes > CHUNK_BYTES ? Math.max(1, count >> 1) : bytes < CHUNK_BYTES / 4 ? Math.min(64, count * 2) : count;
  }
}

function rangeOf(
  lower: IDBValidKey | undefined,
  lowerOpen: boolean,
  upper: IDBValidKey | undefined,
  upperOpen = false,
) {
  try {
    if (lower === undefined) return upper === undefined ? undefined : IDBKeyRange.upperBound(upper, upperOpen);
    return upper === undefined
      ? IDBKeyRange.lowerBound(lower, lowerOpen)
      : IDBKeyRange.bound(lower, upper, lowerOpen, upperOpen);
  } catch (e) {
    // lower above upper, or not a key: nothing is in that range
    if ((e as Error).name === 'DataError') return null;
    throw e;
  }
}

const cutKey = (key: string): Pick<KeyInfo, 'key' | 'keyCut'> =>
  key.length > MAX_KEY_CHARS ? { key: key.slice(0, MAX_KEY_CHARS), keyCut: true } : { key };

/** One object store, named `indexedDB/<database>/<store>`. */
export function indexedDbStore(area: string): AreaReader | undefined {
  const parts = partsOf(area, 'indexedDB');
  if (parts?.length !== 2 || !factory()) return undefined;
  const [dbName, storeName] = parts as [string, string];
  const use = <T>(mode: IDBTransactionMode, fn: (store: IDBObjectStore) => Promise<T>) =>
    withStore(dbName, storeName, mode, fn);
  // Values are read inside the transaction and described after it (a Blob's head is read asynchronously).
  const entry = (key: string, value: unknown, maxChars: number): Promise<Entry> =>
    value === undefined ? Promise.resolve({ key, found: false }) : entryOf(key, value, 0, maxChars);
  return {
    async keys({ prefix, after, limit }) {
      const upper = prefix === undefined ? undefined : `${prefix}\uffff`;
      return use('readonly', async (store) => {
        const total = await done(store.count());
        const matched = prefix === undefined ? undefined : await done(store.count(rangeOf(prefix, false, upper)!));
        const range = rangeOf(after === undefined ? prefix : parseKey(after), after !== undefined, upper);
        const { items, more } =
          range === null
            ? { items: [], more: false }
            : await readRecords(
                store,
                range,
                limit,
                (key, value, size): KeyInfo => ({
                  ...cutKey(keyText(key)),
                  size,
                  ...previewOf(value, PREVIEW_CHARS),
                }),
              );
        const last = items.at(-1);
        return {
          area,
          keys: items,
          total,
          ...(matched !== undefined ? { matched, note: 'a prefix matches string keys only' } : {}),
          ...(more && last ? { after: last.key } : {}),
        };
      });
    },
    async get({ key, to, after, limit = 20, maxChars }) {
      if (to === undefined) {
        const value = await use('readonly', (store) => done(store.get(parseKey(key))));
        return { entries: [await entry(key, value, maxChars)] };
      }
      const range = rangeOf(parseKey(after ?? key), after !== undefined, parseKey(to));
      if (range === null) return { entries: [] };
      const pending: Promise<unknown>[] = [];
      const { items, more } = await use('readonly', (store) =>
        readRecords(store, range, limit, (k, value, size): Entry => {
          const tagged = taggedSync(value, maxChars);
          pending.push(withBlobHeads(tagged.blobs));
          return {
            key: keyText(k),
            found: true,
            size,
            value: tagged.value,
            ...(tagged.cut ? { more: true } : {}),
          };
        }),
      );
      await Promise.all(pending);
      const last = items.at(-1);
      return { entries: items, ...(more && last ? { after: last.key } : {}) };
    },
    async set({ key, value, maxChars }) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch (e) {
        throw fail(
          `IndexedDB values are written as JSON, and this is not JSON (${(e as Error).message}); write a string "in quotes"`,
        );
      }
      const [before, written, after] = await use('readwrite', async (store) => {
        const old = await done(store.get(parseKey(key)));
        const at = await done(store.keyPath === null ? store.put(parsed, parseKey(key)) : store.put(parsed));
        return [old, at, await done(store.get(at))] as const;
      });
      return { before: await entry(key, before, maxChars), after: await entry(keyText(written), after, maxChars) };
    },
    async remove({ key, clear, maxChars }) {
      if (key !== undefined) {
        const before = await use('readwrite', async (store) => {
          const old = await done(store.get(parseKey(key)));
          await done(store.delete(parseKey(key)));
          return old;
        });
        return { removed: before === undefined ? 0 : 1, before: await entry(key, before, maxChars) };
      }
      const count = await use('readwrite', async (store) => {
        const n = await done(store.count());
        if (clear) await done(store.clear());
        return n;
      });
      return { removed: count, beforeCount: count };
    },
  };
}
