import { type RecordStore, type RecordsApi, standaloneRecords } from '../../../shared/records.js';
import type { Message, MessagePage, SocketMessageIn } from '../protocol.js';

// The messages of a session's WebSockets and event streams: one record each, under the session's
// own bound per connection and the inspector's memory budget (the oldest go first, counted per
// connection), kept across inspector restarts with the session like the transactions.

export interface MessageLimits {
  /** Messages kept per connection; its oldest go first beyond it. */
  perConnection: number;
  /** Estimated bytes of all of a session's messages. */
  maxBytes: number;
}

export const DEFAULT_MESSAGE_LIMITS: MessageLimits = { perConnection: 10_000, maxBytes: 128 * 1024 * 1024 };

type Stored = Message & { tx: string };

export interface MessageFilter {
  direction?: 'sent' | 'received';
  since?: number;
  text?: string;
}

export class CursorError extends Error {
  constructor(cursor: string) {
    super(`invalid cursor "${cursor}": pass back the nextCursor of a previous page, or omit it to start over`);
    this.name = 'CursorError';
  }
}

const key = (tx: string, n: number) => `${tx}\u0000${n}`;

export class MessageStore {
  private readonly records: RecordStore<Stored>;
  /** Per connection: the first n that may still be kept, and the next n. */
  private readonly spans = new Map<string, { first: number; next: number }>();
  /** Told when messages of a connection went (its bound, or the memory budget). */
  onDropped: ((tx: string, count: number) => void) | undefined;

  constructor(
    readonly limits: MessageLimits = DEFAULT_MESSAGE_LIMITS,
    records: RecordsApi = standaloneRecords(),
  ) {
    this.records = records.open<Stored>('messages', {
      maxBytes: limits.maxBytes,
      sizeOf: (m) => 96 + m.tx.length + m.data.length + (m.event?.length ?? 0) + (m.eventId?.length ?? 0),
      onDrop: (values) => {
        const by = new Map<string, number>();
        for (const m of values) by.set(m.tx, (by.get(m.tx) ?? 0) + 1);
        for (const [tx, n] of by) this.onDropped?.(tx, n);
      },
      persist: true,
    });
    for (const m of this.records.values()) {
      const span = this.spans.get(m.tx);
      if (!span) this.spans.set(m.tx, { first: m.n, next: m.n + 1 });
      else {
        span.first = Math.min(span.first, m.n);
        span.next = Math.max(span.next, m.n + 1);
      }
    }
  }

  private span(tx: string) {
    let span = this.spans.get(tx);
    if (!span) this.spans.set(tx, (span = { first: 0, next: 0 }));
    return span;
  }

  /** Adds a connection's new messages, in order; returns them as kept (with their `n`). */
  add(tx: string, messages: readonly SocketMessageIn[]): Message[] {
    const span = this.span(tx);
    const added: Message[] = [];
    for (const m of messages) {
      const message: Message = { ...m, n: span.next++ };
      this.records.set(key(tx, message.n), { ...message, tx });
      added.push(message);
    }
    // Past the bound the connection's oldest go (one the memory budget took was counted then).
    while (span.next - span.first > this.limits.perConnection) this.records.drop(key(tx, span.first++));
    return added;
  }

  /** A connection's kept messages that pass the filter, in order. */
  *of(tx: string, filter: MessageFilter = {}, after = -1): Generator<Message> {
    const span = this.spans.get(tx);
    if (!span) return;
    const needle = filter.text?.toLowerCase();
    for (let n = Math.max(span.first, after + 1); n < span.next; n++) {
      const stored = this.records.get(key(tx, n));
      if (!stored) continue;
      if (filter.direction && stored.direction !== filter.direction) continue;
      if (filter.since !== undefined && stored.time < filter.since) continue;
      if (
        needle &&
        !stored.data.toLowerCase().includes(needle) &&
        !(stored.event?.toLowerCase().includes(needle) ?? false)
      )
        continue;
      const { tx: _tx, ...message } = stored;
      yield message;
    }
  }

  /** A page of a connection's messages; `dropped` is the caller's count (kept with the transaction). */
  page(tx: string, filter: MessageFilter, limit: number, cursor: string | undefined, dropped: number): MessagePage {
    const after = cursor === undefined ? -1 : parseCursor(cursor);
    const messages: Message[] = [];
    let total = 0;
    let remaining = 0;
    for (const m of this.of(tx, filter)) {
      total++;
      if (m.n <= after) continue;
      if (messages.length < limit) messages.push(m);
      else remaining++;
    }
    const last = messages.at(-1);
    return {
      messages,
      total,
      remaining,
      dropped,
      ...(remaining > 0 && last ? { nextCursor: `m:${last.n}` } : {}),
    };
  }

  /** Forgets a connection's messages (its transaction went); not counted as dropped. */
  delete(tx: string): void {
    const span = this.spans.get(tx);
    if (!span) return;
    for (let n = span.first; n < span.next; n++) this.records.delete(key(tx, n));
    this.spans.delete(tx);
  }

  clear(): void {
    this.records.clear();
    this.spans.clear();
  }

  close(): void {
    this.records.close();
    this.spans.clear();
  }
}

function parseCursor(cursor: string): number {
  const match = /^m:(\d+)$/.exec(cursor);
  if (!match) throw new CursorError(cursor);
  return Number(match[1]);
}
