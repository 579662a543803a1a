import type { AgentPluginContext, ProtocolRef } from '../../../agent/plugin.js';
import { concatBytes } from '../../../shared/bytes.js';
import type { NotificationMethod, NotificationParams } from '../../../shared/plugin-protocol.js';
import type { Attached } from '../../../shared/protocol/attachment.js';
import { RequestError } from '../../../shared/protocol/request-error.js';
import {
  ATTACH_BYTES,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_REDACTED_HEADERS,
  EMPTY_MOCK_CONFIG,
  MAX_BODY_BYTES_LIMIT,
  MOCK_HOLD_MS,
  NETWORK_PROTOCOL_ID,
  NETWORK_PROTOCOL_VERSION,
  REDACTED,
} from '../constants.js';
import type {
  Body,
  BodyChunk,
  Header,
  Initiator,
  MockConfig,
  MockMark,
  NetworkProtocol,
  RedactionScope,
  SocketClose,
  SocketMessageIn,
} from '../protocol.js';
import { base64ToBytes, encodeBody, planBody } from './capture-body.js';
import { codedBody } from './coded-body.js';
import { holdFetch } from './fetch-gate.js';
import type { MockPath, MockRecorder } from './intercept.js';
import { activeRules, readMockCache, writeMockCache } from './mock-cache.js';
import type { CompiledRule } from './mock-match.js';
import type { Installed } from './node.js';
import type { Decoder } from './node-decode.js';
import {
  type Hub,
  headerOf,
  hub,
  type Observation,
  type RawHeaders,
  type SeenBody,
  type SeenClose,
  type SeenEnd,
  type SeenMessage,
  type SeenRequest,
  type SeenResponse,
  type SentHeaders,
  type Sink,
  sentHeaders,
} from './observed.js';
import { type FrameMapper, siteFrames } from './site-frames.js';
import { LiveBody, MessageQueue, type StreamSink } from './streams.js';
import { inPage, textParts } from './text-parts.js';

export interface NetworkOptions {
  /** Cap on each captured request and response body, in bytes. Default 1 MiB, at most 8 MiB. */
  maxBodyBytes?: number;
  /**
   * Header values to hide. Default: authorization, cookie, set-cookie, proxy-authorization, hidden
   * everywhere (`scope: 'all'`). `scope: 'mcp'` sends them to the inspector's window but hides them
   * from MCP clients. `false` sends every header as is.
   */
  redact?: false | { headers?: string[]; scope?: RedactionScope };
  /** Requests whose URL contains one of these strings (or matches one of these regexes) are not captured. */
  ignoreUrls?: (string | RegExp)[];
  /** Set to false to refuse mock rules from the inspector (they are reported as failed to apply). */
  mocking?: boolean;
  /** Cap on what is kept of each WebSocket message or EventSource event, in bytes. Default 64 KiB. */
  maxMessageBytes?: number;
  /**
   * Set to false to take no call site (the Initiator column) for each request: taking one is the
   * largest part of a small request's capture in Node (about 10 µs, 20 to 40 µs from a large function).
   */
  callSite?: boolean;
}

export interface NetworkPluginApi {
  /**
   * Resolves once capture is installed. It is installed synchronously by network() wherever the
   * runtime allows (browsers, Node 20.16+); older Node loads its modules asynchronously.
   */
  readonly ready: Promise<void>;
  /** The mock config this app applies now. */
  mockConfig(): MockConfig;
  /** Stops capturing and mocking; the interception used for mock rules is removed. */
  dispose(): void;
}

type Ctx = AgentPluginContext<NetworkProtocol>;

// Only the id and version: the schemas stay in the inspector, which validates what crosses the wire.
export const protocol: ProtocolRef<NetworkProtocol> = { id: NETWORK_PROTOCOL_ID, version: NETWORK_PROTOCOL_VERSION };

const MAX_URL = 65_536;
const MAX_HEADERS = 1000;

/**
 * Where the agent's platform parts come from: the taps, the mock matcher and the mock path. The
 * browser and Node entry (index.ts) and the React Native one (react-native.ts) each give theirs, so a
 * bundle holds only its platform's.
 */
export interface NetworkRuntime {
  /** Installs the taps: now where the runtime allows, else once its modules have loaded. */
  install(hub: Hub): Installed | undefined | Promise<Installed | undefined>;
  /** Compiles mock rules; loaded with the app's first rule. */
  compile(config: MockConfig): Promise<CompiledRule[]>;
  /** The mock path, loaded when a rule first applies. */
  mockPath(recorder: MockRecorder, current: () => { enabled: boolean; rules: CompiledRule[] }): Promise<MockPath>;
}

export class NetworkAgent implements Sink, StreamSink {
  readonly maxBodyBytes: number;
  readonly maxMessageBytes: number;
  readonly callSites: boolean;
  readonly redacted: Set<string>;
  private readonly scope: RedactionScope;
  private config: MockConfig = EMPTY_MOCK_CONFIG;
  private rules: CompiledRule[] = [];
  private nextId = 1;
  private readonly idPrefix = Math.random().toString(36).slice(2, 8);
  private disposed = false;
  private readonly warned = new Set<string>();
  private readonly ready: Promise<void>;
  private readonly kinds: Initiator[] = [];
  /** The taps' decoder for a Content-Encoding (Node's, zlib); none where bodies come decoded. */
  decoder: Decoder | undefined;
  /** The taps' source-map lookup for call-site frames (Node's); none elsewhere. */
  private mapFrame: FrameMapper | undefined;
  private removeSink: (() => void) | undefined;
  private mocks: MockPath | undefined;
  /** This run got its mock config from the inspector. */
  private live = false;
  /** This run applied the rules its last run had, before the live ones came. */
  private cachedRules = false;
  private applying: Promise<unknown> = Promise.resolve();
  /** Held fetch calls now sent: the first request seen with the key keeps the id it was shown with. */
  private readonly adopted: { key: string; id: string }[] = [];
  private readonly replays: Replay[] = [];
  /** Open WebSockets' ways to hand the app a message, by transaction id. */
  private readonly injectors = new Map<string, (data: string | Uint8Array) => void>();

  constructor(
    private readonly ctx: Ctx,
    private readonly options: NetworkOptions,
    private readonly runtime: NetworkRuntime,
  ) {
    this.maxBodyBytes = Math.min(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, MAX_BODY_BYTES_LIMIT);
    if (!(this.maxBodyBytes > 0)) throw new Error('network({ maxBodyBytes }) must be a positive number of bytes');
    this.maxMessageBytes = Math.min(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, MAX_BODY_BYTES_LIMIT);
    if (!(this.maxMessageBytes > 0)) throw new Error('network({ maxMessageBytes }) must be a positive number of bytes');
    this.callSites = options.callSite !== false;
    const redact = options.redact === false ? { headers: [] } : (options.redact ?? {});
    this.redacted = new Set((redact.headers ?? DEFAULT_REDACTED_HEADERS).map((h) => h.toLowerCase()));
    this.scope = redact.scope ?? 'all';

    ctx.handle('setMockConfig', async (config) => {
      const answer = await this.serially(() => this.applyMockConfig(config));
      this.live = true;
      writeMockCache(config, hub().preloaded);
      return answer;
    });
    // The sender loads only when the inspector first asks for a replay.
    ctx.handle('replay', async (params) => (await import('./replay.js')).sendReplay(params, this));
    ctx.handle('inject', ({ id, data, base64 }) => {
      const inject = this.injectors.get(id);
      if (!inject) throw new RequestError('handler-error', `the app has no open WebSocket ${id} (it closed)`);
      inject(base64 ? base64ToBytes(data) : data);
      return { delivered: true };
    });
    ctx.onConnectionChange((connected) => {
      if (connected) this.sendInfo();
    });
    this.removeSink = hub().add(this);
    this.ready = this.install();
    this.applyCachedRules();
  }

  /**
   * The rules the last run of this page (or preloaded process) had apply from this run's first
   * request: fetch calls wait for them (at most MOCK_HOLD_MS, and only when there are rules).
   */
  private applyCachedRules(): void {
    const cached = readMockCache(hub().preloaded);
    if (!activeRules(cached) || this.options.mocking === false) return;
    this.cachedRules = true;
    const applying = this.serially(() => this.applyMockConfig(cached!)).catch((e) => this.warn('cached mock rules', e));
    holdFetch(applying, MOCK_HOLD_MS, (method, url) => {
      // Shown pending at once; the request as it goes out (mocked or not) takes this id over.
      const id = `${this.idPrefix}-${this.nextId++}`;
      this.ctx.notify('started', {
        id,
        initiator: 'fetch',
        method,
        url: clip(url, MAX_URL),
        headers: [],
        startedAt: Date.now(),
      });
      return () => this.adopted.push({ key: replayKey(method, url), id });
    });
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.applying.then(task, task);
    this.applying = run.catch(() => {});
    return run;
  }

  api(): NetworkPluginApi {
    return {
      ready: this.ready,
      mockConfig: () => this.config,
      dispose: () => this.dispose(),
    };
  }

  private install(): Promise<void> {
    const installed = this.runtime.install(hub());
    if (!(installed instanceof Promise)) {
      if (installed) this.took(installed);
      return Promise.resolve();
    }
    return installed.then(
      (late) => {
        if (late) this.took(late);
        else console.warn('[porthole] network: this runtime has neither fetch/XMLHttpRequest wrappers nor Node hooks');
      },
      (e) => console.warn(`[porthole] network: capture could not be installed: ${(e as Error).message}`),
    );
  }

  private took(installed: { kinds: Initiator[]; decoder?: Decoder; mapFrame?: FrameMapper }): void {
    this.kinds.push(...installed.kinds);
    this.decoder = installed.decoder;
    this.mapFrame = installed.mapFrame;
    if (this.ctx.connected) this.sendInfo();
  }

  private sendInfo(): void {
    this.ctx.notify('agentInfo', {
      interceptors: this.kinds,
      maxBodyBytes: this.maxBodyBytes,
      maxMessageBytes: this.maxMessageBytes,
      redaction: { headers: [...this.redacted], scope: this.scope },
    });
  }

  private async applyMockConfig(config: MockConfig): Promise<{ revision: number }> {
    if (!Array.isArray(config.rules) || typeof config.revision !== 'number' || typeof config.enabled !== 'boolean') {
      throw new RequestError('invalid-params', 'invalid setMockConfig params: expected { revision, enabled, rules[] }');
    }
    const wouldMock = config.enabled && config.rules.some((r) => r.enabled);
    if (this.options.mocking === false && wouldMock) {
      throw new RequestError(
        'handler-error',
        'mocking is turned off in this app (network({ mocking: false })); remove that option to allow mock rules',
      );
    }
    let compiled: CompiledRule[] = [];
    try {
      // The matcher (RE2) and the interception library load only once the app has a rule.
      if (config.rules.length > 0) compiled = await this.runtime.compile(config);
    } catch (e) {
      throw new RequestError('handler-error', `the app cannot use this mock config: ${(e as Error).message}`);
    }
    this.config = config;
    this.rules = compiled;
    if (wouldMock && !this.disposed) {
      if (!this.mocks) {
        const mocks = await this.runtime.mockPath(this, () => ({ enabled: this.config.enabled, rules: this.rules }));
        if (this.disposed) return { revision: config.revision };
        this.mocks ??= mocks;
      }
      await this.mocks.enable();
    } else {
      this.mocks?.disable();
    }
    return { revision: config.revision };
  }

  private ignored(request: SeenRequest): boolean {
    // Upgrades the WebSocket taps do not follow (the inspector's own link is never followed).
    if (request.initiator !== 'websocket' && headerOf(request.headers, 'upgrade')) return true;
    const ignore = this.options.ignoreUrls;
    if (!ignore?.length) return false;
    const url = request.url;
    return ignore.some((p) => (typeof p === 'string' ? url.includes(p) : p.test(url)));
  }

  /** A replay about to be sent: the first request seen with its method and URL is marked as it. */
  expect(method: string, url: string, replayOf: string): Replay {
    const replay: Replay = {
      key: replayKey(method, url),
      replayOf,
      done: () => {
        const at = this.replays.indexOf(replay);
        if (at >= 0) this.replays.splice(at, 1);
      },
    };
    this.replays.push(replay);
    return replay;
  }

  /** Sink: a tap saw a request start. */
  observe(request: SeenRequest): Observation | undefined {
    if (this.disposed || this.ignored(request)) return undefined;
    const key = this.replays.length || this.adopted.length ? replayKey(request.method, request.url) : undefined;
    const at = key ? this.adopted.findIndex((a) => a.key === key) : -1;
    const id = at >= 0 ? this.adopted.splice(at, 1)[0]!.id : `${this.idPrefix}-${this.nextId++}`;
    const replay = key ? this.replays.find((r) => !r.id && r.key === key) : undefined;
    if (replay) replay.id = id;
    const t0 = request.t0 ?? performance.now();
    const startedAt = request.startedAt ?? Date.now();
    const replayOf = replay?.replayOf;
    // Methods, not closures made here: a named closure per request costs (tsx's keepNames names each).
    if (request.body) {
      const parts = this.bodyParts(request.body, request.contentType ?? headerOf(request.headers, 'content-type'));
      this.send('started', this.started(id, request, startedAt, replayOf, parts?.body), parts?.attached);
    } else {
      this.send('started', () => this.started(id, request, startedAt, replayOf, undefined));
    }
    const followed = new Followed(this, id, t0, request);
    if (request.mock) followed.mocked(request.mock);
    if (request.inject) this.injectors.set(id, request.inject);
    return followed;
  }

  private started(id: string, request: SeenRequest, startedAt: number, replayOf: string | undefined, body?: Body) {
    return {
      id,
      initiator: request.initiator,
      method: clip(request.method, 32),
      url: clip(request.url, MAX_URL),
      headers: this.headers(request.headers),
      body,
      startedAt,
      mock: request.mock,
      replayOf,
      beforeRules: !this.live && !this.cachedRules && !request.mock ? (true as const) : undefined,
      callStack: this.callSites ? siteFrames(request.site, this.mapFrame) : undefined,
    };
  }

  /**
   * body(), but a large body's bytes are left for the inspector to encode (attachment.ts): the Body
   * then has an empty `data`, and `attached` its bytes, to go with the notification at `body.data`.
   */
  bodyParts(
    seen: SeenBody,
    contentType: string | undefined,
    declared?: number,
    /** The Content-Encoding the bytes still have, when they could not be decoded (`undecoded`). */
    coding?: string,
    undecoded?: boolean,
  ): BodyParts | undefined {
    if (undecoded && coding) {
      // Kept as the bytes they are (base64), saying which coding they are in: never decoded as text.
      const parts = this.bodyParts(seen, 'application/octet-stream');
      if (parts?.body) parts.body = { ...parts.body, contentType, coding: clip(coding.trim(), 64) };
      return parts;
    }
    if (seen.text !== undefined || seen.kept < ATTACH_BYTES) return { body: this.body(seen, contentType, declared) };
    if (this.ctx.unsentBytes > MAX_UNSENT_BYTES) {
      // The inspector is behind: its unsent bytes stay bounded in the app, the body is recorded as cut at 0.
      this.warn(
        'large body',
        `the inspector is behind (over ${MAX_UNSENT_BYTES >> 20} MiB not yet sent to it); such bodies are recorded as cut at 0 bytes`,
      );
      const none: SeenBody = { chunks: [], kept: 0, total: seen.total, cut: true };
      return { body: this.body(none, contentType, declared ?? seen.total) };
    }
    let chunks = seen.chunks;
    let size = seen.kept;
    let cut = seen.cut;
    let blob = seen.blob;
    if (size > this.maxBodyBytes) {
      chunks = [concatBytes(seen.chunks, seen.kept).subarray(0, this.maxBodyBytes)];
      size = this.maxBodyBytes;
      cut = true;
      blob = blob?.slice(0, size);
    }
    const joined = () => concatBytes(chunks, size);
    const planned = planBody(size, joined, cut, contentType, cut ? (declared ?? seen.total) : undefined);
    if (!planned) return { body: this.body(seen, contentType, declared) };
    return { body: planned.body, attached: { path: ['body', 'data'], as: planned.as, chunks, size, blob } };
  }

  /** Turns seen bytes into a Body within this agent's cap (the taps keep the largest cap of all agents). */
  body(seen: SeenBody, contentType: string | undefined, declared?: number): Body | undefined {
    if (seen.text !== undefined) {
      const text = seen.text.length > this.maxBodyBytes ? seen.text.slice(0, this.maxBodyBytes) : seen.text;
      const cut = seen.cut || text !== seen.text;
      return {
        encoding: 'text',
        data: text,
        size: text.length,
        truncated: cut,
        totalSize: cut ? declared : text.length,
        contentType,
      };
    }
    if (seen.total === 0 && !seen.cut) return undefined;
    let bytes = concatBytes(seen.chunks, seen.kept);
    let cut = seen.cut;
    if (bytes.byteLength > this.maxBodyBytes) {
      bytes = bytes.subarray(0, this.maxBodyBytes);
      cut = true;
    }
    return encodeBody(bytes, cut, contentType, cut ? (declared ?? seen.total) : undefined);
  }

  headers(headers: RawHeaders): Header[] {
    const out: Header[] = [];
    const hide = this.scope === 'all';
    for (const [name, value] of headers) {
      if (out.length >= MAX_HEADERS) break;
      const lower = name.toLowerCase();
      out.push({ name: clip(lower, 1024), value: hide && this.redacted.has(lower) ? REDACTED : clip(value, 65_536) });
    }
    return out;
  }

  /**
   * A notification the inspector would refuse is dropped with a warning, never thrown at the app.
   * Params given as a function are made when the notification leaves (agent/outbox.ts), not on the
   * way of the app's request: it must only read what no longer changes.
   */
  send<M extends NotificationMethod<NetworkProtocol['toHost']>>(
    method: M,
    params: NotificationParams<NetworkProtocol['toHost'], M> | (() => NotificationParams<NetworkProtocol['toHost'], M>),
    attached?: Attached,
  ): void {
    if (this.disposed) return;
    try {
      this.ctx.notify(method, params, attached);
    } catch (e) {
      this.warn(method, e);
    }
  }

  /** A transaction ended: nothing more can be handed to it. */
  ended(id: string): void {
    this.injectors.delete(id);
  }

  sendMessages(_id: string, make: () => { id: string; messages: SocketMessageIn[] }): void {
    this.send('messages', make);
  }

  sendChunk(_id: string, make: () => BodyChunk): void {
    this.send('chunk', make);
  }

  warn(what: string, error: unknown): void {
    if (this.warned.has(what)) return;
    this.warned.add(what);
    console.warn(`[porthole] network: a ${what} could not be captured: ${(error as Error)?.message ?? error}`);
  }

  private dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.removeSink?.();
    this.mocks?.disable();
  }
}

/** One request this agent follows, from the tap's first sight to its end. */
class Followed implements Observation {
  private done = false;
  private mock: MockMark | undefined;
  private responseHeaders: RawHeaders = [];
  /** bodyHeaders(responseHeaders), once the body needs them. */
  private facts: ReturnType<typeof bodyHeaders> | undefined;
  /** HTTP/2 trailers (gRPC's grpc-status), as sent with the end. */
  private trailers: RawHeaders | undefined;
  private replayTime: number | undefined;
  private respondedAt = 0;
  private messages: MessageQueue | undefined;
  /** The response body while it arrives in chunks (held, then shown live: streams.ts). */
  private arriving: LiveBody | undefined;

  constructor(
    private readonly agent: NetworkAgent,
    private readonly id: string,
    private readonly t0: number,
    private readonly request: SeenRequest,
  ) {}

  private elapsed(): number {
    return round((this.replayTime ?? performance.now()) - this.t0);
  }

  at(time: number | undefined): void {
    this.replayTime = time;
  }

  sent(headers: SentHeaders | undefined, body: SeenBody | undefined): void {
    if (this.done || (!headers && !body)) return;
    const agent = this.agent;
    const id = this.id;
    if (!body)
      return agent.send('requestSent', () => ({ id, headers: headers && agent.headers(sentHeaders(headers)) }));
    const raw = headers && sentHeaders(headers);
    const parts = agent.bodyParts(body, body.type ?? headerOf(raw ?? this.request.headers, 'content-type'));
    agent.send('requestSent', { id, headers: raw && agent.headers(raw), body: parts?.body }, parts?.attached);
  }

  response(r: SeenResponse): void {
    if (this.done) return;
    this.responseHeaders = r.headers;
    this.facts = undefined;
    this.respondedAt = this.replayTime ?? performance.now();
    const { agent, id, mock } = this;
    const waitMs = this.elapsed();
    agent.send('response', () => ({
      id,
      status: r.status,
      statusText: clip(r.statusText, 1024),
      headers: agent.headers(r.headers),
      waitMs,
      httpVersion: r.httpVersion ? clip(r.httpVersion, 16) : undefined,
      remoteAddress: r.remoteAddress ? clip(r.remoteAddress, 64) : undefined,
      remotePort: r.remotePort,
      redirected: r.redirected || undefined,
      url: r.redirected && r.url ? clip(r.url, MAX_URL) : undefined,
      mock,
    }));
  }

  chunk(seen: SeenBody, fresh?: Uint8Array, encoded = false): void {
    if (this.done) return;
    this.arriving ??= new LiveBody(this.agent, this.id, this.bodyFacts().type, this.respondedAt);
    this.arriving.arrived(seen, fresh, encoded);
  }

  message(m: SeenMessage): void {
    if (this.done) return;
    (this.messages ??= new MessageQueue(this.agent, this.id)).push(m);
  }

  complete(end: SeenEnd): void {
    if (this.done) return;
    this.done = true;
    this.arriving?.stop();
    this.agent.ended(this.id);
    this.trailers = end.trailers;
    const durationMs = end.endedAt === undefined ? this.elapsed() : round(end.endedAt - this.t0);
    const close = end.close && closeOf(end.close);
    const seen = end.body;
    const facts = this.bodyFacts();
    const type = facts.type;
    const coding = end.decoded ? undefined : facts.coding;
    const length = Number(facts.length);
    const declared = !coding && Number.isFinite(length) && length > 0 ? length : undefined;
    const encodedSize = end.decoded || !seen ? undefined : seen.total;
    // A socket's last messages go before its close.
    if (!seen)
      return this.messages
        ? this.messages.afterSent(() => this.end(durationMs, encodedSize, close))
        : this.end(durationMs, encodedSize, close);
    if (seen.text !== undefined && seen.text.length >= ATTACH_BYTES && inPage()) {
      later(() => this.end(durationMs, encodedSize, close, textParts(this.agent.body(seen, type, declared))));
      return;
    }
    if (!coding || /^\s*identity\s*$/i.test(coding)) {
      const { agent, id } = this;
      // A small body is encoded when its notification leaves; a large one after the app's own
      // handlers for this moment have run (the end of the body reaches the app first).
      if (seen.kept < ATTACH_BYTES) {
        return agent.send('completed', () => ({
          id,
          body: agent.bodyParts(seen, type, declared)?.body,
          durationMs,
          encodedSize,
          trailers: this.trailers && agent.headers(this.trailers),
        }));
      }
      if (seen.kept < LATER_BYTES)
        return this.end(durationMs, encodedSize, close, this.agent.bodyParts(seen, type, declared));
      later(() => this.end(durationMs, encodedSize, close, this.agent.bodyParts(seen, type, declared)));
      return;
    }
    // Still in its Content-Encoding (Node's taps): decoded apart from the app (coded-body.ts).
    codedBody(this.agent, seen, coding, type, (parts) => this.end(durationMs, encodedSize, close, parts));
  }

  /** The completed notification, with the body's parts when it has one. */
  private end(durationMs: number, encodedSize: number | undefined, close: SocketClose | undefined, parts?: BodyParts) {
    const trailers = this.trailers && this.agent.headers(this.trailers);
    this.agent.send(
      'completed',
      { id: this.id, body: parts?.body, durationMs, encodedSize, close, trailers },
      parts?.attached,
    );
  }

  fail(error: unknown, timedOut?: boolean, end?: SeenEnd): void {
    if (this.done) return;
    this.done = true;
    this.arriving?.stop();
    this.agent.ended(this.id);
    const { message, code } = describeError(error);
    const seen = end?.body;
    const facts = this.bodyFacts();
    const body = seen && seen.total > 0 ? this.agent.body({ ...seen, cut: true }, facts.type) : undefined;
    const durationMs = this.elapsed();
    const send = () =>
      this.agent.send('failed', {
        id: this.id,
        message: message.slice(0, 4096),
        code,
        durationMs,
        timedOut: timedOut || undefined,
        mock: this.mock,
        body,
        close: end?.close && closeOf(end.close),
        unknown: (error as { unknown?: boolean } | undefined)?.unknown || undefined,
      });
    // A socket's last messages go before its end.
    if (this.messages) this.messages.afterSent(send);
    else send();
  }

  mocked(mark: MockMark): void {
    this.mock = mark;
  }

  private bodyFacts(): ReturnType<typeof bodyHeaders> {
    this.facts ??= bodyHeaders(this.responseHeaders);
    return this.facts;
  }
}

function closeOf(c: SeenClose): SocketClose {
  return { code: c.code, reason: clip(c.reason, 1024), wasClean: c.wasClean };
}

/** headerOf() for the three headers a response body needs, in one pass. */
function bodyHeaders(headers: RawHeaders): { type?: string; coding?: string; length?: string } {
  let type: string | undefined;
  let coding: string | undefined;
  let length: string | undefined;
  for (const [name, value] of headers) {
    if (name.length < 12 || name.length > 16) continue;
    const lower = name.toLowerCase();
    if (lower === 'content-type') type ??= value;
    else if (lower === 'content-encoding') coding ??= value;
    else if (lower === 'content-length') length ??= value;
  }
  return { type, coding, length };
}

export function describeError(error: unknown): { message: string; code?: string } {
  if (!(error instanceof Error)) {
    const e = error as { message?: unknown; name?: unknown } | undefined;
    if (e && typeof e.message === 'string') return { message: `${e.name ? `${e.name}: ` : ''}${e.message}` };
    return { message: String(error) };
  }
  const parts = [error.message || error.name];
  let code = (error as { code?: unknown }).code;
  let cause = (error as { cause?: unknown }).cause;
  for (let depth = 0; cause instanceof Error && depth < 4; depth++) {
    if (cause.message && !parts.includes(cause.message)) parts.push(cause.message);
    code ??= (cause as { code?: unknown }).code;
    cause = (cause as { cause?: unknown }).cause;
  }
  if (error.name === 'AbortError') parts[0] = `aborted: ${error.message}`;
  else if (error.name === 'TimeoutError') parts[0] = `timed out: ${error.message}`;
  return { message: parts.join(': '), code: typeof code === 'string' ? code.slice(0, 64) : undefined };
}

const LATER_BYTES = 64 * 1024;
/** Past this many bytes waiting to be written to the inspector, large bodies are not sent (recorded as cut). */
const MAX_UNSENT_BYTES = 64 * 1024 * 1024;

export interface BodyParts {
  body: Body | undefined;
  attached?: Attached;
}
const later: (task: () => void) => void =
  typeof (globalThis as { setImmediate?: unknown }).setImmediate === 'function'
    ? (task) => (globalThis as unknown as { setImmediate(t: () => void): void }).setImmediate(task)
    : (task) => setTimeout(task, 0);

interface Replay {
  key: string;
  replayOf: string;
  id?: string;
  done(): void;
}

const replayKey = (method: string, url: string) => `${method.toUpperCase()} ${url.split('#')[0]}`;

const round = (ms: number) => Math.round(ms * 100) / 100;
const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);
