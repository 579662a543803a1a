import type { StorageAdapter } from './adapter.js';

/** The part of @react-native-async-storage/async-storage the plugin uses (its default export). */
export interface AsyncStorageLike {
  getAllKeys(): Promise<readonly string[]>;
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
  multiGet?(keys: readonly string[]): Promise<readonly (readonly [string, string | null])[]>;
  clear?(): Promise<void>;
}

/** The part of a react-native-mmkv instance the plugin uses (v2 and v3 delete, v4 remove). */
export interface MMKVLike {
  getAllKeys(): string[];
  getString(key: string): string | undefined;
  getNumber?(key: string): number | undefined;
  getBoolean?(key: string): boolean | undefined;
  getBuffer?(key: string): ArrayBufferLike | ArrayBufferView | undefined;
  contains?(key: string): boolean;
  set(key: string, value: string | number | boolean | ArrayBuffer): void;
  delete?(key: string): void;
  remove?(key: string): unknown;
  clearAll(): void;
  addOnValueChangedListener?(listener: (key: string) => void): { remove(): void };
  readonly id?: unknown;
  readonly isReadOnly?: boolean;
}

/** An MMKV instance with how the inspector names it and whether its file is encrypted. */
export interface MMKVOption {
  instance: MMKVLike;
  /** Its area is `mmkv/<name>`; default: the instance's id, else `default`, `1`, `2`… */
  name?: string;
  /**
   * The instance was made with an `encryptionKey`: its values are shown in the window but hidden
   * from AI agents (the inspector reads them through the app's instance, decrypted, and never sees the key).
   */
  encrypted?: boolean;
}

/** The AsyncStorage writes that change keys; wrapped (same arguments, same promise) to report them. */
const ASYNC_WRITES = ['setItem', 'removeItem', 'mergeItem', 'clear', 'multiSet', 'multiRemove', 'multiMerge'] as const;

/** AsyncStorage as the area `asyncStorage`. */
export function asyncStorageAdapter(store: AsyncStorageLike, name = 'asyncStorage'): StorageAdapter {
  return {
    name,
    keys: async () => {
      const keys = await store.getAllKeys();
      if (!store.multiGet) return keys;
      const out: { key: string; size: number }[] = [];
      for (let i = 0; i < keys.length; i += 100) {
        for (const [key, value] of await store.multiGet(keys.slice(i, i + 100))) {
          if (value !== null) out.push({ key, size: key.length + value.length });
        }
      }
      return out;
    },
    get: (key) => store.getItem(key),
    set: (key, value) => store.setItem(key, value),
    remove: (key) => store.removeItem(key),
    clear: store.clear && (() => store.clear!()),
    note: 'AsyncStorage: clearing it removes every key of the app, other libraries’ too',
    subscribe: (onChange) => {
      const target = store as unknown as Record<string, (...args: unknown[]) => unknown>;
      const undo: (() => void)[] = [];
      for (const method of ASYNC_WRITES) {
        const original = target[method];
        if (typeof original !== 'function') continue;
        const wrapped = function (this: unknown, ...args: unknown[]) {
          const result = original.apply(this, args);
          const first = args[0];
          // multiSet/multiMerge take [key, value] pairs, multiRemove keys; clear, nothing.
          if (typeof first === 'string') onChange(first);
          else if (Array.isArray(first)) for (const k of first) onChange(String(Array.isArray(k) ? k[0] : k));
          else onChange();
          return result;
        };
        try {
          target[method] = wrapped;
          undo.push(() => {
            if (target[method] === wrapped) target[method] = original;
          });
        } catch {
          // a frozen object: its writes are not followed live
        }
      }
      return () => {
        for (const u of undo) u();
      };
    },
  };
}

/** Reads a value as the app would, trying each type in turn (MMKV keeps no types: string first, as Rozenite does). */
function readMMKV(m: MMKVLike, key: string): unknown {
  if (m.contains && !m.contains(key)) return undefined;
  return m.getString(key) ?? m.getNumber?.(key) ?? m.getBoolean?.(key) ?? m.getBuffer?.(key);
}

/** An MMKV instance as the area `mmkv/<name>`. */
export function mmkvAdapter(option: MMKVOption, index: number): StorageAdapter {
  const m = option.instance;
  const name = option.name ?? (typeof m.id === 'string' && m.id ? m.id : index === 0 ? 'default' : String(index));
  const writable = m.isReadOnly !== true;
  return {
    name: `mmkv/${name}`,
    keys: () => m.getAllKeys(),
    get: (key) => readMMKV(m, key),
    ...(writable
      ? {
          // A number or boolean stays one when the new text reads as one.
          set: (key: string, value: string) => {
            const old = readMMKV(m, key);
            const n = Number(value);
            if (typeof old === 'number' && value.trim() !== '' && Number.isFinite(n)) m.set(key, n);
            else if (typeof old === 'boolean' && (value === 'true' || value === 'false')) m.set(key, value === 'true');
            else m.set(key, value);
          },
          remove: (key: string) => (m.remove ? m.remove(key) : m.delete?.(key)),
          clear: () => m.clearAll(),
        }
      : {}),
    subscribe: (onChange) => {
      const listener = m.addOnValueChangedListener?.((key) => onChange(key));
      return () => listener?.remove();
    },
    secret: option.encrypted === true,
    note: [
      'MMKV keeps no types: a value is read as a string, else a number, a boolean, a buffer',
      option.encrypted
        ? 'encrypted (encryptionKey): read through the app’s instance, decrypted; AI agents get [redacted], the window shows the values'
        : '',
      writable ? '' : 'opened read-only by the app',
    ]
      .filter(Boolean)
      .join('; '),
  };
}
