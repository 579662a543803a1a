import type { TimelineEntry, TimelineLevel } from '../../shared/timeline.js';

/** The most entries a window keeps per session's timeline; the oldest go first. */
export const MAX_TIMELINE_ROWS = 100_000;
/** A request pending longer than this (a stream, a long poll) no longer holds the refresh window open. */
const PENDING_HORIZON_MS = 10 * 60_000;

export interface TimelineRow extends TimelineEntry {
  /** plugin, kind and ref: the same thing seen again (a request answered, a message repeated) replaces it. */
  key: string;
}

export interface TimelineFilter {
  /** Plugins whose entries are hidden. */
  hidden: ReadonlySet<string>;
  minLevel?: TimelineLevel;
  /** Case-insensitive text in the summary. */
  text: string;
}

const RANK: Record<TimelineLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export function rowKey(entry: Pick<TimelineEntry, 'plugin' | 'kind' | 'ref'>): string {
  return `${entry.plugin}\u0000${entry.kind}\u0000${entry.ref}`;
}

/**
 * A session's timeline as the window holds it: entries merged by key (the newer answer wins),
 * ordered by time, at most `max` (the oldest dropped). `rows` is a new array after each change.
 */
export class TimelineModel {
  private readonly byKey = new Map<string, TimelineRow>();
  private pending = new Set<string>();
  rows: readonly TimelineRow[] = [];
  /** Entries dropped as the oldest past `max`. */
  dropped = 0;

  constructor(private readonly max = MAX_TIMELINE_ROWS) {}

  get size(): number {
    return this.rows.length;
  }

  clear(): void {
    this.byKey.clear();
    this.pending.clear();
    this.rows = [];
    this.dropped = 0;
  }

  /** Adds or replaces entries; returns whether anything changed. */
  merge(entries: readonly TimelineEntry[]): boolean {
    if (entries.length === 0) return false;
    let replaced = false;
    let unordered = false;
    const added: TimelineRow[] = [];
    let last = this.rows.at(-1)?.time ?? Number.NEGATIVE_INFINITY;
    for (const entry of entries) {
      const key = rowKey(entry);
      const row: TimelineRow = { ...entry, key };
      if (this.byKey.has(key)) replaced = true;
      else {
        added.push(row);
        if (row.time < last) unordered = true;
        last = Math.max(last, row.time);
      }
      this.byKey.set(key, row);
      if (row.pending) this.pending.add(key);
      else this.pending.delete(key);
    }
    let rows: TimelineRow[];
    if (replaced) rows = this.rows.map((r) => this.byKey.get(r.key) ?? r).concat(added);
    else rows = this.rows.concat(added);
    // Nearly always in order already (one clock per app); a sort of a sorted array is linear.
    if (unordered) rows.sort((a, b) => a.time - b.time);
    const over = rows.length - this.max;
    if (over > 0) {
      for (const r of rows.slice(0, over)) {
        this.byKey.delete(r.key);
        this.pending.delete(r.key);
      }
      rows = rows.slice(over);
      this.dropped += over;
    }
    this.rows = rows;
    return true;
  }

  /**
   * Where a refresh starts: the newest entry's time, or the oldest recent one still pending (its
   * answer changes it). Undefined when empty (everything).
   */
  refreshSince(now = Date.now()): number | undefined {
    let since = this.rows.at(-1)?.time;
    if (since === undefined) return undefined;
    for (const key of this.pending) {
      const row = this.byKey.get(key);
      if (row && row.time < since && now - row.time < PENDING_HORIZON_MS) since = row.time;
    }
    return since;
  }

  /** Entries per plugin, for the filter's buttons. */
  countsByPlugin(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const r of this.rows) counts.set(r.plugin, (counts.get(r.plugin) ?? 0) + 1);
    return counts;
  }
}

/** The rows a filter keeps, in order. */
export function filterTimeline(rows: readonly TimelineRow[], filter: TimelineFilter): readonly TimelineRow[] {
  const text = filter.text.trim().toLowerCase();
  const min = filter.minLevel ? RANK[filter.minLevel] : 0;
  if (!text && min === 0 && filter.hidden.size === 0) return rows;
  return rows.filter(
    (r) =>
      !filter.hidden.has(r.plugin) &&
      RANK[r.level ?? 'info'] >= min &&
      (!text || r.summary.toLowerCase().includes(text)),
  );
}
