import { textFilterRegex } from '../../../shared/safe-regex.js';
import { type Level, type MessageSummary, regexProblem } from '../protocol.js';

export const MAX_ROWS = 100_000;

export interface ViewFilter {
  levels: ReadonlySet<Level>;
  /** Text the message contains (case-insensitive), or /regex/flags. */
  text: string;
  /** Keep messages from before the app's last reconnection (a page reload). */
  preserve: boolean;
}

/**
 * The panel's messages in order, kept by seq: a repeat or a newly mapped site replaces its row.
 * Bounded like the host's store (the oldest go first). `version` changes on every change.
 */
export class ConsoleModel {
  private rows: MessageSummary[] = [];
  private readonly index = new Map<number, number>();
  private offset = 0;
  private version = 0;
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = () => this.version;

  upsert(messages: readonly MessageSummary[]): void {
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

  all(): readonly MessageSummary[] {
    return this.rows;
  }

  /** The rows the filter shows. */
  view(filter: ViewFilter): MessageSummary[] {
    let from = 0;
    if (!filter.preserve) {
      for (let i = this.rows.length - 1; i >= 0; i--) {
        if (this.rows[i]!.kind === 'connected') {
          from = i;
          break;
        }
      }
    }
    const match = textFilter(filter.text);
    const out: MessageSummary[] = [];
    for (let i = from; i < this.rows.length; i++) {
      const m = this.rows[i]!;
      if (m.kind !== 'connected' && !filter.levels.has(m.level)) continue;
      if (match && !match(m.text)) continue;
      out.push(m);
    }
    return out;
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
