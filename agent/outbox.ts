import { encodeTallied } from '../shared/protocol/frame.js';
import { Limits } from '../shared/protocol/limits.js';
import type { Notification } from '../shared/protocol/messages.js';

// Notifications made close together leave as one `batch` frame: one socket write per WAIT_MS instead
// of one per notification (a captured request makes about four).
// Each notification is encoded (and checked against the limits) when it is made, as a single frame is.

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

export class Outbox {
  private texts: string[] = [];
  private queued: Notification[] = [];
  private chars = 0;
  private values = 0;
  private scheduled = false;
  private readonly batchChars: number;

  constructor(
    /** Writes one frame's text; throws when the link cannot take it. */
    private readonly write: (text: string) => void,
    private readonly maxFrameBytes: number,
    /** Notifications that were queued but could not be written, oldest first. */
    private readonly unsent: (frames: Notification[]) => void,
  ) {
    // A UTF-16 unit is at most 3 bytes of UTF-8.
    this.batchChars = Math.min(BATCH_CHARS, Math.floor(maxFrameBytes / 3) - HEAD.length - TAIL.length);
  }

  get size(): number {
    return this.queued.length;
  }

  /** Queues a notification, or writes it at once when it is large; throws a FrameLimitError as encode() does. */
  notify(frame: Notification): void {
    const { text, tally } = encodeTallied(frame, this.maxFrameBytes);
    if (text.length > Math.min(SOLO_CHARS, this.batchChars) || tally.depth + 2 > Limits.maxDepth) {
      this.flush();
      this.write(text);
      return;
    }
    const full =
      this.queued.length >= Limits.maxBatchFrames ||
      this.chars + text.length + 1 > this.batchChars ||
      this.values + tally.values + 1 + 2 > Limits.maxValues;
    if (full) this.flush();
    this.texts.push(text);
    this.queued.push(frame);
    this.chars += text.length + 1;
    this.values += tally.values + 1;
    if (!this.scheduled) {
      this.scheduled = true;
      const timer = setTimeout(() => {
        this.scheduled = false;
        this.flush();
      }, WAIT_MS);
      // A notification waiting does not keep the process alive; connect() writes it at 'exit'.
      (timer as { unref?: () => void }).unref?.();
    }
  }

  /** Writes what is queued as one frame (a lone notification as itself). */
  flush(): void {
    if (this.queued.length === 0) return;
    const texts = this.texts;
    const queued = this.take();
    try {
      this.write(texts.length === 1 ? texts[0]! : HEAD + texts.join(',') + TAIL);
    } catch {
      this.unsent(queued);
    }
  }

  /** Hands back what is queued, unsent (the link is gone). */
  strand(): void {
    if (this.queued.length) this.unsent(this.take());
  }

  private take(): Notification[] {
    const queued = this.queued;
    this.queued = [];
    this.texts = [];
    this.chars = 0;
    this.values = 0;
    return queued;
  }
}
