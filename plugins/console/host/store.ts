import { estimateBytes, type RecordStore, type RecordsApi, standaloneRecords } from '../../../shared/records.js';
import { textFilterRegex } from '../../../shared/safe-regex.js';
import { timeSlices } from '../../../shared/time-slice.js';
import {
  type AgentMessage,
  type ErrorGroup,
  type Kind,
  type Level,
  levelOf,
  type Message,
  type MessageFilter,
  type MessageSummary,
  type Source,
  type StackFrame,
  type Stats,
  sourceOf,
  TEXT_REGEX_HINT,
} from '../protocol.js';
import { messageText } from './format.js';
import { frameSite, parseStack } from './stack.js';

/** One stored message; repeats of it (identical, consecutive) raise `count` and move `lastSeq`. */
export interface Entry {
  /** Seq of the first occurrence: the message's id. */
  seq: number;
  /** Seq of the latest occurrence; `since` filters compare against it. */
  lastSeq: number;
  time: number;
  firstTime: number;
  level: Level;
  kind: Kind;
  text: string;
  args: unknown[];
  label?: string;
  value?: number;
  fatal?: boolean;
  stackText?: string;
  stack?: StackFrame[];
  callSite?: StackFrame;
  count: number;
  group: number;
  bytes: number;
  errorKey?: string;
}

export interface StoreLimits {
  /** Bytes of arguments, text and stacks kept; the oldest messages go first. Default 32 MiB. */
  maxBytes: number;
  maxMessages: number;
  /** Distinct error groups kept. */
  maxErrorGroups: number;
}

export const DEFAULT_STORE_LIMITS: StoreLimits = {
  maxBytes: 32 * 1024 * 1024,
  maxMessages: 100_000,
  maxErrorGroups: 2000,
};

export class CursorError extends Error {}

interface Group {
  key: string;
  text: string;
  kind: Kind;
  entrySeq: number;
  firstSeen: number;
  lastSeen: number;
  totalCount: number;
  /** Seqs of the newest occurrences, for `since` counts. */
  seqs: number[];
}

const MAX_GROUP_SEQS = 10_000;
const FULL_STACK_KINDS = new Set<Kind>(['warn', 'error', 'trace', 'assert']);
const SUMMARY_TEXT = 300;

/**
 * A session's console: messages in arrival order, bounded by bytes and count (oldest dropped and
 * counted), consecutive repeats stored once with a count, errors grouped by text and top frame.
 */
export class ConsoleStore {
  private entries: Entry[] = [];
  private head = 0;
  private bytes = 0;
  private nextSeq = 1;
  private depth = 0;
  private readonly groups = new Map<string, Group>();
  private counters = { evicted: 0, droppedByApp: 0, errors: 0, warnings: 0, refused: 0 };
  private lastRefusal: string | undefined;
  /** What the newest entry would repeat on (only it can be repeated): kept once, not per entry. */
  private lastRepeatKey: string | undefined;
  /**
   * The entries again as records under the inspector's global byte budget (the budget may drop the
   * oldest to make room for any session), kept across restarts with the session.
   */
  private readonly records: RecordStore<Entry>;

  constructor(
    private readonly limits: StoreLimits = DEFAULT_STORE_LIMITS,
    records: RecordsApi = standaloneRecords(),
  ) {
    this.records = records.open<Entry>('messages', {
      sizeOf: (e) => e.bytes,
      onDrop: (dropped) => this.dropOldest(new Set(dropped)),
      persist: true,
    });
    this.restore();
  }

  /** Rebuilds the entries, counts and error groups from the records the last run kept. */
  private restore(): void {
    for (const entry of this.records.values()) {
      this.entries.push(entry);
      this.bytes += entry.bytes;
      this.nextSeq = Math.max(this.nextSeq, entry.lastSeq + 1);
      if (entry.level === 'error') this.counters.errors += entry.count;
      if (entry.level === 'warn') this.counters.warnings += entry.count;
      this.noteError(entry, entry.lastSeq, entry.time);
    }
    this.counters.evicted = this.records.dropped.count;
  }

  /** An entry was changed in place (its frames were mapped): kept so across restarts too. */
  touched(entry: Entry): void {
    if (this.records.has(String(entry.seq))) this.records.remeasure(String(entry.seq));
  }

  /** The budget dropped these (always the oldest): they leave the front. */
  private dropOldest(dropped: Set<Entry>): void {
    while (this.head < this.entries.length && dropped.has(this.entries[this.head]!)) {
      const e = this.entries[this.head++]!;
      this.bytes -= e.bytes;
      this.counters.evicted += e.count;
    }
  }

  get latest(): number {
    return this.nextSeq - 1;
  }

  get size(): number {
    return this.entries.length - this.head;
  }

  /** Stores one message from the app; answers the entry, and whether it was a repeat of the last one. */
  add(m: AgentMessage): { entry: Entry; repeat: boolean } | undefined {
    if (m.kind === 'groupEnd') {
      this.depth = Math.max(0, this.depth - 1);
      return undefined;
    }
    const seq = this.nextSeq++;
    const args = m.args as unknown[];
    const argsJson = JSON.stringify(args);
    const text = messageText(m);
    const shownStack = m.stack ?? (FULL_STACK_KINDS.has(m.kind) ? m.callStack : undefined);
    const stack = shownStack ? parseStack(shownStack) : undefined;
    const location = m.location
      ? { file: m.location.url, line: m.location.line, column: m.location.column }
      : undefined;
    const callSite: StackFrame | undefined =
      (m.site && typeof m.site === 'object' ? { ...m.site } : undefined) ??
      parseStack(m.callStack, 1)[0] ??
      stack?.[0] ??
      location;
    let level = levelOf(m.kind);
    if ((m.kind === 'timeEnd' || m.kind === 'timeLog') && m.value === undefined) level = 'warn';
    const site = callSite ? frameSite(callSite) : '';
    const repeatKey = `${m.kind}\u0000${site}\u0000${text}\u0000${argsJson}\u0000${m.stack ?? ''}`;
    if (level === 'error') this.counters.errors++;
    if (level === 'warn') this.counters.warnings++;

    const last = this.entries[this.entries.length - 1];
    if (last && this.size > 0 && this.lastRepeatKey === repeatKey && last.group === this.depth) {
      last.count++;
      last.lastSeq = seq;
      last.time = m.time;
      this.noteError(last, seq, m.time);
      this.records.remeasure(String(last.seq));
      return { entry: last, repeat: true };
    }
    const entry: Entry = {
      seq,
      lastSeq: seq,
      time: m.time,
      firstTime: m.time,
      level,
      kind: m.kind,
      text,
      args,
      count: 1,
      group: this.depth,
      bytes: 0,
    };
    if (m.label !== undefined) entry.label = m.label;
    if (m.value !== undefined) entry.value = m.value;
    if (m.fatal) entry.fatal = true;
    if (shownStack) entry.stackText = shownStack;
    if (stack && stack.length > 0) entry.stack = stack;
    if (callSite) entry.callSite = callSite;
    if (level === 'error' || level === 'warn')
      entry.errorKey = `${text.split('\n', 1)[0]!.slice(0, 300)}\u0000${stack?.[0] ? frameSite(stack[0]) : site}`;
    if (m.kind === 'group' || m.kind === 'groupCollapsed') this.depth = Math.min(this.depth + 1, 100);
    entry.bytes = estimateBytes(entry); // what it holds in memory, as the budget counts records
    this.lastRepeatKey = repeatKey;
    this.entries.push(entry);
    this.bytes += entry.bytes;
    this.noteError(entry, seq, m.time);
    this.records.set(String(entry.seq), entry);
    this.evict();
    return { entry, repeat: false };
  }

  /** A marker the host adds, e.g. when the app (re)connects; ends any open console.group. */
  mark(kind: 'connected', text: string, time = Date.now()): Entry {
    this.depth = 0;
    const seq = this.nextSeq++;
    const entry: Entry = {
      seq,
      lastSeq: seq,
      time,
      firstTime: time,
      level: 'info',
      kind,
      text,
      args: [],
      count: 1,
      group: 0,
      bytes: 0,
    };
    entry.bytes = estimateBytes(entry); // what it holds in memory, as the budget counts records
    this.lastRepeatKey = undefined;
    this.entries.push(entry);
    this.bytes += entry.bytes;
    this.records.set(String(entry.seq), entry);
    this.evict();
    return entry;
  }

  refused(why: string): void {
    this.counters.refused++;
    this.lastRefusal = why.slice(0, 500);
  }

  droppedByApp(n: number): void {
    this.counters.droppedByApp += n;
  }

  stats(): Stats {
    const stats: Stats = { stored: this.size, bytes: this.bytes, ...this.counters };
    if (this.lastRefusal) stats.lastRefusal = this.lastRefusal;
    return stats;
  }

  /** The entry whose occurrences include `seq`. */
  get(seq: number): Entry | undefined {
    let lo = this.head;
    let hi = this.entries.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const e = this.entries[mid]!;
      if (seq < e.seq) hi = mid - 1;
      else if (seq > e.lastSeq) lo = mid + 1;
      else return e;
    }
    return undefined;
  }

  /** Entries after `afterSeq` (by latest occurrence), oldest first, at most `limit`. */
  after(afterSeq: number, limit: number): { entries: Entry[]; hasMore: boolean } {
    const out: Entry[] = [];
    let i = this.entries.length;
    while (i > this.head && this.entries[i - 1]!.lastSeq > afterSeq) i--;
    for (; i < this.entries.length && out.length < limit; i++) out.push(this.entries[i]!);
    return { entries: out, hasMore: i < this.entries.length };
  }

  /**
   * A page of matching entries, oldest first. Without a cursor: the newest `limit` (after `since`, the
   * oldest `limit` after it). Cursors `o<seq>` (older than) and `n<seq>` (newer than) continue. The
   * messages stored when it began are looked at, giving the event loop a turn every few ms.
   */
  async page(filter: MessageFilter, limit: number, cursor?: string) {
    const match = matcher(filter);
    let direction: 'older' | 'newer' = filter.since !== undefined ? 'newer' : 'older';
    let bound = direction === 'newer' ? (filter.since ?? 0) : Number.POSITIVE_INFINITY;
    if (cursor) {
      const m = /^([on])(\d+)$/.exec(cursor);
      if (!m)
        throw new CursorError(`invalid cursor "${cursor}": pass the olderCursor or newerCursor of a previous answer`);
      direction = m[1] === 'o' ? 'older' : 'newer';
      bound = Number(m[2]);
    }
    const found: Entry[] = [];
    let remaining = 0;
    const entries = this.entries.slice(this.head);
    if (direction === 'older') entries.reverse();
    const pause = timeSlices();
    for (const e of entries) {
      const turn = pause();
      if (turn) await turn;
      if (direction === 'older' ? e.seq >= bound : e.lastSeq <= bound) continue;
      if (!match(e)) continue;
      if (found.length < limit) found.push(e);
      else remaining++;
    }
    if (direction === 'older') found.reverse();
    const first = found[0];
    const last = found[found.length - 1];
    return {
      entries: found,
      messages: found.map(summarize),
      latest: this.latest,
      remaining,
      ...(direction === 'older' && remaining > 0 && first ? { olderCursor: `o${first.seq}` } : {}),
      ...(direction === 'newer' && remaining > 0 && last ? { newerCursor: `n${last.lastSeq}` } : {}),
    };
  }

  /** Error groups, most recent first; with `since`, only groups that occurred after it, counted after it. */
  errors(since: number | undefined, limit: number, levels: readonly Level[] = ['error']) {
    const out: ErrorGroup[] = [];
    const entries: Entry[] = [];
    const sorted = [...this.groups.values()].sort((a, b) => b.seqs[b.seqs.length - 1]! - a.seqs[a.seqs.length - 1]!);
    let remaining = 0;
    for (const g of sorted) {
      const entry = this.get(g.entrySeq);
      if (entry && !levels.includes(entry.level)) continue;
      const lastSeq = g.seqs[g.seqs.length - 1]!;
      if (since !== undefined && lastSeq <= since) continue;
      if (out.length >= limit) {
        remaining++;
        continue;
      }
      const count = since === undefined ? g.totalCount : countAfter(g.seqs, since);
      const site = entry ? siteOf(entry) : undefined;
      if (entry) entries.push(entry);
      out.push({
        text: g.text.length > SUMMARY_TEXT ? `${g.text.slice(0, SUMMARY_TEXT)}…` : g.text,
        ...(g.text.length > SUMMARY_TEXT ? { textTruncated: true } : {}),
        kind: g.kind,
        ...(site ? { site } : {}),
        count,
        totalCount: g.totalCount,
        firstSeen: g.firstSeen,
        lastSeen: g.lastSeen,
        lastSeq,
      });
    }
    return { groups: out, entries, latest: this.latest, remaining };
  }

  clear(): number {
    const n = this.size;
    this.records.clear();
    this.entries = [];
    this.head = 0;
    this.bytes = 0;
    this.depth = 0;
    this.groups.clear();
    this.counters = { evicted: 0, droppedByApp: 0, errors: 0, warnings: 0, refused: 0 };
    // A cleared console starts counting again, after a restart too.
    this.records.dropped.count = 0;
    this.records.dropped.bytes = 0;
    this.lastRefusal = undefined;
    this.lastRepeatKey = undefined;
    return n;
  }

  /** Every stored entry, oldest first (for the panel's first load). */
  all(): Entry[] {
    return this.entries.slice(this.head);
  }

  private noteError(entry: Entry, seq: number, time: number): void {
    if (!entry.errorKey) return;
    let g = this.groups.get(entry.errorKey);
    if (!g) {
      if (this.groups.size >= this.limits.maxErrorGroups) {
        const oldest = [...this.groups.values()].reduce((a, b) => (a.lastSeen <= b.lastSeen ? a : b));
        this.groups.delete(oldest.key);
      }
      g = {
        key: entry.errorKey,
        text: entry.text.split('\n', 1)[0]!.slice(0, 500),
        kind: entry.kind,
        entrySeq: entry.seq,
        firstSeen: time,
        lastSeen: time,
        totalCount: 0,
        seqs: [],
      };
      this.groups.set(g.key, g);
    }
    g.totalCount++;
    g.lastSeen = time;
    g.entrySeq = entry.seq;
    g.seqs.push(seq);
    if (g.seqs.length > MAX_GROUP_SEQS * 2) g.seqs = g.seqs.slice(-MAX_GROUP_SEQS);
  }

  private evict(): void {
    while (this.size > 1 && (this.bytes > this.limits.maxBytes || this.size > this.limits.maxMessages)) {
      // Counted as dropped, and taken off the front by dropOldest.
      const head = this.head;
      this.records.drop(String(this.entries[head]!.seq));
      if (this.head === head) break;
    }
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}

function countAfter(seqs: number[], since: number): number {
  let lo = 0;
  let hi = seqs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (seqs[mid]! <= since) lo = mid + 1;
    else hi = mid;
  }
  return seqs.length - lo;
}

/** Where the message happened: its call site, else its stack's top frame, in the original source when mapped. */
export function siteOf(e: Entry): string | undefined {
  const frame = e.callSite ?? e.stack?.[0];
  if (!frame) return undefined;
  return frameSite(frame.mapped ?? frame);
}

export function summarize(e: Entry): MessageSummary {
  const s: MessageSummary = {
    seq: e.seq,
    time: e.time,
    level: e.level,
    kind: e.kind,
    text: e.text.length > SUMMARY_TEXT ? `${e.text.slice(0, SUMMARY_TEXT)}…` : e.text,
    count: e.count,
  };
  if (e.text.length > SUMMARY_TEXT) s.textTruncated = true;
  if (e.count > 1) {
    s.firstTime = e.firstTime;
    s.lastSeq = e.lastSeq;
  }
  const site = siteOf(e);
  if (site) s.site = site;
  if (e.group > 0) s.group = e.group;
  if (e.stack) s.hasStack = true;
  return s;
}

export function fullMessage(e: Entry): Message {
  const m: Message = { ...summarize(e), text: e.text, args: e.args as Message['args'] };
  delete m.textTruncated;
  if (e.label !== undefined) m.label = e.label;
  if (e.value !== undefined) m.value = e.value;
  if (e.fatal) m.fatal = true;
  if (e.stack) m.stack = e.stack;
  if (e.stackText) m.stackText = e.stackText;
  if (e.callSite) m.callSite = e.callSite;
  return m;
}

function matcher(filter: MessageFilter): (e: Entry) => boolean {
  const levels = filter.level === undefined ? undefined : new Set<Level>([filter.level].flat());
  const sources = filter.source === undefined ? undefined : new Set<Source>([filter.source].flat());
  const text = textMatcher(filter.text);
  const since = filter.since;
  return (e) =>
    (!levels || levels.has(e.level)) &&
    (!sources || sources.has(sourceOf(e.kind))) &&
    (since === undefined || e.lastSeq > since) &&
    (!text || text(e.text));
}

/** The `text` filter: plain text ignoring case, or a `/regex/` run in linear time (RE2). */
export function textMatcher(text: string | undefined): ((s: string) => boolean) | undefined {
  if (!text) return undefined;
  const re = textFilterRegex(text, TEXT_REGEX_HINT);
  return (s) => re.test(s);
}
