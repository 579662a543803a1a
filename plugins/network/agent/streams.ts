import { bytesToBase64, concatBytes } from '../../../shared/bytes.js';
import type { BodyChunk, SocketMessageIn } from '../protocol.js';
import type { SeenBody, SeenMessage } from './observed.js';

// What the app's open connections send the inspector while they are open: a WebSocket's (or an
// EventSource's) messages, and a streamed response's bytes. Both are queued on the app's path as
// references and made into notifications when their batch leaves (ctx.notify with a function).

/** What the queues need of the agent. */
export interface StreamSink {
  readonly maxMessageBytes: number;
  readonly maxBodyBytes: number;
  sendMessages(id: string, make: () => { id: string; messages: SocketMessageIn[] }): void;
  sendChunk(id: string, make: () => BodyChunk): void;
}

const MAX_PER_NOTIFICATION = 1000;

interface Queued {
  m: SeenMessage;
  /** A Blob's bytes, once read. */
  bytes?: Uint8Array;
  waiting?: boolean;
}

/** Messages that leave in one notification; made into its params when it leaves. */
interface Batch {
  entries: Queued[];
  /** Its notification was made: later messages go in another. */
  sealed: boolean;
}

/**
 * One connection's messages, in the order the app saw them. Each notification carries a batch that
 * fills until the notification leaves (at most 1000); a Blob still being read holds its batch, and
 * the ones after it, back until it is read, so the order never changes.
 */
export class MessageQueue {
  /** Batches not handed to the link yet (waiting for a Blob), oldest first. */
  private held: Batch[] = [];
  /** The batch handed to the link whose notification is not made yet. */
  private open: Batch | undefined;
  private afterHeld: (() => void)[] = [];

  constructor(
    private readonly sink: StreamSink,
    private readonly id: string,
  ) {}

  push(m: SeenMessage): void {
    const entry: Queued = { m };
    if (typeof Blob === 'function' && m.data instanceof Blob) {
      // Read apart from the app (a Blob cannot change).
      entry.waiting = true;
      m.data
        .slice(0, this.sink.maxMessageBytes)
        .arrayBuffer()
        .then(
          (b) => {
            entry.bytes = new Uint8Array(b);
          },
          () => {
            entry.bytes = new Uint8Array();
          },
        )
        .finally(() => {
          entry.waiting = false;
          this.release();
        });
    }
    const last = this.held.at(-1);
    if (last || entry.waiting) {
      if (last && last.entries.length < MAX_PER_NOTIFICATION) last.entries.push(entry);
      else this.held.push({ entries: [entry], sealed: false });
      return;
    }
    const open = this.open;
    if (open && !open.sealed && open.entries.length < MAX_PER_NOTIFICATION) {
      open.entries.push(entry);
      return;
    }
    this.send({ entries: [entry], sealed: false });
  }

  /** Calls `then` once every message pushed so far was handed to the link (at once, unless a Blob is being read). */
  afterSent(then: () => void): void {
    if (this.held.length === 0) then();
    else this.afterHeld.push(then);
  }

  private send(batch: Batch): void {
    this.open = batch;
    const cap = this.sink.maxMessageBytes;
    this.sink.sendMessages(this.id, () => {
      batch.sealed = true;
      return { id: this.id, messages: batch.entries.map(({ m, bytes }) => encodeMessage(m, bytes, cap)) };
    });
  }

  private release(): void {
    while (this.held.length > 0 && !this.held[0]!.entries.some((e) => e.waiting)) this.send(this.held.shift()!);
    if (this.held.length === 0) for (const then of this.afterHeld.splice(0)) then();
  }
}

/** A message as the inspector takes it: text as text, bytes as base64, at most `cap` of either kept. */
export function encodeMessage(m: SeenMessage, read: Uint8Array | undefined, cap: number): SocketMessageIn {
  if (typeof m.data === 'string') {
    const whole = m.data;
    const data = whole.length > cap ? whole.slice(0, cap) : whole;
    const size = m.size ?? utf8Length(whole);
    return wire(m, size, 'text', data, data !== whole || (m.size !== undefined && size > utf8Length(data)));
  }
  const bytes = read ?? (m.data as Uint8Array);
  const kept = bytes.byteLength > cap ? bytes.subarray(0, cap) : bytes;
  const size = m.size ?? (read ? (m.data as Blob).size : bytes.byteLength);
  const truncated = size > kept.byteLength;
  if (m.opcode === 1) {
    // A text message the runtime handed over as bytes (the ws package): its UTF-8, as far as kept.
    const text = truncated
      ? new TextDecoder().decode(kept, { stream: true })
      : (utf8 ??= new TextDecoder()).decode(kept);
    return wire(m, size, 'text', text, truncated);
  }
  return wire(m, size, 'base64', bytesToBase64(kept), truncated);
}

/** Made at first use: Hermes (React Native) has no TextDecoder, and a module must load there. */
let utf8: TextDecoder | undefined;

/** The message's fields, none undefined (each key costs the frame's encoding and checks). */
function wire(
  m: SeenMessage,
  size: number,
  encoding: 'text' | 'base64',
  data: string,
  truncated: boolean,
): SocketMessageIn {
  const out: SocketMessageIn = { direction: m.direction, time: m.time, size, encoding, data };
  if (m.opcode !== undefined) out.opcode = m.opcode;
  if (m.event !== undefined) out.event = m.event;
  if (m.eventId !== undefined) out.eventId = m.eventId;
  if (truncated) out.truncated = true;
  return out;
}

/** UTF-8 bytes of a string, counted without encoding it. */
export function utf8Length(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 2; // a surrogate pair: 4 bytes for 2 units
        i++;
      } else n += 2;
    } else n += 2;
  }
  return n;
}

/** Bytes per chunk notification: larger runs are split (each leaves within one link frame easily). */
const CHUNK_BYTES = 256 * 1024;
/** Bodies open longer than this are shown while they come (an event stream at once). */
const LIVE_AFTER_MS = 1000;

/**
 * A response body arriving in chunks, shown while it is still open: held at first (it may end soon,
 * and its `completed` notification then carries it whole), live once it has been open LIVE_AFTER_MS
 * (an event stream at once). From then on what the tap kept so far and then each arrival go to the
 * inspector, up to the body cap; an event stream's bytes go on past the cap (the inspector reads its
 * events from them and keeps the body at the cap).
 */
export class LiveBody {
  private sentChunks = 0;
  private sentChars = 0;
  /** Bytes past the cap seen so far. */
  private past = 0;
  private extra: Uint8Array[] = [];
  private queued = false;
  private seen: SeenBody | undefined;
  private encoded = false;

  /** Past the cap too: an event stream. */
  private readonly events: boolean;
  /** Shown as it comes; else held (in openBodies, when `held`). */
  private live = false;
  private held = false;

  constructor(
    private readonly sink: StreamSink,
    private readonly id: string,
    /** The response's Content-Type. */
    type: string | undefined,
    /** When its headers came (performance.now()). */
    private readonly respondedAt: number,
  ) {
    this.events = !!type && /^\s*text\/event-stream/i.test(type);
  }

  /** New bytes the tap saw (`seen` as the tap keeps it, `fresh` what just came). */
  arrived(seen: SeenBody, fresh: Uint8Array | undefined, encoded: boolean): void {
    this.seen = seen;
    this.encoded = encoded;
    if (!this.live) {
      if (!this.events && performance.now() - this.respondedAt < LIVE_AFTER_MS) {
        this.held = true;
        openBodies.watch(this);
        return;
      }
      this.live = true;
    }
    if (this.events && fresh && seen.text === undefined) {
      // The part of `fresh` the tap did not keep (past the cap) goes on for the stream's events.
      const past = seen.total - seen.kept;
      const now = Math.min(fresh.byteLength, past - this.past);
      this.past = past;
      if (now > 0) this.extra.push(fresh.slice(fresh.byteLength - now));
    }
    this.schedule();
  }

  /** The sweep: a body open this long is shown as it comes from now on. */
  sweep(now: number): boolean {
    if (!this.held) return true;
    if (now - this.respondedAt < LIVE_AFTER_MS) return false;
    this.held = false;
    this.live = true;
    this.schedule();
    return true;
  }

  /** The body ended (or failed): no longer held. */
  stop(): void {
    if (!this.held) return;
    this.held = false;
    openBodies.set.delete(this);
  }

  /** Sends what is new since the last chunk (the body became live, or more came). */
  schedule(): void {
    if (this.queued || !this.seen) return;
    const seen = this.seen;
    const fresh =
      seen.text !== undefined
        ? seen.text.length > this.sentChars
        : seen.chunks.length > this.sentChunks || this.extra.length > 0;
    if (!fresh) return;
    this.queued = true;
    this.sink.sendChunk(this.id, () => this.take());
  }

  private take(): BodyChunk {
    this.queued = false;
    const seen = this.seen!;
    const time = Date.now();
    if (seen.text !== undefined) {
      const data = seen.text.slice(this.sentChars);
      this.sentChars = seen.text.length;
      return { id: this.id, time, encoding: 'text', data };
    }
    const parts: Uint8Array[] = [];
    let size = 0;
    while (this.sentChunks < seen.chunks.length && size < CHUNK_BYTES) {
      const c = seen.chunks[this.sentChunks++]!;
      parts.push(c);
      size += c.byteLength;
    }
    while (size < CHUNK_BYTES && this.extra.length > 0) {
      const c = this.extra.shift()!;
      parts.push(c);
      size += c.byteLength;
    }
    const chunk: BodyChunk = { id: this.id, time, encoding: 'base64', data: bytesToBase64(concatBytes(parts, size)) };
    if (this.encoded) chunk.encoded = true;
    this.schedule();
    return chunk;
  }
}

/** The bodies waiting to become live, looked at every 250 ms while there are any. */
const openBodies = {
  set: new Set<LiveBody>(),
  timer: undefined as ReturnType<typeof setInterval> | undefined,
  watch(body: LiveBody) {
    this.set.add(body);
    if (this.timer) return;
    this.timer = setInterval(() => {
      const now = performance.now();
      for (const b of this.set) if (b.sweep(now)) this.set.delete(b);
      if (this.set.size === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    }, 250);
    (this.timer as { unref?: () => void }).unref?.();
  },
};
