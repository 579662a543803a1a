import type { TransactionSummary } from '../protocol.js';

/** A load's header row in the table: the app's page load or process start the requests below were sent in. */
export interface LoadRow {
  kind: 'load';
  /** `load:N`, never a transaction's id. */
  id: string;
  load: number;
  /** Requests of this load that pass the filter, shown or not. */
  requests: number;
  /** When its first shown request started. */
  startedAt: number;
  open: boolean;
  /** The app's current load. */
  latest: boolean;
}

export type TableRow = TransactionSummary | LoadRow;

export function isLoadRow(row: TableRow): row is LoadRow {
  return (row as LoadRow).kind === 'load';
}

export const loadRowId = (load: number) => `load:${load}`;

/** The app's current load: the session's, or the newest a request carries. */
export function latestLoad(sessionLoad: number | undefined, rows: readonly TransactionSummary[]): number | undefined {
  if (sessionLoad !== undefined) return sessionLoad;
  let latest: number | undefined;
  for (const r of rows) if (r.load !== undefined && (latest === undefined || r.load > latest)) latest = r.load;
  return latest;
}

/** Without Preserve log: only the current load's requests (and those that say no load: a HAR, an older agent). */
export function currentLoadOnly(rows: TransactionSummary[], latest: number | undefined): TransactionSummary[] {
  if (latest === undefined) return rows;
  return rows.filter((r) => r.load === undefined || r.load >= latest);
}

/**
 * The table's rows with the loads as boundaries (DevTools' "preserve log"): once the rows span more
 * than one load, each load's requests come under a header row, in load order (each load's rows in
 * the table's order), the current load open and older ones closed unless the person chose
 * (`opened`, by load). Requests that say no load come first, without a header.
 */
export function withLoads(
  rows: readonly TransactionSummary[],
  latest: number | undefined,
  opened: ReadonlyMap<number, boolean>,
): readonly TableRow[] {
  const buckets = new Map<number | undefined, TransactionSummary[]>();
  for (const r of rows) {
    const bucket = buckets.get(r.load);
    if (bucket) bucket.push(r);
    else buckets.set(r.load, [r]);
  }
  const loads = [...buckets.keys()].filter((l): l is number => l !== undefined).sort((a, b) => a - b);
  if (loads.length < 2) return rows;
  const out: TableRow[] = [...(buckets.get(undefined) ?? [])];
  const newest = latest ?? loads.at(-1)!;
  for (const load of loads) {
    const bucket = buckets.get(load)!;
    const open = opened.get(load) ?? load >= newest;
    let startedAt = bucket[0]!.startedAt;
    for (const r of bucket) startedAt = Math.min(startedAt, r.startedAt);
    out.push({
      kind: 'load',
      id: loadRowId(load),
      load,
      requests: bucket.length,
      startedAt,
      open,
      latest: load === newest,
    });
    if (open) for (const r of bucket) out.push(r);
  }
  return out;
}

/** How many requests the rows stand for: shown ones and those under closed headers. */
export function requestCount(rows: readonly TableRow[]): number {
  let n = 0;
  for (const r of rows) n += isLoadRow(r) ? (r.open ? 0 : r.requests) : 1;
  return n;
}
