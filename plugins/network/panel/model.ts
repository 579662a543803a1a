import type { TransactionSummary } from '../protocol.js';
import type { Query, Row } from './query.js';

/** How the table orders its rows; `key` names the order for the cache. */
export interface RowOrder {
  key: string;
  compare(a: TransactionSummary, b: TransactionSummary): number;
}

/** What the table shows: the rows the query lets through, optionally only search hits, in an order. */
export interface RowView {
  query: Query;
  /** Ids a body/header search found; absent when no search is active. */
  hits?: ReadonlySet<string>;
  order?: RowOrder;
}

/**
 * A session's transaction summaries in the window, in arrival order, sized for 100,000 rows:
 * upserts by id, drops from the oldest end, and a filtered view computed once per (change, view).
 */
export class TransactionModel {
  private rows: Row[] = [];
  /** id → absolute position; the row sits at `position - base`. */
  private readonly positions = new Map<string, number>();
  private base = 0;
  private listeners = new Set<() => void>();
  private cache: { version: number; view: RowView; rows: TransactionSummary[] } | undefined;
  /** Raised on every change; React reads it with useSyncExternalStore. */
  version = 0;

  get size(): number {
    return this.rows.length;
  }

  /** Every row with its lowercased URL, in arrival order (what the query runs over). */
  entries(): readonly Row[] {
    return this.rows;
  }

  all(): TransactionSummary[] {
    return this.rows.map((r) => r.tx);
  }

  get(id: string): TransactionSummary | undefined {
    const at = this.positions.get(id);
    return at === undefined ? undefined : this.rows[at - this.base]?.tx;
  }

  /** Adds new transactions at the end and replaces known ones in place. */
  upsert(list: readonly TransactionSummary[]): void {
    if (list.length === 0) return;
    for (const tx of list) {
      const at = this.positions.get(tx.id);
      const row = { tx, lowerUrl: tx.url.toLowerCase() };
      if (at !== undefined) this.rows[at - this.base] = row;
      else {
        this.positions.set(tx.id, this.base + this.rows.length);
        this.rows.push(row);
      }
    }
    this.changed();
  }

  /** The host dropped its `count` oldest transactions to stay within bounds. */
  dropOldest(count: number): void {
    const n = Math.min(count, this.rows.length);
    if (n <= 0) return;
    for (const row of this.rows.slice(0, n)) this.positions.delete(row.tx.id);
    this.rows.splice(0, n);
    this.base += n;
    this.changed();
  }

  clear(): void {
    this.rows = [];
    this.positions.clear();
    this.base = 0;
    this.changed();
  }

  /** The rows the view lets through, in its order; the same array until the data or the view changes. */
  filtered(view: RowView): TransactionSummary[] {
    const c = this.cache;
    if (
      c &&
      c.version === this.version &&
      c.view.query.source === view.query.source &&
      c.view.hits === view.hits &&
      c.view.order?.key === view.order?.key
    )
      return c.rows;
    const { matches } = view.query;
    const hits = view.hits;
    const out: TransactionSummary[] = [];
    for (const row of this.rows) {
      if (hits && !hits.has(row.tx.id)) continue;
      if (matches(row)) out.push(row.tx);
    }
    if (view.order) out.sort(view.order.compare);
    this.cache = { version: this.version, view, rows: out };
    return out;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  private changed(): void {
    this.version++;
    for (const listener of this.listeners) listener();
  }
}
