import type { Initiator, MockMark } from '../protocol.js';
import type { MatchableRequest } from './mock-match.js';

// What the taps (node-http, node-undici, browser) see, and the hub that hands it to every network
// agent in the process. A tap only observes: it reads what the runtime shows and copies body bytes;
// it never replaces a socket, an agent or a stream.

/** Header name/value pairs as the runtime gave them (unredacted; the agent redacts). */
export type RawHeaders = [name: string, value: string][];

/** Headers as sent, or a function that reads them from what no longer changes (a header block), called off the app's path. */
export type SentHeaders = RawHeaders | (() => RawHeaders);

export const sentHeaders = (headers: SentHeaders): RawHeaders => (typeof headers === 'function' ? headers() : headers);

/** Body bytes as seen: the chunks kept (at most the cap), and how many bytes there were in all. */
export interface SeenBody {
  chunks: Uint8Array[];
  /** Bytes kept in `chunks`. */
  kept: number;
  /** Bytes seen in all (counting the ones past the cap). */
  total: number;
  /** The body did not end where it was read (the cap, or the capture stopped waiting). */
  cut: boolean;
  /** Already text (XHR responseText, a fetch string body): bytes are its UTF-8. */
  text?: string;
  /** The kept bytes as a Blob too (a page's fetch body, an XHR's blob), which a page's socket sends without copying them. */
  blob?: Blob;
  /** The body's Content-Type, when the capture made the bytes (a page's FormData as multipart). */
  type?: string;
}

export interface SeenRequest {
  initiator: Initiator;
  method: string;
  url: string;
  headers: RawHeaders;
  /** The request body when it is known at the start (browser fetch/XHR). */
  body?: SeenBody;
  contentType?: string;
  /** Answered by this mock rule (known at the start on the mock path). */
  mock?: MockMark;
  /** When it started (performance.now(), Date.now()), when that was before the sink heard of it. */
  t0?: number;
  startedAt?: number;
  /** A WebSocket's: hands the app a message as if its server had sent it (bytes: a binary message). */
  inject?: (data: string | Uint8Array) => void;
  /** Where the app made it (callSite()): its stack is formatted only when the notification leaves. */
  site?: { stack?: unknown };
}

const captureStackTrace = (Error as { captureStackTrace?: (target: object, fn: unknown) => void }).captureStackTrace;
/** Frames kept of the app's stack: a few, as DevTools' initiator shows; fewer are cheaper to take. */
const SITE_FRAMES = 4;

/**
 * The app's stack below `entry` (the tap's wrapper the app called), taken without formatting it
 * (V8 formats `stack` when it is first read); undefined where the engine cannot (not V8).
 */
export function callSite(entry: unknown): { stack?: unknown } | undefined {
  if (!captureStackTrace) return undefined;
  const E = Error as { stackTraceLimit?: number };
  const limit = E.stackTraceLimit;
  const site = {};
  try {
    E.stackTraceLimit = SITE_FRAMES;
    captureStackTrace(site, entry);
  } finally {
    E.stackTraceLimit = limit;
  }
  return site;
}

/** A mock rule's answer to a node:http2 request: a response (headers, body, trailers) or an error, after a delay. */
export interface Http2Answer {
  mark: MockMark;
  delayMs?: number;
  error?: Error;
  response?: Response;
  trailers?: Record<string, string>;
}

/** A WebSocket whose handshake the undici tap may report (Node's own WebSocket), until it opened or failed. */
export interface Handshake {
  /** The socket's URL with http(s) for ws(s), as its upgrade request has it. */
  url: string;
  obs: Observation;
  responded: boolean;
}

export interface SeenResponse {
  status: number;
  statusText: string;
  headers: RawHeaders;
  httpVersion?: string;
  remoteAddress?: string;
  remotePort?: number;
  redirected?: boolean;
  url?: string;
}

export interface SeenEnd {
  /** Bytes as they came over the wire (still Content-Encoded, in Node), or as the page got them. */
  body?: SeenBody;
  /** The runtime already undid Content-Encoding (browsers): `body` is what the app got. */
  decoded?: boolean;
  /** When the body ended (performance.now()), if earlier than this call. */
  endedAt?: number;
  /** How a WebSocket closed. */
  close?: SeenClose;
  /** HTTP/2 trailers (gRPC's grpc-status, grpc-message). */
  trailers?: RawHeaders;
}

export interface SeenClose {
  code: number;
  reason: string;
  wasClean?: boolean;
}

/**
 * A WebSocket message (or an EventSource event) as the app sent or got it. `data` is the app's own
 * value: a string, bytes (already a copy the app cannot change), or a Blob (immutable).
 */
export interface SeenMessage {
  direction: 'sent' | 'received';
  /** Date.now() when it was seen. */
  time: number;
  opcode?: number;
  data: string | Uint8Array | Blob;
  /** Bytes of the whole message, when `data` is only its start. */
  size?: number;
  event?: string;
  eventId?: string;
}

/** One request as a tap follows it; every call after the first ending is ignored. */
export interface Observation {
  sent(headers: SentHeaders | undefined, body: SeenBody | undefined): void;
  response(response: SeenResponse): void;
  /**
   * Response body bytes arrived before the body ended: `seen` is what the tap kept so far (its
   * chunks never change, `text` is the whole text so far), `fresh` what just came (the app's bytes,
   * for an event stream past the cap), `encoded` that they are as on the wire (still Content-Encoded).
   */
  chunk(seen: SeenBody, fresh?: Uint8Array, encoded?: boolean): void;
  /** A WebSocket's message or an EventSource's event. */
  message(message: SeenMessage): void;
  complete(end: SeenEnd): void;
  fail(error: unknown, timedOut?: boolean, end?: SeenEnd): void;
  mocked(mark: MockMark): void;
  /** Replay: the time (performance.now()) the next call happened at; undefined for now. */
  at?(time: number | undefined): void;
}

export interface Sink {
  /** The largest body this sink keeps. */
  readonly maxBodyBytes: number;
  /** The most of each WebSocket message this sink keeps. */
  readonly maxMessageBytes?: number;
  /** False when this sink shows no call sites (the taps then take none, unless another sink does). */
  readonly callSites?: boolean;
  /** Starts following a request; undefined when this sink does not want it. */
  observe(request: SeenRequest): Observation | undefined;
}

class Fanout implements Observation {
  constructor(private readonly parts: Observation[]) {}
  sent(h: SentHeaders | undefined, b: SeenBody | undefined) {
    for (const p of this.parts) p.sent(h, b);
  }
  response(r: SeenResponse) {
    for (const p of this.parts) p.response(r);
  }
  chunk(seen: SeenBody, fresh?: Uint8Array, encoded?: boolean) {
    for (const p of this.parts) p.chunk(seen, fresh, encoded);
  }
  message(m: SeenMessage) {
    for (const p of this.parts) p.message(m);
  }
  complete(e: SeenEnd) {
    for (const p of this.parts) p.complete(e);
  }
  fail(error: unknown, timedOut?: boolean, end?: SeenEnd) {
    for (const p of this.parts) p.fail(error, timedOut, end);
  }
  mocked(mark: MockMark) {
    for (const p of this.parts) p.mocked(mark);
  }
}

/** A sink that keeps what it sees until an agent joins, then hands it over to that agent. */
export interface HubHolder extends Sink {
  handOver(sink: Sink): void;
}

/** The process-wide meeting point of taps and agents: taps are installed once, agents come and go. */
export class Hub {
  readonly sinks = new Set<Sink>();
  /** Taps installed in this process, by name. */
  readonly taps = new Set<string>();
  /** The tap's observation of a runtime object (a ClientRequest), for the mock path to mark. */
  readonly byRaw = new WeakMap<object, Observation>();
  /** Requests the mock path answers through Node's own http (a ws handshake): the http tap marks them. */
  readonly mockMarks = new WeakMap<object, MockMark>();
  /** WebSockets whose handshake has not ended (websocket-tap, node-undici). */
  readonly handshakes: Handshake[] = [];
  /**
   * While mock rules are active: a WebSocket a rule answers, made instead of the real one (the mock
   * path sets it); undefined lets the app's socket connect.
   */
  mockSocket: ((args: unknown[], Ctor: new (...args: unknown[]) => object) => object | undefined) | undefined;
  /** While mock rules are active: the answer to a node:http2 request a rule matches (the mock path sets it). */
  mockHttp2: ((request: MatchableRequest) => Http2Answer | undefined) | undefined;
  /** The preload (`porthole/register`) started capture: this process keeps its mock rules for its next run. */
  preloaded = false;
  private cap = 0;

  get active(): boolean {
    return this.sinks.size > 0;
  }

  /** The largest cap among the agents: what taps keep of each body. */
  get maxBodyBytes(): number {
    return this.cap;
  }

  /** Some agent shows requests' call sites: the taps take them. */
  get callSites(): boolean {
    return this.sites;
  }
  private sites = true;

  /** The most of each WebSocket message any agent keeps: what taps copy of it. */
  get maxMessageBytes(): number {
    return this.messageCap;
  }
  private messageCap = 0;

  add(sink: Sink): () => void {
    const holder = this.holder;
    if (holder && sink !== holder) {
      this.holder = undefined;
      this.sinks.delete(holder);
      holder.handOver(sink);
    }
    this.sinks.add(sink);
    this.recap();
    return () => {
      this.sinks.delete(sink);
      this.recap();
    };
  }

  observe(request: SeenRequest): Observation | undefined {
    let only: Observation | undefined;
    let many: Observation[] | undefined;
    for (const sink of this.sinks) {
      let o: Observation | undefined;
      try {
        o = sink.observe(request);
      } catch {
        o = undefined;
      }
      if (!o) continue;
      if (!only) only = o;
      else (many ??= [only]).push(o);
    }
    return many ? new Fanout(many) : only;
  }

  private holder: HubHolder | undefined;

  /**
   * Keeps what the taps see until the first agent joins, then hands it over (the preload,
   * `porthole/register`, installs the taps before the app's code runs; preload-holder.ts).
   */
  hold(holder: HubHolder): void {
    this.preloaded = true;
    if (this.holder || this.sinks.size) return;
    this.holder = holder;
    this.add(holder);
  }

  private recap(): void {
    this.cap = Math.max(0, ...[...this.sinks].map((s) => s.maxBodyBytes));
    this.messageCap = Math.max(0, ...[...this.sinks].map((s) => s.maxMessageBytes ?? 0));
    this.sites = this.sinks.size === 0 || [...this.sinks].some((s) => s.callSites !== false);
  }
}

const HUB = Symbol.for('porthole.network.hub');

export function hub(): Hub {
  const g = globalThis as { [HUB]?: Hub };
  g[HUB] ??= new Hub();
  return g[HUB];
}

/** Collects body bytes up to a cap while counting all of them. */
export class BodyCollector {
  readonly seen: SeenBody = { chunks: [], kept: 0, total: 0, cut: false };
  constructor(private readonly cap: number) {}

  /** Keeps `chunk` within the cap; `copy` when the caller's buffer may be reused. */
  add(chunk: Uint8Array, copy = false): void {
    const s = this.seen;
    s.total += chunk.byteLength;
    if (s.kept >= this.cap) {
      if (chunk.byteLength > 0) s.cut = true;
      return;
    }
    const room = this.cap - s.kept;
    let part = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
    if (part !== chunk) s.cut = true;
    if (copy) part = part.slice();
    s.chunks.push(part);
    s.kept += part.byteLength;
  }
}

export function headerOf(headers: RawHeaders, name: string): string | undefined {
  const lower = name.toLowerCase();
  // An ASCII name is met only by a name as long (no other lowercases to ASCII with another length),
  // so the others are not lowercased: a string each.
  const ascii = isAscii(lower);
  for (const [n, v] of headers) if ((!ascii || n.length === lower.length) && n.toLowerCase() === lower) return v;
  return undefined;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Headers from a raw HTTP/1 header block ("GET / HTTP/1.1\r\nHost: …\r\n…"), minus the request line. */
export function parseHeaderBlock(block: string): RawHeaders {
  const out: RawHeaders = [];
  // Read in place: no array of lines and no string per line.
  let start = block.indexOf('\r\n');
  if (start < 0) return out;
  for (start += 2; start <= block.length; ) {
    let end = block.indexOf('\r\n', start);
    if (end < 0) end = block.length;
    const colon = block.indexOf(':', start);
    if (colon > start && colon < end) out.push([block.slice(start, colon), block.slice(colon + 1, end).trim()]);
    start = end + 2;
  }
  return out;
}
