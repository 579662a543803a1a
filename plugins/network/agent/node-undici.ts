import { byteLength } from '../../../shared/protocol/frame.js';
import type { NodeDiagnosticsChannel, NodeSocket } from './node-builtins.js';
import {
  BodyCollector,
  type Handshake,
  type Hub,
  headerOf,
  type Observation,
  parseHeaderBlock,
  type RawHeaders,
} from './observed.js';

// undici, observed through its diagnostics channels: Node's global fetch (undici inside Node) and the
// undici package's request/stream/fetch/dispatch publish to the same process-wide channels. The
// channels say when a request was created, its headers as sent, its response headers, its end and
// its error; the body bytes come from the request's own onData, wrapped on that one request (the
// channels of undici 6 carry no body), and the request body from its onBodySent. The dispatcher,
// its sockets and its pool stay the app's.

interface UndiciRequest {
  method: string;
  origin: string | { toString(): string };
  path: string;
  headers: unknown[] | string | Record<string, string | string[]> | Iterable<[string, unknown]> | null | undefined;
  body?: unknown;
  onData?: (chunk: Uint8Array) => unknown;
  onBodySent?: (chunk: Uint8Array | string) => unknown;
  contentLength?: number | null;
  /** 'websocket' for a WebSocket handshake (Node 22+'s WebSocket, the agent's own link among them). */
  upgrade?: unknown;
  onUpgrade?: (statusCode: number, headers: unknown[], socket: NodeSocket) => unknown;
}

interface Followed {
  obs: Observation;
  body: BodyCollector;
  requestBody?: BodyCollector;
  sentHeaders?: () => RawHeaders;
  socket?: NodeSocket;
  /** '2.0' when the request went over an HTTP/2 session (undici's allowH2). */
  httpVersion?: string;
  sent: boolean;
  done: boolean;
  /** The request's own onData and onBodySent, called after the tap's. */
  onData?: (chunk: Uint8Array) => unknown;
  onBodySent?: (chunk: Uint8Array | string) => unknown;
  /** A WebSocket's handshake (websocket-tap follows the socket; this reports its headers). */
  handshake?: Handshake;
  onUpgrade?: UndiciRequest['onUpgrade'];
}

export function installUndiciTap(hub: Hub, dc: NodeDiagnosticsChannel): void {
  const followed = new WeakMap<object, Followed>();
  if (hub.taps.has('undici')) return;
  hub.taps.add('undici');

  const on = (name: string, listener: (message: Record<string, unknown>) => void) => {
    dc.channel(name).subscribe((message) => {
      try {
        listener(message as Record<string, unknown>);
      } catch {
        // the capture's problem, never the app's
      }
    });
  };

  on('undici:request:create', ({ request }) => {
    if (!hub.active) return;
    const r = request as UndiciRequest;
    if (r.upgrade) {
      // Published inside the WebSocket's constructor, before the WebSocket tap has followed it.
      if (r.upgrade === 'websocket') queueMicrotask(() => followHandshake(r));
      return;
    }
    const headers = undiciHeaders(r.headers);
    if (headerOf(headers, 'upgrade')) return;
    const url = `${String(r.origin).replace(/\/$/, '')}${r.path}`;
    const initiator = headerOf(headers, 'sec-fetch-mode') ? 'fetch' : 'undici';
    const obs = hub.observe({ initiator, method: r.method, url, headers });
    if (!obs) return;
    const f: Followed = { obs, body: new BodyCollector(hub.maxBodyBytes), sent: false, done: false };
    followed.set(r, f);
    // The same two functions for every request (undici calls them as the request's methods).
    if (typeof r.onBodySent === 'function') {
      f.onBodySent = r.onBodySent;
      r.onBodySent = onBodySent;
    }
    if (typeof r.onData === 'function') {
      f.onData = r.onData;
      r.onData = onData;
    }
  });

  /** Node's own WebSocket's upgrade request: its headers go to the socket the WebSocket tap follows. */
  const followHandshake = (r: UndiciRequest) => {
    const url = `${String(r.origin).replace(/\/$/, '')}${r.path}`;
    const at = hub.handshakes.findIndex((h) => h.url === url);
    if (at < 0) return; // not followed (the inspector's own link, an ignored URL)
    const handshake = hub.handshakes[at]!;
    hub.handshakes.splice(at, 1);
    const f: Followed = { obs: handshake.obs, body: new BodyCollector(0), sent: false, done: false, handshake };
    followed.set(r, f);
    if (typeof r.onUpgrade === 'function') {
      f.onUpgrade = r.onUpgrade;
      r.onUpgrade = onUpgrade;
    }
  };

  function onUpgrade(this: UndiciRequest, statusCode: number, headers: unknown[], socket: NodeSocket) {
    const f = followed.get(this);
    try {
      if (f?.handshake && !f.handshake.responded) {
        f.handshake.responded = true;
        sent(f);
        f.obs.response({
          status: statusCode,
          statusText: 'Switching Protocols',
          headers: rawPairs(headers),
          httpVersion: '1.1',
          remoteAddress: socket?.remoteAddress ?? f.socket?.remoteAddress,
          remotePort: socket?.remotePort ?? f.socket?.remotePort,
        });
      }
    } catch {
      // the capture's problem, never the app's
    }
    // biome-ignore lint/complexity/noArguments: passes the call on as it came
    if (!f?.onUpgrade) return passOn(this, 'onUpgrade', arguments);
    // biome-ignore lint/complexity/noArguments: passes the call on as it came
    return f.onUpgrade.apply(this, arguments as unknown as [number, unknown[], NodeSocket]);
  }

  function onBodySent(this: UndiciRequest, chunk: Uint8Array | string) {
    const f = followed.get(this);
    // biome-ignore lint/complexity/noArguments: passes the call on as it came
    if (!f?.onBodySent) return passOn(this, 'onBodySent', arguments);
    try {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
      if (!f.sent && bytes instanceof Uint8Array)
        (f.requestBody ??= new BodyCollector(hub.maxBodyBytes)).add(bytes, true);
    } catch {
      // the capture's problem, never the app's
    }
    // biome-ignore lint/complexity/noArguments: passes the call on as it came
    return f.onBodySent.apply(this, arguments as unknown as [Uint8Array | string]);
  }

  function onData(this: UndiciRequest, chunk: Uint8Array) {
    const f = followed.get(this);
    // biome-ignore lint/complexity/noArguments: passes the call on as it came
    if (!f?.onData) return passOn(this, 'onData', arguments);
    try {
      if (!f.done && chunk instanceof Uint8Array) {
        f.body.add(chunk, true);
        f.obs.chunk(f.body.seen, chunk, true);
      }
    } catch {
      // the capture's problem, never the app's
    }
    // biome-ignore lint/complexity/noArguments: passes the call on as it came
    return f.onData.apply(this, arguments as unknown as [Uint8Array]);
  }

  const sent = (f: Followed) => {
    if (f.sent) return;
    f.sent = true;
    f.obs.sent(f.sentHeaders, f.requestBody?.seen);
  };

  on('undici:client:sendHeaders', ({ request, headers, socket }) => {
    const f = followed.get(request as object);
    if (!f || typeof headers !== 'string') return;
    f.socket = socket as NodeSocket | undefined;
    // Read now (O(1)); the block is parsed when its notification leaves.
    const r = request as UndiciRequest;
    const body = r.body;
    const length =
      typeof r.contentLength === 'number' ? r.contentLength : body instanceof Uint8Array ? body.byteLength : undefined;
    const method = r.method;
    // HTTP/2 (undici's allowH2): the block has no request line, and its pseudo-headers (:path…) are not headers.
    const h2 = (socket as { alpnProtocol?: unknown } | undefined)?.alpnProtocol === 'h2';
    if (h2) f.httpVersion = '2.0';
    const block = h2 ? `\r\n${headers}` : headers;
    f.sentHeaders = () => withFraming(parseHeaderBlock(block), method, length ?? textLength(body), body != null);
  });

  on('undici:request:bodySent', ({ request }) => {
    const f = followed.get(request as object);
    if (f) sent(f);
  });

  on('undici:request:headers', ({ request, response }) => {
    const f = followed.get(request as object);
    if (!f || f.done) return;
    if (f.handshake) {
      // A refused upgrade (any status but 101) is the socket's answer; a 101 came through onUpgrade.
      const res = response as { statusCode: number; statusText?: string; headers: unknown[] };
      if (res.statusCode === 101 || f.handshake.responded) return;
      f.handshake.responded = true;
      sent(f);
      f.obs.response({
        status: res.statusCode,
        statusText: res.statusText ?? '',
        headers: rawPairs(res.headers),
        httpVersion: '1.1',
      });
      return;
    }
    sent(f);
    const res = response as { statusCode: number; statusText?: string; headers: unknown[] };
    if (res.statusCode < 200 && res.statusCode !== 101) return;
    f.obs.response({
      status: res.statusCode,
      statusText: res.statusText ?? '',
      headers: rawPairs(res.headers),
      httpVersion: f.httpVersion ?? '1.1',
      remoteAddress: f.socket?.remoteAddress,
      remotePort: f.socket?.remotePort,
    });
  });

  on('undici:request:trailers', ({ request }) => {
    const f = followed.get(request as object);
    if (!f || f.done || f.handshake) return;
    f.done = true;
    f.obs.complete({ body: f.body.seen.total > 0 ? f.body.seen : undefined });
  });

  on('undici:request:error', ({ request, error }) => {
    const f = followed.get(request as object);
    if (!f || f.done || f.handshake) return; // a socket's failure is the WebSocket tap's to report
    sent(f);
    f.done = true;
    f.obs.fail(error, isTimeout(error));
  });
}

const PAYLOAD_METHODS = new Set(['POST', 'PUT', 'PATCH', 'QUERY', 'PROPFIND', 'PROPPATCH']);

/** The sent headers with the body's framing header, which undici writes after it publishes the rest. */
function withFraming(sent: RawHeaders, method: string, length: number | undefined, hasBody: boolean): RawHeaders {
  if (headerOf(sent, 'content-length') || headerOf(sent, 'transfer-encoding')) return sent;
  if (length !== undefined && (length > 0 || PAYLOAD_METHODS.has(method)))
    sent.push(['content-length', String(length)]);
  else if (hasBody && length === undefined) sent.push(['transfer-encoding', 'chunked']);
  else if (!hasBody && PAYLOAD_METHODS.has(method)) sent.push(['content-length', '0']);
  return sent;
}

const textLength = (body: unknown) => (typeof body === 'string' ? byteLength(body) : undefined);

/** Headers as undici takes them: a flat [name, value, …] array, [name, value] pairs (an iterable, a Headers), an object or a block. */
export function undiciHeaders(headers: UndiciRequest['headers']): RawHeaders {
  if (!headers) return [];
  if (typeof headers === 'string') return parseHeaderBlock(`\r\n${headers}`);
  const out: RawHeaders = [];
  if (Array.isArray(headers) && !Array.isArray(headers[0])) {
    for (let i = 0; i + 1 < headers.length; i += 2) addHeader(out, headers[i], headers[i + 1]);
  } else if (Symbol.iterator in headers) {
    for (const pair of headers as Iterable<[unknown, unknown]>) addHeader(out, pair[0], pair[1]);
  } else {
    for (const [n, v] of Object.entries(headers)) addHeader(out, n, v);
  }
  return out;
}

function addHeader(out: RawHeaders, n: unknown, v: unknown): void {
  if (v === undefined) return;
  if (Array.isArray(v)) for (const x of v) out.push([String(n), String(x)]);
  else out.push([String(n), String(v)]);
}

/** A tap function called on something it does not follow (taken off a request and called elsewhere): the prototype's own. */
function passOn(target: object, name: 'onData' | 'onBodySent' | 'onUpgrade', args: IArguments): unknown {
  const own = (Object.getPrototypeOf(target) as Record<string, ((...a: unknown[]) => unknown) | undefined>)[name];
  return own?.apply(target, args as unknown as unknown[]);
}

const decoder = new TextDecoder('latin1');

/** A header name or value as undici's parser gives it: a Buffer (latin1, as HTTP/1 headers are), or text. */
function headerText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!(v instanceof Uint8Array)) return String(v);
  // Node's Buffer: far cheaper for a few bytes than a TextDecoder call
  const slice = (v as { latin1Slice?: (start: number, end: number) => string }).latin1Slice;
  return typeof slice === 'function' ? slice.call(v, 0, v.byteLength) : decoder.decode(v);
}

function rawPairs(raw: unknown[]): RawHeaders {
  const out: RawHeaders = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([headerText(raw[i]), headerText(raw[i + 1])]);
  return out;
}

function isTimeout(error: unknown): boolean {
  const e = error as { name?: string; code?: string } | undefined;
  return (
    e?.name === 'TimeoutError' ||
    e?.name === 'HeadersTimeoutError' ||
    e?.name === 'BodyTimeoutError' ||
    e?.name === 'ConnectTimeoutError' ||
    e?.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e?.code === 'UND_ERR_BODY_TIMEOUT' ||
    e?.code === 'UND_ERR_CONNECT_TIMEOUT'
  );
}
