import { encodeTallied } from '../shared/protocol/frame.js';
import { Limits } from '../shared/protocol/limits.js';
import type { Notification } from '../shared/protocol/messages.js';
import { madeFrame } from './made-frame.js';

// Notifications made close together leave as one `batch` frame: one socket write per WAIT_MS instead
// of one per notification (a captured request makes about four).
// A notification is encoded (and checked against the limits) when it is made, as a single frame is;
// one whose params are a function (lazyParams) is made and encoded only when its batch leaves, so
// the app's code that caused it (a request on its way) does not wait for that work.

const HEAD = '{"type":"batch","frames":[';
const TAIL = ']}';
/** A notification this long goes out alone, at once: batching it would only copy it. */
const SOLO_CHARS = 64 * 1024;
const BATCH_CHARS = 1024 * 1024;

/**
 * How long a notification may wait for others. Each socket write costs the app's thread more than
 * encoding a notification; 10 ms is far below what a person at the inspector notices.
 */
const WAIT_MS = 10;

interface Entry {
  frame: Notification;
  /** Its JSON, once encoded, and the values it holds. */
  text?: string;
  values: number;
}

export class Outbox {
  private entries: Entry[] = [];
  private scheduled = false;
  private readonly batchChars: number;

  constructor(
    /** Writes one frame's text; throws when the link cannot take it. */
    private readonly write: (text: string) => void,
    private readonly maxFrameBytes: number,
    /** Notifications that were queued but could not be written, oldest first (lazy params made). */
    private readonly unsent: (frames: Notification[]) => void,
    /** A lazy notification that could not be made or would be refused, dropped when its batch left. */
    private readonly dropped: (frame: Notification, error: Error) => void = () => {},
  ) {
    // A UTF-16 unit is at most 3 bytes of UTF-8.
    this.batchChars = Math.min(BATCH_CHARS, Math.floor(maxFrameBytes / 3) - HEAD.length - TAIL.length);
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * Queues a notification, or writes it at once when it is large; throws a FrameLimitError as
   * encode() does. A lazy one is only queued: its checks come when it leaves.
   */
  notify(frame: Notification): void {
    if (typeof frame.params === 'function') {
      this.entries.push({ frame, values: 0 });
    } else {
      const { text, tally } = encodeTallied(frame, this.maxFrameBytes);
      if (this.solo(text, tally.depth)) {
        this.flush();
        this.write(text);
        return;
      }
      this.entries.push({ frame, text, values: tally.values });
    }
    if (this.entries.length >= Limits.maxBatchFrames) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      const timer = setTimeout(() => {
        this.scheduled = false;
        this.flush();
      }, WAIT_MS);
      // A notification waiting does not keep the process alive; connect() writes it at 'exit'.
      (timer as { unref?: () => void }).unref?.();
    }
  }

  /** Writes what is queued, as few frames as the limits allow (a lone notification as itself). */
  flush(): void {
    const entries = this.take();
    let texts: string[] = [];
    let frames: Notification[] = [];
    let chars = 0;
    let values = 0;
    /** Writes `text` (holding `sent`); when the link broke, hands those and entries[rest…] back. */
    const send = (text: string, sent: Notification[], rest: number) => {
      try {
        this.write(text);
        return true;
      } catch {
        const later = entries.slice(rest).map((e) => this.made(e));
        this.unsent([...sent, ...later.filter((f) => f !== undefined)]);
        return false;
      }
    };
    /** Writes the batch gathered before entries[next]. */
    const sendBatch = (next: number) => {
      if (texts.length === 0) return true;
      const ok = send(batchText(texts), frames, next);
      texts = [];
      frames = [];
      chars = 0;
      values = 0;
      return ok;
    };
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      if (entry.text === undefined && !this.encode(entry)) continue;
      const text = entry.text!;
      if (entry.values < 0) {
        // too large or too deep to share a frame
        if (!sendBatch(i) || !send(text, [entry.frame], i + 1)) return;
        continue;
      }
      const full =
        texts.length >= Limits.maxBatchFrames ||
        chars + text.length + 1 > this.batchChars ||
        values + entry.values + 1 + 2 > Limits.maxValues;
      if (full && !sendBatch(i)) return;
      texts.push(text);
      frames.push(entry.frame);
      chars += text.length + 1;
      values += entry.values + 1;
    }
    sendBatch(entries.length);
  }

  /** Hands back what is queued, unsent (the link is gone). */
  strand(): void {
    const frames = this.take()
      .map((e) => this.made(e))
      .filter((f) => f !== undefined);
    if (frames.length) this.unsent(frames);
  }

  private solo(text: string, depth: number): boolean {
    return text.length > Math.min(SOLO_CHARS, this.batchChars) || depth + 2 > Limits.maxDepth;
  }

  /** Makes and encodes a lazy entry; false (and reported) when it cannot go. Values < 0: it goes alone. */
  private encode(entry: Entry): boolean {
    try {
      entry.frame = madeFrame(entry.frame);
      const { text, tally } = encodeTallied(entry.frame, this.maxFrameBytes);
      entry.text = text;
      entry.values = this.solo(text, tally.depth) ? -1 : tally.values;
      return true;
    } catch (e) {
      this.dropped(entry.frame, e as Error);
      return false;
    }
  }

  private made(entry: Entry): Notification | undefined {
    try {
      return madeFrame(entry.frame);
    } catch (e) {
      this.dropped(entry.frame, e as Error);
      return undefined;
    }
  }

  private take(): Entry[] {
    const entries = this.entries;
    this.entries = [];
    return entries;
  }
}

/**
 * One batch frame's text, made by one join: HEAD + join + TAIL would be a rope the socket flattens,
 * copying the whole batch once more.
 */
function batchText(texts: string[]): string {
  if (texts.length === 1) return texts[0]!;
  texts[0] = HEAD + texts[0];
  texts[texts.length - 1] += TAIL;
  return texts.join(',');
}
