import { z } from 'zod';

// One timeline per session across its plugins (DESIGN.md, Renderer): requests, console messages,
// page loads, agent actions, state actions. Nothing is stored twice: each plugin answers for what it
// keeps (`HostPluginInstance.timeline`), the core adds the session's loads and merges them by time.

export const TimelineLevelSchema = z.enum(['debug', 'info', 'warn', 'error']);
export type TimelineLevel = z.infer<typeof TimelineLevelSchema>;

export const TimelineEntrySchema = z.object({
  /** When it began, ms since the epoch (the app's clock for what the app reported). */
  time: z.number(),
  /** When it ended, for what lasts (a request); absent while it is still going or for instants. */
  end: z.number().optional(),
  /** Still going (a request without its answer yet). */
  pending: z.boolean().optional(),
  /** The plugin that saw it (`inspector` for the core's own: page loads). */
  plugin: z.string(),
  /** What it is within its plugin: `request`, `message`, `load`, `action`, … */
  kind: z.string(),
  level: TimelineLevelSchema.optional(),
  /** The plugin's own id for it (a transaction id, a console seq, a load's number): its detail tool takes it. */
  ref: z.string(),
  /** One line, at most 300 characters. */
  summary: z.string(),
});
export type TimelineEntry = z.infer<typeof TimelineEntrySchema>;

export interface TimelineQuery {
  /** Entries that began at or after this time (ms since the epoch). */
  since?: number;
  /** Entries that began at or before this time. */
  until?: number;
  /** Only these plugins' entries. */
  plugins?: readonly string[];
  /** Only entries at this level or above (entries without a level count as info). */
  minLevel?: TimelineLevel;
  /** At most this many, the oldest first. */
  limit: number;
}

export interface TimelinePage {
  entries: TimelineEntry[];
  /** Entries in the range past `limit`. */
  more: number;
}

const RANK: Record<TimelineLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** True when `entry` passes the query's level and time bounds (plugins filter by themselves). */
export function inTimelineRange(entry: TimelineEntry, query: TimelineQuery): boolean {
  if (query.since !== undefined && entry.time < query.since) return false;
  if (query.until !== undefined && entry.time > query.until) return false;
  return !query.minLevel || RANK[entry.level ?? 'info'] >= RANK[query.minLevel];
}

/** One line for the timeline: whitespace folded, at most 300 characters. */
export function timelineSummary(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** Merges the plugins' pages (each oldest first) into one, oldest first, at most `limit`. */
export function mergeTimeline(pages: readonly TimelinePage[], limit: number): TimelinePage {
  const all = pages.flatMap((p) => p.entries).sort((a, b) => a.time - b.time);
  const more = pages.reduce((n, p) => n + p.more, 0);
  return { entries: all.slice(0, limit), more: more + Math.max(0, all.length - limit) };
}

/**
 * A page of a plugin's own entries from records kept oldest first: `entryOf` turns a record into an
 * entry (undefined: not on the timeline). Scans back from the newest while records are in range.
 */
export function timelinePage<T>(
  records: readonly T[],
  timeOf: (record: T) => number,
  entryOf: (record: T) => TimelineEntry | undefined,
  query: TimelineQuery,
): TimelinePage {
  let start = records.length;
  while (start > 0 && (query.since === undefined || timeOf(records[start - 1] as T) >= query.since)) start--;
  const entries: TimelineEntry[] = [];
  let more = 0;
  for (let i = start; i < records.length; i++) {
    const record = records[i] as T;
    if (query.until !== undefined && timeOf(record) > query.until) break;
    const entry = entryOf(record);
    if (!entry || !inTimelineRange(entry, query)) continue;
    if (entries.length < query.limit) entries.push(entry);
    else more++;
  }
  return { entries, more };
}
