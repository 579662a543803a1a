import type { Area, AreaKind } from '../protocol.js';
import type { StorageAdapter } from './adapter.js';
import { type AreaReader, adapterArea, fail } from './area.js';
import { cacheAreas, cacheStore } from './cache.js';
import { indexedDbAreas, indexedDbStore } from './idb.js';
import { type AsyncStorageLike, asyncStorageAdapter, type MMKVLike, type MMKVOption, mmkvAdapter } from './native.js';
import { cookies, webStorage } from './web.js';

// Loaded on the inspector's first question (agent/index.ts imports it lazily): every area the app
// has, by name.

export interface AreaOptions {
  web?: boolean;
  asyncStorage?: AsyncStorageLike;
  mmkv?: readonly (MMKVLike | MMKVOption)[];
}

export interface Areas {
  list(): Promise<Area[]>;
  reader(area: string): AreaReader;
  /** Adapters whose `subscribe` reports changes (the app's own, AsyncStorage, MMKV). */
  readonly adapters: readonly StorageAdapter[];
}

const hasDocument = () => (globalThis as { document?: unknown }).document !== undefined;

/** A family of areas, or the reason it cannot be read here (a sandboxed frame throws on access). */
async function unavailable(kind: 'indexedDB' | 'cacheStorage', list: () => Promise<Area[]>): Promise<Area[]> {
  try {
    return await list();
  } catch (e) {
    const err = e as Error;
    return [
      {
        area: kind,
        kind,
        error: `it cannot be read here (${err?.name}: ${err?.message}): a sandboxed frame, or site data blocked by the browser`,
      },
    ];
  }
}

const isOption = (x: MMKVLike | MMKVOption): x is MMKVOption => 'instance' in x && typeof x.instance === 'object';

/** The app's areas: the web ones where there is a page, the React Native stores it gave, its own adapters. */
export function createAreas(options: AreaOptions, own: readonly StorageAdapter[]): Areas {
  const builtIn: [StorageAdapter, AreaKind][] = [];
  if (options.web !== false && hasDocument()) {
    builtIn.push(
      [webStorage('localStorage'), 'localStorage'],
      [webStorage('sessionStorage'), 'sessionStorage'],
      [cookies(), 'cookies'],
    );
  }
  if (options.asyncStorage) builtIn.push([asyncStorageAdapter(options.asyncStorage), 'asyncStorage']);
  (options.mmkv ?? []).forEach((m, i) => {
    builtIn.push([mmkvAdapter(isOption(m) ? m : { instance: m }, i), 'mmkv']);
  });
  const native = builtIn.filter(([, kind]) => kind === 'asyncStorage' || kind === 'mmkv').map(([a]) => a);
  const all = () => [...builtIn, ...own.map((a) => [a, 'adapter'] as [StorageAdapter, AreaKind])];
  return {
    adapters: [...native],
    async list() {
      const areas: Area[] = [];
      for (const [adapter, kind] of all()) areas.push(await adapterArea(adapter, kind).summary());
      if (options.web !== false && hasDocument()) {
        areas.push(
          ...(await unavailable('indexedDB', indexedDbAreas)),
          ...(await unavailable('cacheStorage', cacheAreas)),
        );
      }
      return areas;
    },
    reader(area) {
      for (const [adapter, kind] of all()) if (adapter.name === area) return adapterArea(adapter, kind);
      const store = options.web === false || !hasDocument() ? undefined : (indexedDbStore(area) ?? cacheStore(area));
      if (store) return store;
      const names = all().map(([a]) => a.name);
      throw fail(
        `the app has no storage area "${area}"${names.length ? ` (it has ${names.join(', ')}, and the IndexedDB stores and caches storage_list names)` : ''}; storage_list lists the areas`,
      );
    },
  };
}
