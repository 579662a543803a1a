import type { Transform } from 'node:stream';
import * as zlib from 'node:zlib';
import { isTextualType } from '../content-type.js';
import type { BodyChunk } from '../protocol.js';
import { type SseEvent, SseParser } from './sse.js';

// Response bodies shown while they are still arriving (the agent's `chunk` notifications): the
// bytes are decoded here, in the inspector, as they come (Content-Encoding undone in zlib's pool for
// Node's wire bytes, text by its charset), and an event stream's events are read from them.

export interface LiveOutput {
  /** More of the body, as the app got it: text, or bytes (still in `coding` when it cannot be undone here). */
  body(id: string, part: { text: string } | { bytes: Uint8Array; coding?: string }, time: number): void;
  /** Events an event stream completed. */
  events(id: string, events: SseEvent[], time: number): void;
}

interface Live {
  textual: boolean;
  decoder: TextDecoder | undefined;
  sse: SseParser | undefined;
  inflaters: Transform[] | undefined;
  /** The Content-Encoding nothing here can undo: the bytes are kept as they came. */
  undecodable: string | undefined;
  time: number;
}

export interface LiveResponse {
  contentType?: string;
  contentEncoding?: string;
}

export class LiveBodies {
  private readonly open = new Map<string, Live>();

  constructor(private readonly out: LiveOutput) {}

  /** A chunk of a body the app is still receiving. */
  chunk(n: BodyChunk, response: LiveResponse): void {
    let live = this.open.get(n.id);
    if (!live) {
      live = this.start(n, response);
      this.open.set(n.id, live);
    }
    live.time = n.time;
    if (n.encoding === 'text') return this.text(n.id, live, n.data);
    const bytes = Buffer.from(n.data, 'base64');
    if (live.inflaters) {
      live.inflaters[0]!.write(bytes);
      return;
    }
    this.bytes(n.id, live, bytes);
  }

  /** The body ended (or the transaction did): its decoders go. */
  end(id: string): void {
    const live = this.open.get(id);
    if (!live) return;
    this.open.delete(id);
    for (const z of live.inflaters ?? []) z.destroy();
  }

  clear(): void {
    for (const id of [...this.open.keys()]) this.end(id);
  }

  private start(n: BodyChunk, response: LiveResponse): Live {
    const type = response.contentType;
    const events = !!type && /^\s*text\/event-stream/i.test(type);
    const live: Live = {
      textual: events || isTextualType(type),
      decoder: undefined,
      sse: events ? new SseParser() : undefined,
      inflaters: undefined,
      undecodable: undefined,
      time: n.time,
    };
    if (live.textual) live.decoder = decoderFor(type);
    const codings = (response.contentEncoding ?? '')
      .toLowerCase()
      .split(',')
      .map((c) => c.trim())
      .filter((c) => c && c !== 'identity')
      .reverse();
    if (n.encoded && codings.length > 0) {
      const first = Buffer.from(n.data.slice(0, 4), 'base64')[0] ?? 0;
      const chain = codings.map((coding, i) => inflaterFor(coding, i === 0 ? first : 0x78));
      if (chain.every(Boolean)) {
        const inflaters = chain as Transform[];
        for (let i = 0; i + 1 < inflaters.length; i++) inflaters[i]!.pipe(inflaters[i + 1]!);
        inflaters.at(-1)!.on('data', (chunk: Buffer) => {
          if (this.open.get(n.id) === live) this.bytes(n.id, live, chunk);
        });
        for (const z of inflaters) z.on('error', () => this.end(n.id));
        live.inflaters = inflaters;
      } else {
        live.undecodable = response.contentEncoding?.trim().slice(0, 64);
        live.textual = false;
        live.sse = undefined;
      }
    }
    return live;
  }

  private bytes(id: string, live: Live, bytes: Uint8Array): void {
    if (!live.textual || !live.decoder) {
      return this.out.body(id, live.undecodable ? { bytes, coding: live.undecodable } : { bytes }, live.time);
    }
    this.text(id, live, live.decoder.decode(bytes, { stream: true }));
  }

  private text(id: string, live: Live, text: string): void {
    if (text === '') return;
    this.out.body(id, { text }, live.time);
    const events = live.sse?.push(text);
    if (events?.length) this.out.events(id, events, live.time);
  }
}

function decoderFor(contentType: string | undefined): TextDecoder {
  const charset = contentType && /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset || 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

/**
 * A streaming decoder of one Content-Encoding, giving what it can as bytes come; undefined when Node
 * has none for it. "deflate" is zlib-wrapped by the spec and raw by some servers: `first` tells which.
 */
function inflaterFor(coding: string, first: number): Transform | undefined {
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  if (coding === 'gzip' || coding === 'x-gzip') return zlib.createGunzip(flush);
  if (coding === 'deflate') return (first & 0x0f) === 8 ? zlib.createInflate(flush) : zlib.createInflateRaw(flush);
  if (coding === 'br') return zlib.createBrotliDecompress();
  const zstd = (zlib as { createZstdDecompress?: () => Transform }).createZstdDecompress;
  if (coding === 'zstd' && zstd) return zstd();
  return undefined;
}
