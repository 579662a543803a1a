import { textFilterRegex } from '../../../shared/safe-regex.js';
import { type ConsoleRow, type Level, type MessageSummary, regexProblem } from '../protocol.js';

export const MAX_ROWS = 100_000;

export interface ViewFilter {
  levels: ReadonlySet<Level>;
  /** Text the message contains (case-insensitive), or /regex/flags. */
  text: string;
  /** Keep the messages of earlier loads of the app (a page reload, a restart), each under its marker. */
  preserve: boolean;
  /**
   * Groups and loads opened or closed by the person (by seq); otherwise console.groupCollapsed
   * starts closed, and so does every load but the latest.
   */
  groups?: ReadonlyMap<number, boolean>;
}

/** The header of the messages logged before the first load marker (not a message of the app). */
export const EARLIER = -1;

/** A load's header in the list: how many of its messages pass the filter, and whether they are shown. */
export interface LoadHeader {
  messages: number;
  open: boolean;
}

export interface ConsoleView {
  rows: ConsoleRow[];
  /** The load headers among `rows`, by seq. */
  loads: ReadonlyMap<number, LoadHeader>;
}

/**
 * The load a marker row starts ("Load 3: http://…", which the host writes when the app reloads or
 * restarts), or undefined for any other row (a reconnection of the same load is no boundary).
 */
export function loadNumber(m: MessageSummary): number | undefined {
  if (m.kind !== 'connected') return undefined;
  const found = /^Load (\d+)\b/.exec(m.text);
  return found ? Number(found[1]) : undefined;
}

/** A console.group or console.groupCollapsed header. */
export function isGroup(m: MessageSummary): boolean {
  return m.kind === 'group' || m.kind === 'groupCollapsed';
}

/** Whether a group header shows its messages. */
export function groupOpen(m: MessageSummary, groups: ReadonlyMap<number, boolean> | undefined): boolean {
  return groups?.get(m.seq) ?? m.kind !== 'groupCollapsed';
}

/**
 * The panel's messages in order, kept by seq: a repeat or a newly mapped site replaces its row.
 * Bounded like the host's store (the oldest go first). `version` changes on every change.
 */
export class ConsoleModel {
  private rows: ConsoleRow[] = [];
  private readonly index = new Map<number, number>();
  private offset = 0;
  private version = 0;
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = () => this.version;

  upsert(messages: readonly ConsoleRow[]): void {
    if (messages.length === 0) return;
    for (const m of messages) {
      const at = this.index.get(m.seq);
      if (at !== undefined) this.rows[at - this.offset] = m;
      else {
        this.index.set(m.seq, this.rows.length + this.offset);
        this.rows.push(m);
      }
    }
    const over = this.rows.length - MAX_ROWS;
    if (over > 0) {
      for (const gone of this.rows.splice(0, over)) this.index.delete(gone.seq);
      this.offset += over;
    }
    this.changed();
  }

  clear(): void {
    this.rows = [];
    this.index.clear();
    this.offset = 0;
    this.changed();
  }

  all(): readonly ConsoleRow[] {
    return this.rows;
  }

  get(seq: number): ConsoleRow | undefined {
    const at = this.index.get(seq);
    return at === undefined ? undefined : this.rows[at - this.offset];
  }

  /**
   * The rows the filter shows, without the messages of closed groups and closed loads. With
   * Preserve log every load starts with its marker, a header that opens and closes (the latest is
   * open, older ones start closed; messages before the first marker get a header of their own,
   * seq EARLIER); without, only the latest load is shown.
   */
  view(filter: ViewFilter): ConsoleView {
    const rows = this.rows;
    let lastLoad = -1;
    let firstLoad = -1;
    for (let i = rows.length - 1; i >= 0; i--) {
      if (loadNumber(rows[i]!) !== undefined) {
        if (lastLoad < 0) lastLoad = i;
        firstLoad = i;
      }
    }
    const from = !filter.preserve && lastLoad > 0 ? lastLoad : 0;
    const match = textFilter(filter.text);
    const out: ConsoleRow[] = [];
    const loads = new Map<number, LoadHeader>();
    let header: LoadHeader | undefined;
    const startLoad = (row: ConsoleRow, latest: boolean) => {
      header = { messages: 0, open: filter.groups?.get(row.seq) ?? latest };
      loads.set(row.seq, header);
      out.push(row);
    };
    if (from === 0 && firstLoad > 0) {
      const first = rows[0]!;
      startLoad(
        {
          seq: EARLIER,
          time: first.time,
          level: 'info',
          kind: 'connected',
          text: `Before load ${loadNumber(rows[firstLoad]!)}`,
          count: 1,
        },
        false,
      );
    }
    /** The depth of the closed group whose messages are being left out. */
    let closedAt = Number.POSITIVE_INFINITY;
    for (let i = from; i < rows.length; i++) {
      const m = rows[i]!;
      if (loadNumber(m) !== undefined) {
        startLoad(m, i === lastLoad);
        closedAt = Number.POSITIVE_INFINITY;
        continue;
      }
      const depth = m.group ?? 0;
      if (depth > closedAt) continue;
      closedAt = isGroup(m) && !groupOpen(m, filter.groups) ? depth : Number.POSITIVE_INFINITY;
      if (m.kind !== 'connected' && !filter.levels.has(m.level)) continue;
      if (match && !match(m.text)) continue;
      if (header) {
        header.messages++;
        if (!header.open) continue;
      }
      out.push(m);
    }
    return { rows: out, loads };
  }

  /** The seq of the latest load's marker, if any. */
  latestLoad(): number | undefined {
    for (let i = this.rows.length - 1; i >= 0; i--)
      if (loadNumber(this.rows[i]!) !== undefined) return this.rows[i]!.seq;
    return undefined;
  }

  /**
   * The headers `seq` is shown under, outermost first: its load's (EARLIER for messages before
   * the first marker) and its enclosing groups. Opening them all shows it.
   */
  ancestors(seq: number): number[] {
    const at = this.index.get(seq);
    if (at === undefined) return [];
    const rows = this.rows;
    const out: number[] = [];
    let depth = rows[at - this.offset]!.group ?? 0;
    let i = at - this.offset - 1;
    for (; i >= 0; i--) {
      const m = rows[i]!;
      if (loadNumber(m) !== undefined) {
        out.push(m.seq);
        break;
      }
      if (depth > 0 && isGroup(m) && (m.group ?? 0) === depth - 1) {
        out.push(m.seq);
        depth--;
      }
    }
    if (i < 0 && rows.some((m) => loadNumber(m) !== undefined)) out.push(EARLIER);
    return out.reverse();
  }

  private changed(): void {
    this.version++;
    for (const listener of this.listeners) listener();
  }
}

/**
 * A matcher for the filter box, or undefined for an empty box: text ignoring case, or a /regex/ run
 * in linear time (RE2), as console_list_messages reads it; a /regex/ it cannot run matches nothing.
 */
export function textFilter(text: string): ((s: string) => boolean) | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  try {
    const re = textFilterRegex(trimmed);
    return (s) => re.test(s);
  } catch {
    return () => false;
  }
}

/** What is wrong with a /regex/ in the filter box, and what to change. */
export function regexError(text: string): string | undefined {
  return regexProblem(text.trim());
}
