import { defineAgentPlugin, type ProtocolRef } from '../../../agent/plugin.js';
import { RequestError } from '../../../shared/protocol/request-error.js';
import { STORAGE_ID, STORAGE_VERSION } from '../constants.js';
import type { storageProtocol } from '../protocol.js';
import type { StorageAdapter } from './adapter.js';
import type { AreaOptions, Areas } from './areas.js';
import { Changes, watchWebStorage } from './watch.js';

export type { AdapterKey, StorageAdapter } from './adapter.js';
export type { AsyncStorageLike, MMKVLike, MMKVOption } from './native.js';

const protocol: ProtocolRef<typeof storageProtocol> = { id: STORAGE_ID, version: STORAGE_VERSION };

export interface StorageOptions extends AreaOptions {
  /**
   * localStorage, sessionStorage, cookies, IndexedDB and Cache Storage, where the app is a page.
   * Default true; false leaves them out (and unwatched).
   */
  web?: boolean;
  /** React Native: AsyncStorage's default export (`import AsyncStorage from '@react-native-async-storage/async-storage'`). */
  asyncStorage?: AreaOptions['asyncStorage'];
  /** React Native: MMKV instances, or `{ instance, name?, encrypted? }` for each. */
  mmkv?: AreaOptions['mmkv'];
  /** The app's own stores (SQLite, files…): see StorageAdapter. */
  adapters?: readonly StorageAdapter[];
}

/**
 * What the app keeps, for the inspector's Storage panel and its storage_* tools:
 * `connect({ plugins: [storage()] })` in a page; `storage({ asyncStorage, mmkv: [instance] })` in
 * React Native; `storage({ adapters: [...] })` anywhere. Nothing is read until the inspector asks;
 * the app's own writes are reported (keys only, in batches) while the inspector is connected.
 */
export function storage(options: StorageOptions = {}) {
  return defineAgentPlugin(protocol, (ctx) => {
    const own: StorageAdapter[] = [...(options.adapters ?? [])];
    const changes = new Changes(
      (params) => ctx.notify('changed', params),
      () => ctx.connected,
    );
    const undo: (() => void)[] = [];
    const follow = (adapter: StorageAdapter): (() => void) => {
      try {
        const stop = adapter.subscribe?.((key) => changes.note(adapter.name, key));
        if (stop) undo.push(stop);
        return stop ?? (() => {});
      } catch {
        // an adapter that cannot report changes is read when asked
        return () => {};
      }
    };
    let areas: Promise<Areas> | undefined;
    // The readers load on the inspector's first question (or at the first connection, when
    // React Native stores are to be followed), so an app that is never inspected never loads them.
    const load = () =>
      (areas ??= import('./areas.js').then((m) => {
        const made = m.createAreas(options, own);
        for (const adapter of made.adapters) follow(adapter);
        return made;
      }));
    const reader = async (area: string) => (await load()).reader(area);

    if (options.web !== false) undo.push(watchWebStorage(changes.note));
    for (const adapter of own) follow(adapter);
    if (options.asyncStorage || options.mmkv?.length) {
      ctx.onConnectionChange((connected) => {
        if (connected) void load();
      });
    }

    ctx.handle('areas', async () => ({ areas: await (await load()).list() }));
    ctx.handle('keys', async (params) => (await reader(params.area)).keys(params));
    ctx.handle('get', async (params) => (await reader(params.area)).get(params));
    ctx.handle('set', async (params) => (await reader(params.area)).set(params));
    ctx.handle('remove', async (params) => {
      if (params.key === undefined && !params.clear) {
        throw new RequestError('handler-error', 'name a key to remove, or clear: true to remove every key');
      }
      return (await reader(params.area)).remove(params);
    });

    return {
      /** Adds a store the app opened later; returns what removes it again. */
      addAdapter(adapter: StorageAdapter): () => void {
        own.push(adapter);
        const stop = follow(adapter);
        return () => {
          const at = own.indexOf(adapter);
          if (at >= 0) own.splice(at, 1);
          stop();
        };
      },
      /** Stops following the app's writes (the wrapped Storage methods are put back). */
      dispose(): void {
        for (const u of undo.splice(0)) u();
      },
    };
  });
}
