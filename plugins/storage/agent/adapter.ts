/** A key of an adapter's store, with its value's size (bytes; text: its length) when the store knows it cheaply. */
export type AdapterKey = string | { key: string; size?: number };

/**
 * A store the plugin does not know (SQLite, a file store, a cache of the app's own), shown and edited
 * like the built-in areas: `storage({ adapters: [{ name: 'settings-db', keys, get, set, remove }] })`.
 * The built-in areas are adapters too (web storage, cookies, AsyncStorage, MMKV). Only `keys` and
 * `get` are needed; without `set`, `remove` or `clear` the inspector cannot do that and says so.
 * Every method may return a promise.
 */
export interface StorageAdapter {
  /** The area's name in the inspector (letters, digits, `_-.:/`): unique among the app's areas. */
  name: string;
  /** Every key (the inspector sorts and pages them). */
  keys(): readonly AdapterKey[] | Promise<readonly AdapterKey[]>;
  /** The value, or undefined (or null) when there is none: text is shown as text or JSON, other values as structures. */
  get(key: string): unknown;
  /** Writes a value given as text (the inspector's and the agent's edits). */
  set?(key: string, value: string): unknown;
  remove?(key: string): unknown;
  /** Removes every key. */
  clear?(): unknown;
  /** Calls `onChange(key)` when the store changes (no key: many keys); returns what stops it. */
  subscribe?(onChange: (key?: string) => void): () => void;
  /** What else a key has (a cookie's attributes, a row's columns), shown beside its value. */
  meta?(key: string): unknown;
  /** Shown beside the area (what it is, what it cannot do). */
  note?: string;
  /** The values are secrets (an encrypted store): AI agents get `[redacted]`, the window shows them. */
  secret?: boolean;
}
