import { describe, expect, it } from 'vitest';
import { startPlugin } from '../../../electron/host/plugin-testing.js';
import storagePlugin from '../host/index.js';
import { storage } from './index.js';
import type { AsyncStorageLike, MMKVLike } from './native.js';

// React Native's stores are native modules, so these tests give the adapters in-memory stores with
// the same JavaScript API (@react-native-async-storage/async-storage's default export; a
// react-native-mmkv instance, v3 with delete() and v4 with remove()). The same adapters against the
// real modules run in the React Native rig (issue 36).

/** AsyncStorage's API over a Map: every method async, as the native module's. */
function memoryAsyncStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  const merge = (key: string, value: string) => {
    const old = data.get(key);
    data.set(key, JSON.stringify({ ...(old ? JSON.parse(old) : {}), ...JSON.parse(value) }));
  };
  return {
    data,
    getAllKeys: async () => [...data.keys()],
    getItem: async (key: string) => data.get(key) ?? null,
    setItem: async (key: string, value: string) => {
      if (value.length > 1000) throw new Error('database or disk is full');
      data.set(key, value);
    },
    removeItem: async (key: string) => {
      data.delete(key);
    },
    mergeItem: async (key: string, value: string) => merge(key, value),
    clear: async () => data.clear(),
    multiGet: async (keys: readonly string[]) => keys.map((k) => [k, data.get(k) ?? null] as const),
    multiSet: async (pairs: [string, string][]) => {
      for (const [k, v] of pairs) data.set(k, v);
    },
    multiRemove: async (keys: string[]) => {
      for (const k of keys) data.delete(k);
    },
  } satisfies AsyncStorageLike & Record<string, unknown>;
}

/** A react-native-mmkv instance's API over a Map of typed values (MMKV keeps strings, numbers, booleans, buffers). */
function memoryMMKV(id: string, version: 3 | 4, options: { readOnly?: boolean } = {}) {
  const data = new Map<string, string | number | boolean | ArrayBuffer>();
  const listeners = new Set<(key: string) => void>();
  const changed = (key: string) => {
    for (const l of listeners) l(key);
  };
  const typed =
    <T>(type: string) =>
    (key: string) =>
      typeof data.get(key) === type ? (data.get(key) as T) : undefined;
  const instance: MMKVLike & { data: typeof data } = {
    data,
    id,
    isReadOnly: options.readOnly === true,
    getAllKeys: () => [...data.keys()],
    getString: typed<string>('string'),
    getNumber: typed<number>('number'),
    getBoolean: typed<boolean>('boolean'),
    getBuffer: (key) => (data.get(key) instanceof ArrayBuffer ? (data.get(key) as ArrayBuffer) : undefined),
    contains: (key) => data.has(key),
    set: (key, value) => {
      if (options.readOnly) throw new Error('this MMKV instance is read-only');
      data.set(key, value);
      changed(key);
    },
    clearAll: () => {
      const keys = [...data.keys()];
      data.clear();
      for (const k of keys) changed(k);
    },
    addOnValueChangedListener: (listener) => {
      listeners.add(listener);
      return { remove: () => listeners.delete(listener) };
    },
  };
  const remove = (key: string) => {
    const had = data.delete(key);
    changed(key);
    return had;
  };
  return Object.assign(instance, version === 3 ? { delete: remove } : { remove });
}

describe('AsyncStorage, handed to the plugin in one line', () => {
  it('lists, reads, writes, removes and clears; the app’s writes are reported; its calls answer as before', async () => {
    const store = memoryAsyncStorage({ session: '{"user":"ada","token":"t-1"}', locale: 'en' });
    const t = await startPlugin(storagePlugin, storage({ asyncStorage: store }));

    const areas = await t.mcp.call('storage_list');
    expect(areas.structuredContent).toEqual({
      summary: expect.any(String),
      areas: [
        {
          area: 'asyncStorage',
          kind: 'asyncStorage',
          count: 2,
          size: 43,
          note: 'AsyncStorage: clearing it removes every key of the app, other libraries’ too',
        },
      ],
    });
    const session = await t.mcp.call('storage_get', { area: 'asyncStorage', key: 'session' });
    expect(session.structuredContent).toMatchObject({ value: { user: 'ada', token: '[redacted]' } });

    const set = await t.window.run('storage_set', { area: 'asyncStorage', key: 'locale', value: 'fr' });
    expect(set.structuredContent).toMatchObject({ before: { text: 'en' }, after: { text: 'fr' } });
    expect(store.data.get('locale')).toBe('fr');
    const tooBig = await t.window.run('storage_set', { area: 'asyncStorage', key: 'blob', value: 'x'.repeat(2000) });
    expect(tooBig.isError).toBe(true);
    expect(tooBig.text).toMatch(/the app's storage is full \(Error: database or disk is full\); nothing was written/);

    // The app's own writes through the wrapped methods: same results, reported as changes.
    expect(await store.setItem('a', '1')).toBeUndefined();
    await expect(store.setItem('b', 'y'.repeat(2000))).rejects.toThrow('database or disk is full');
    await store.multiSet([
      ['c', '3'],
      ['d', '4'],
    ]);
    await store.mergeItem('session', '{"theme":"dark"}');
    expect(JSON.parse(store.data.get('session')!)).toEqual({ user: 'ada', token: 't-1', theme: 'dark' });
    await store.multiRemove(['c']);
    await t.panel.waitForEvent('changed', (e) => e.changes.some((c) => c.key === 'session'));
    // Every write is reported, the inspector's own too; a failed one as well (the value is read again, unchanged).
    const keys = t.panel.events.flatMap((e) => (e.event === 'changed' ? e.data.changes.map((c) => c.key) : []));
    expect(keys).toEqual(expect.arrayContaining(['locale', 'a', 'b', 'c', 'd', 'session']));

    const removed = await t.window.run('storage_set', { area: 'asyncStorage', key: 'a', remove: true });
    expect(removed.structuredContent).toEqual({
      summary: expect.any(String),
      removed: 1,
      before: { key: 'a', found: true, size: 1, value: 1 },
    });
    const cleared = await t.window.run('storage_set', { area: 'asyncStorage', clear: true });
    expect(cleared.structuredContent).toMatchObject({ removed: 3, before: { count: 3 } });
    expect(store.data.size).toBe(0);
  });
});

describe('MMKV instances', () => {
  it('reads each type, keeps a number a number when written, removes with v3’s delete and v4’s remove', async () => {
    const v3 = memoryMMKV('mmkv.default', 3);
    v3.set('user.name', 'Ada');
    v3.set('user.age', 36);
    v3.set('onboarded', true);
    v3.set('avatar', new Uint8Array([1, 2, 3]).buffer as ArrayBuffer);
    const v4 = memoryMMKV('cache', 4);
    v4.set('k', 'v');
    const readOnly = memoryMMKV('shared', 4, { readOnly: true });
    const t = await startPlugin(storagePlugin, storage({ mmkv: [v3, v4, readOnly] }));

    const areas = (await t.mcp.call('storage_list')).structuredContent as {
      areas: { area: string; readOnly?: boolean }[];
    };
    expect(areas.areas.map((a) => [a.area, a.readOnly ?? false])).toEqual([
      ['mmkv/mmkv.default', false],
      ['mmkv/cache', false],
      ['mmkv/shared', true],
    ]);
    const get = async (key: string) =>
      (await t.mcp.call('storage_get', { area: 'mmkv/mmkv.default', key })).structuredContent;
    expect(await get('user.name')).toMatchObject({ text: 'Ada' });
    expect(await get('user.age')).toMatchObject({ value: 36 });
    expect(await get('onboarded')).toMatchObject({ value: true });
    expect(await get('avatar')).toMatchObject({ value: { $: 'binary', cls: 'ArrayBuffer', size: 3, head: 'AQID' } });

    await t.window.run('storage_set', { area: 'mmkv/mmkv.default', key: 'user.age', value: '37' });
    expect(v3.data.get('user.age')).toBe(37);
    await t.window.run('storage_set', { area: 'mmkv/mmkv.default', key: 'onboarded', value: 'false' });
    expect(v3.data.get('onboarded')).toBe(false);
    await t.window.run('storage_set', { area: 'mmkv/mmkv.default', key: 'user.name', remove: true });
    expect(v3.data.has('user.name')).toBe(false);
    await t.window.run('storage_set', { area: 'mmkv/cache', key: 'k', remove: true });
    expect(v4.data.has('k')).toBe(false);
    const refused = await t.window.run('storage_set', { area: 'mmkv/shared', key: 'x', value: '1' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/mmkv\/shared cannot set: the app's adapter has no set method/);

    // The app's writes, through MMKV's own listener.
    v3.set('theme', 'dark');
    await t.panel.waitForEvent('changed', (e) =>
      e.changes.some((c) => c.area === 'mmkv/mmkv.default' && c.key === 'theme'),
    );
  });

  it('an encrypted instance: the window reads its values, an AI agent gets [redacted] and no previews', async () => {
    const secure = memoryMMKV('secure', 4);
    secure.set('pin', '1234');
    secure.set('profile', '{"name":"Ada"}');
    const t = await startPlugin(storagePlugin, storage({ mmkv: [{ instance: secure, encrypted: true }] }));
    const areas = (await t.mcp.call('storage_list')).structuredContent as {
      areas: { secret?: boolean; note?: string }[];
    };
    expect(areas.areas[0]).toMatchObject({ secret: true, note: expect.stringMatching(/encrypted \(encryptionKey\)/) });
    const keys = (await t.mcp.call('storage_list', { area: 'mmkv/secure' })).structuredContent as {
      keys: { key: string; preview?: string }[];
    };
    expect(keys.keys).toEqual([
      { key: 'pin', size: 4 },
      { key: 'profile', size: 14 },
    ]);
    const agent = await t.mcp.call('storage_get', { area: 'mmkv/secure', key: 'profile' });
    expect(agent.structuredContent).toMatchObject({ value: '[redacted]' });
    const window = await t.panel.call('get', { area: 'mmkv/secure', key: 'profile' });
    expect(window.value).toEqual({ name: 'Ada' });
  });
});
