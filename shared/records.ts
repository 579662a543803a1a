/** Records dropped to stay within a byte budget: how many and their estimated size. */
export interface Dropped {
  count: number;
  bytes: number;
}

export interface RecordStoreOptions<T> {
  /** Estimated bytes one record holds (default: estimateBytes). Measured on set() and remeasure(). */
  sizeOf?: (value: T) => number;
  /** This store's own byte budget (default: the whole global budget). */
  maxBytes?: number;
  /** Most records kept (default: no count bound). */
  maxCount?: number;
  /** Records went, oldest first: over this store's bounds or the global budget. Not called for delete/clear. */
  onDrop?: (values: T[], dropped: Dropped, keys: string[]) => void;
  /**
   * Keep the records (JSON values) across inspector restarts, with the session: the store opens
   * with what the last run had (a kill loses about the last second of changes).
   */
  persist?: boolean;
}

/**
 * Records in insertion order, oldest first, under a byte budget of their own and the inspector's
 * global one: past either the oldest go first (globally the oldest of all stores) and are counted.
 */
export interface RecordStore<T> {
  readonly size: number;
  /** Estimated bytes held now. */
  readonly bytes: number;
  /** Dropped over this store's lifetime. */
  readonly dropped: Dropped;
  get(key: string): T | undefined;
  has(key: string): boolean;
  /** Adds as the newest record, or replaces the value in place (its age is kept); then enforces the budgets. */
  set(key: string, value: T): void;
  /** The value was changed in place: measure it again and enforce the budgets. */
  remeasure(key: string): void;
  /** Removes a record (not counted as dropped). */
  delete(key: string): boolean;
  /** Removes a record to stay within a bound of the owner's own: counted as dropped, and onDrop is told. */
  drop(key: string): boolean;
  /** Oldest first. */
  values(): IterableIterator<T>;
  /** Keys and values, oldest first. */
  entries(): IterableIterator<[string, T]>;
  /** Removes everything (not counted as dropped); returns how many records went. */
  clear(): number;
  /** Releases the store from the budget; it is empty and unusable afterwards. */
  close(): void;
}

/** What a plugin gets as `ctx.records`: stores under the inspector's global byte budget, closed with the session. */
export interface RecordsApi {
  open<T>(name: string, options?: RecordStoreOptions<T>): RecordStore<T>;
}

export interface BudgetStats {
  maxBytes: number;
  usedBytes: number;
  records: number;
  dropped: Dropped;
  /** Per store name: bytes held and dropped. */
  stores: Record<string, { bytes: number; records: number; dropped: Dropped }>;
}

/** A record, linked oldest to newest in its store and across all stores (finding the oldest is O(1)). */
interface Entry<T> {
  key: string;
  value: T;
  bytes: number;
  store: StoreImpl<T>;
  older: Entry<T> | undefined;
  newer: Entry<T> | undefined;
  globalOlder: Entry<unknown> | undefined;
  globalNewer: Entry<unknown> | undefined;
}

/** The largest default budget; `defaultMemoryBudgetBytes` sizes it to the machine. */
export const DEFAULT_MEMORY_BUDGET_BYTES = 512 * 1024 * 1024;

/**
 * What keeping a record costs beyond its value, counted with every record: the budget's own entry
 * (its links), the stores' map slots and key, the owner's index. Small records cost mostly this.
 */
export const RECORD_OVERHEAD_BYTES = 256;

/**
 * The default global budget for a machine: at most 512 MiB, at most 1/16 of its memory and 1/4 of
 * the JavaScript heap's limit, at least 64 MiB. A full budget costs one to three times itself in
 * resident memory (bench/scenarios/memory-per-byte.ts; docs/data-dir.md): far from either bound.
 */
export function defaultMemoryBudgetBytes(machine: { totalMemoryBytes: number; heapLimitBytes: number }): number {
  const bound = Math.min(DEFAULT_MEMORY_BUDGET_BYTES, machine.totalMemoryBytes / 16, machine.heapLimitBytes / 4);
  return Math.max(64 * 1024 * 1024, Math.floor(bound / (1024 * 1024)) * 1024 * 1024);
}

/** The inspector's global byte budget over every record store the link feeds. */
export class MemoryBudget {
  private oldest: Entry<unknown> | undefined;
  private newest: Entry<unknown> | undefined;
  private readonly stores = new Set<StoreImpl<unknown>>();
  usedBytes = 0;
  readonly dropped: Dropped = { count: 0, bytes: 0 };

  constructor(
    readonly maxBytes = DEFAULT_MEMORY_BUDGET_BYTES,
    /** Counted with every record beside its value's size (0: values only, as some tests want). */
    readonly recordOverheadBytes = RECORD_OVERHEAD_BYTES,
  ) {}

  open<T>(name: string, options: RecordStoreOptions<T> = {}): RecordStore<T> {
    const store = new StoreImpl<T>(this, name, options);
    this.stores.add(store as StoreImpl<unknown>);
    return store;
  }

  /** A view for one owner (a plugin instance): `closeAll()` releases every store it opened. */
  scope(prefix: string): RecordsApi & { closeAll(): void } {
    const opened = new Set<RecordStore<unknown>>();
    return {
      open: <T>(name: string, options?: RecordStoreOptions<T>) => {
        const store = this.open<T>(`${prefix}${name}`, options);
        opened.add(store as RecordStore<unknown>);
        return store;
      },
      closeAll: () => {
        for (const store of opened) store.close();
        opened.clear();
      },
    };
  }

  stats(): BudgetStats {
    const stores: BudgetStats['stores'] = {};
    let records = 0;
    for (const store of this.stores) {
      const s = (stores[store.name] ??= { bytes: 0, records: 0, dropped: { count: 0, bytes: 0 } });
      s.bytes += store.bytes;
      s.records += store.size;
      s.dropped.count += store.dropped.count;
      s.dropped.bytes += store.dropped.bytes;
      records += store.size;
    }
    return { maxBytes: this.maxBytes, usedBytes: this.usedBytes, records, dropped: { ...this.dropped }, stores };
  }

  /** @internal Links a new record as the newest of all. */
  link(entry: Entry<unknown>): void {
    entry.globalOlder = this.newest;
    if (this.newest) this.newest.globalNewer = entry;
    else this.oldest = entry;
    this.newest = entry;
  }

  /** @internal */
  forget(entry: Entry<unknown>): void {
    if (entry.globalOlder) entry.globalOlder.globalNewer = entry.globalNewer;
    else this.oldest = entry.globalNewer;
    if (entry.globalNewer) entry.globalNewer.globalOlder = entry.globalOlder;
    else this.newest = entry.globalOlder;
    entry.globalOlder = entry.globalNewer = undefined;
    this.usedBytes -= entry.bytes;
  }

  /** @internal */
  release(store: StoreImpl<unknown>): void {
    this.stores.delete(store);
  }

  /** @internal Drops the globally oldest records (never `keep`) until the global budget holds. */
  enforce(keep: Entry<unknown> | undefined, drops: Map<StoreImpl<unknown>, Entry<unknown>[]>): void {
    let entry = this.oldest;
    while (entry && this.usedBytes > this.maxBytes) {
      const next = entry.globalNewer;
      if (entry !== keep) entry.store.evict(entry, drops);
      entry = next;
    }
  }
}

class StoreImpl<T> implements RecordStore<T> {
  private readonly byKey = new Map<string, Entry<T>>();
  private oldest: Entry<T> | undefined;
  private newest: Entry<T> | undefined;
  private readonly sizeOf: (value: T) => number;
  bytes = 0;
  readonly dropped: Dropped = { count: 0, bytes: 0 };
  private closed = false;

  constructor(
    private readonly budget: MemoryBudget,
    readonly name: string,
    private readonly options: RecordStoreOptions<T>,
  ) {
    this.sizeOf = options.sizeOf ?? estimateBytes;
  }

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): T | undefined {
    return this.byKey.get(key)?.value;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  set(key: string, value: T): void {
    if (this.closed) return;
    const existing = this.byKey.get(key);
    if (existing) {
      existing.value = value;
      this.measure(existing);
      return;
    }
    const entry: Entry<T> = {
      key,
      value,
      bytes: 0,
      store: this,
      older: this.newest,
      newer: undefined,
      globalOlder: undefined,
      globalNewer: undefined,
    };
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
    this.budget.link(entry as Entry<unknown>);
    this.byKey.set(key, entry);
    this.measure(entry);
  }

  remeasure(key: string): void {
    const entry = this.byKey.get(key);
    if (entry) this.measure(entry);
  }

  delete(key: string): boolean {
    const entry = this.byKey.get(key);
    if (!entry) return false;
    this.unlink(entry);
    return true;
  }

  drop(key: string): boolean {
    const entry = this.byKey.get(key);
    if (!entry) return false;
    const drops = new Map<StoreImpl<unknown>, Entry<unknown>[]>();
    this.evict(entry as Entry<unknown>, drops);
    this.notify(drops.get(this as StoreImpl<unknown>) ?? []);
    return true;
  }

  values(): IterableIterator<T> {
    const entries = this.byKey.values();
    return (function* () {
      for (const entry of entries) yield entry.value;
    })();
  }

  entries(): IterableIterator<[string, T]> {
    const entries = this.byKey.values();
    return (function* (): Generator<[string, T]> {
      for (const entry of entries) yield [entry.key, entry.value];
    })();
  }

  clear(): number {
    const n = this.byKey.size;
    for (const entry of [...this.byKey.values()]) this.unlink(entry);
    return n;
  }

  close(): void {
    this.clear();
    this.closed = true;
    this.budget.release(this as StoreImpl<unknown>);
  }

  /** @internal */
  evict(entry: Entry<unknown>, drops: Map<StoreImpl<unknown>, Entry<unknown>[]>): void {
    this.unlink(entry as Entry<T>);
    this.dropped.count++;
    this.dropped.bytes += entry.bytes;
    this.budget.dropped.count++;
    this.budget.dropped.bytes += entry.bytes;
    const list = drops.get(this as StoreImpl<unknown>);
    if (list) list.push(entry);
    else drops.set(this as StoreImpl<unknown>, [entry]);
  }

  private measure(entry: Entry<T>): void {
    const bytes = Math.max(0, Math.ceil(this.sizeOf(entry.value))) + this.budget.recordOverheadBytes;
    this.bytes += bytes - entry.bytes;
    this.budget.usedBytes += bytes - entry.bytes;
    entry.bytes = bytes;
    const drops = new Map<StoreImpl<unknown>, Entry<unknown>[]>();
    const maxBytes = this.options.maxBytes ?? Number.POSITIVE_INFINITY;
    const maxCount = this.options.maxCount ?? Number.POSITIVE_INFINITY;
    let oldest = this.oldest;
    while (oldest && (this.bytes > maxBytes || this.byKey.size > maxCount)) {
      const next = oldest.newer;
      if (oldest !== entry) this.evict(oldest as Entry<unknown>, drops);
      oldest = next;
    }
    this.budget.enforce(entry as Entry<unknown>, drops);
    for (const [store, entries] of drops) store.notify(entries);
  }

  /** @internal */
  notify(entries: Entry<unknown>[]): void {
    const dropped = { count: entries.length, bytes: entries.reduce((n, e) => n + e.bytes, 0) };
    this.options.onDrop?.(
      entries.map((e) => e.value as T),
      dropped,
      entries.map((e) => e.key),
    );
  }

  private unlink(entry: Entry<T>): void {
    this.byKey.delete(entry.key);
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    entry.older = entry.newer = undefined;
    this.bytes -= entry.bytes;
    this.budget.forget(entry as Entry<unknown>);
  }
}

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

/** A budget of its own, for stores used outside an inspector (tests, tools run standalone). */
export function standaloneRecords(maxBytes = Number.POSITIVE_INFINITY): RecordsApi {
  return new MemoryBudget(maxBytes);
}
