import type { TransactionSummary } from '../protocol.js';

export type StatusClass = '' | '1xx' | '2xx' | '3xx' | '4xx' | '5xx' | 'pending';

/** The panel's filter bar. All parts combine with AND. */
export interface NetworkFilter {
  /** Case-insensitive, in the URL. */
  text: string;
  method: string;
  statusClass: StatusClass;
  failedOnly: boolean;
  mockedOnly: boolean;
}

export const NO_FILTER: NetworkFilter = { text: '', method: '', statusClass: '', failedOnly: false, mockedOnly: false };

export function isFiltering(f: NetworkFilter): boolean {
  return f.text !== '' || f.method !== '' || f.statusClass !== '' || f.failedOnly || f.mockedOnly;
}

/**
 * A session's transaction summaries in the window, in arrival order, sized for 100,000 rows:
 * upserts by id, drops from the oldest end, and a filtered view computed once per (change, filter).
 */
export class TransactionModel {
  private rows: TransactionSummary[] = [];
  private lowerUrls: string[] = [];
  /** id → absolute position; the row sits at `position - base`. */
  private readonly positions = new Map<string, number>();
  private base = 0;
  private listeners = new Set<() => void>();
  private cache: { version: number; key: string; rows: TransactionSummary[] } | undefined;
  /** Raised on every change; React reads it with useSyncExternalStore. */
  version = 0;

  get size(): number {
    return this.rows.length;
  }

  all(): readonly TransactionSummary[] {
    return this.rows;
  }

  get(id: string): TransactionSummary | undefined {
    const at = this.positions.get(id);
    return at === undefined ? undefined : this.rows[at - this.base];
  }

  /** Adds new transactions at the end and replaces known ones in place. */
  upsert(list: readonly TransactionSummary[]): void {
    if (list.length === 0) return;
    for (const tx of list) {
      const at = this.positions.get(tx.id);
      if (at !== undefined) {
        this.rows[at - this.base] = tx;
        this.lowerUrls[at - this.base] = tx.url.toLowerCase();
      } else {
        this.positions.set(tx.id, this.base + this.rows.length);
        this.rows.push(tx);
        this.lowerUrls.push(tx.url.toLowerCase());
      }
    }
    this.changed();
  }

  /** The host dropped its `count` oldest transactions to stay within bounds. */
  dropOldest(count: number): void {
    const n = Math.min(count, this.rows.length);
    if (n <= 0) return;
    for (const tx of this.rows.slice(0, n)) this.positions.delete(tx.id);
    this.rows.splice(0, n);
    this.lowerUrls.splice(0, n);
    this.base += n;
    this.changed();
  }

  clear(): void {
    this.rows = [];
    this.lowerUrls = [];
    this.positions.clear();
    this.base = 0;
    this.changed();
  }

  /** The rows the filter lets through, in arrival order; the same array until something changes. */
  filtered(filter: NetworkFilter): TransactionSummary[] {
    const key = JSON.stringify(filter);
    if (this.cache && this.cache.version === this.version && this.cache.key === key) return this.cache.rows;
    const rows = isFiltering(filter) ? this.apply(filter) : this.rows.slice();
    this.cache = { version: this.version, key, rows };
    return rows;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  private apply(f: NetworkFilter): TransactionSummary[] {
    const text = f.text.trim().toLowerCase();
    const method = f.method.toUpperCase();
    const [low, high] = statusRange(f.statusClass);
    const out: TransactionSummary[] = [];
    const { rows, lowerUrls } = this;
    for (let i = 0; i < rows.length; i++) {
      const tx = rows[i]!;
      if (text && !lowerUrls[i]!.includes(text)) continue;
      if (method && tx.method.toUpperCase() !== method) continue;
      if (f.statusClass === 'pending') {
        if (tx.state !== 'pending') continue;
      } else if (f.statusClass && (tx.status === undefined || tx.status < low || tx.status > high)) continue;
      if (f.failedOnly && tx.state !== 'failed') continue;
      if (f.mockedOnly && tx.mockRuleId === undefined) continue;
      out.push(tx);
    }
    return out;
  }

  private changed(): void {
    this.version++;
    for (const listener of this.listeners) listener();
  }
}

function statusRange(c: StatusClass): [number, number] {
  const digit = Number(c[0]);
  return Number.isInteger(digit) && digit > 0 ? [digit * 100, digit * 100 + 99] : [0, 999];
}
