import { answeringSession, matchable, type Session } from './mock-http2.js';
import { builtin } from './node-builtins.js';
import { BodyCollector, type Hub, type Observation, type RawHeaders } from './observed.js';

// node:http2's client (gRPC-js, got with http2: true, hand-written sessions), observed: the tap wraps
// ClientHttp2Session's request() on its prototype (reached through a session over a stream that never
// connects, since the class is not exported) and, on each stream it follows, its write/end (the body
// as the app wrote it), emit (its response headers, errors and close) and push (the response bytes
// as the session hands them over, however the app reads them). Sessions and sockets stay the app's.
// While a mock rule matches a request, the stream is opened on the rule's session (mock-http2.ts).

interface NodeHttp2 {
  connect(authority: string, options: object): Http2Session;
}

interface Http2Session extends Session {
  socket?: { remoteAddress?: string; remotePort?: number } | null;
}

interface Http2Stream {
  destroy(error?: Error): void;
  sentHeaders?: Record<string, string | string[] | undefined>;
  rstCode?: number;
  emit(event: string | symbol, ...args: unknown[]): boolean;
  push(chunk: unknown, encoding?: string): boolean;
  write(...args: unknown[]): boolean;
  end(...args: unknown[]): unknown;
}

interface Followed {
  obs: Observation;
  session: Http2Session;
  body: BodyCollector;
  resBody: BodyCollector;
  sent: boolean;
  responded: boolean;
  /** The answer's end was pushed; the outcome is given a tick later. */
  ended: boolean;
  done: boolean;
  trailers?: RawHeaders;
}

type Stream = (...args: unknown[]) => unknown;

export function installHttp2Tap(hub: Hub): void {
  if (hub.taps.has('http2')) return;
  const proto = sessionPrototype();
  if (!proto || typeof proto.request !== 'function') return;
  hub.taps.add('http2');
  const request = proto.request as Stream;
  const followed = new WeakMap<object, Followed>();

  proto.request = function request_(this: Http2Session, ...args: unknown[]) {
    if (!hub.active) return request.apply(this, args);
    const t0 = performance.now();
    const startedAt = Date.now();
    const mock = mocked(this, args[0]);
    const stream = request.apply(mock?.session ?? this, args) as Http2Stream;
    try {
      mock?.opened(stream);
      const f = follow(mock?.session ?? this, stream, t0, startedAt);
      if (mock) f?.obs.mocked(mock.mark);
    } catch {
      // the capture's problem, never the app's
    }
    return stream;
  };

  /** The session that answers for a mock rule, while one matches. */
  const mocked = (session: Http2Session, headers: unknown) => {
    // A closed session's request() throws, as without Porthole.
    if (!hub.mockHttp2 || session.closed || session.destroyed) return undefined;
    try {
      const request = matchable(session, headers);
      const answer = request && hub.mockHttp2(request);
      const line = answer && answeringSession(session, answer);
      return line && { ...line, mark: answer.mark };
    } catch {
      return undefined;
    }
  };

  const follow = (session: Http2Session, stream: Http2Stream, t0: number, startedAt: number) => {
    const sent = stream.sentHeaders ?? {};
    const pseudo = (name: string) => String(sent[name] ?? '');
    const method = pseudo(':method') || 'GET';
    const url = `${pseudo(':scheme') || 'https'}://${pseudo(':authority')}${pseudo(':path') || '/'}`;
    const obs = hub.observe({ initiator: 'http2', method, url, headers: plainHeaders(sent), t0, startedAt });
    if (!obs) return;
    const f: Followed = {
      obs,
      session,
      body: new BodyCollector(hub.maxBodyBytes),
      resBody: new BodyCollector(hub.maxBodyBytes),
      sent: false,
      responded: false,
      ended: false,
      done: false,
    };
    followed.set(stream, f);
    hub.byRaw.set(stream, obs);
    const { write, end, emit, push } = stream;
    stream.write = function write_(this: Http2Stream, ...a: unknown[]) {
      copy(f, a[0], a[1]);
      return write.apply(this, a);
    };
    stream.end = function end_(this: Http2Stream, ...a: unknown[]) {
      copy(f, a[0], a[1]);
      const result = end.apply(this, a);
      markSent(f);
      return result;
    };
    stream.emit = function emit_(this: Http2Stream, event: string | symbol, ...a: unknown[]) {
      try {
        onEvent(this, f, event, a[0]);
      } catch {
        // the capture's problem, never the app's
      }
      return emit.call(this, event, ...a);
    };
    stream.push = function push_(this: Http2Stream, chunk: unknown, _encoding?: string) {
      try {
        if (!f.done && !f.ended && chunk === null) {
          markSent(f);
          f.ended = true;
          // A reset ends the readable too: its code is known by then. The answer's headers of a
          // trailers-only answer are emitted on the next tick: the outcome waits for them.
          const code = this.rstCode;
          queueMicrotask(() => {
            if (f.done) return;
            f.done = true;
            const body = f.resBody.seen.total > 0 ? f.resBody.seen : undefined;
            // The error the app gets, when the stream was destroyed with one (a mock rule's ECONNRESET).
            const error = (this as { errored?: unknown }).errored ?? resetError(code);
            if (code) f.obs.fail(error, false, body && { body: { ...body, cut: true } });
            else f.obs.complete({ body, trailers: f.trailers });
          });
        } else if (!f.done && chunk instanceof Uint8Array) {
          f.resBody.add(chunk, true);
          f.obs.chunk(f.resBody.seen, chunk, true);
        }
      } catch {
        // the capture's problem, never the app's
      }
      // biome-ignore lint/complexity/noArguments: passes the call on as it came
      return push.apply(this, arguments as unknown as [unknown, string?]);
    };
    // A stream made with endStream (a GET) has no body to wait for.
    if ((stream as { writableEnded?: boolean }).writableEnded) markSent(f);
    return f;
  };

  const copy = (f: Followed, chunk: unknown, encoding: unknown) => {
    if (f.sent || chunk == null || typeof chunk === 'function') return;
    if (typeof chunk === 'string') {
      const enc = typeof encoding === 'string' ? encoding : 'utf8';
      const B = (globalThis as { Buffer?: { from(s: string, e: string): Uint8Array } }).Buffer;
      f.body.add(B ? B.from(chunk, enc) : new TextEncoder().encode(chunk));
    } else if (chunk instanceof Uint8Array) f.body.add(chunk, true);
  };

  const markSent = (f: Followed) => {
    if (f.sent) return;
    f.sent = true;
    f.obs.sent(undefined, f.body.seen.total > 0 ? f.body.seen : undefined);
  };

  const onEvent = (stream: Http2Stream, f: Followed, event: string | symbol, arg: unknown) => {
    if (f.done) return;
    if (event === 'response' || (event === 'trailers' && !f.responded)) {
      // A trailers-only answer (gRPC's failures) has its status in the one block it sends.
      f.responded = true;
      markSent(f);
      const headers = (arg ?? {}) as Record<string, string | string[] | undefined>;
      f.obs.response({
        status: Number(headers[':status'] ?? 200),
        statusText: '',
        headers: plainHeaders(headers),
        httpVersion: '2.0',
        remoteAddress: f.session.socket?.remoteAddress,
        remotePort: f.session.socket?.remotePort,
      });
    } else if (event === 'trailers') {
      f.trailers = plainHeaders((arg ?? {}) as Record<string, string | string[] | undefined>);
    } else if (f.ended) {
      // the outcome is on its way
    } else if (event === 'error') {
      markSent(f);
      f.done = true;
      f.obs.fail(arg, false, f.resBody.seen.total ? { body: { ...f.resBody.seen, cut: true } } : undefined);
    } else if (event === 'close') {
      markSent(f);
      f.done = true;
      const error = resetError(stream.rstCode);
      f.obs.fail(error, false, f.resBody.seen.total ? { body: { ...f.resBody.seen, cut: true } } : undefined);
    }
  };
}

function resetError(code: number | undefined): Error {
  const message = code
    ? `the stream was reset (RST_STREAM code ${code})`
    : 'the stream was closed before its answer ended';
  return Object.assign(new Error(message), { code: code === 8 ? 'NGHTTP2_CANCEL' : 'ERR_HTTP2_STREAM_ERROR' });
}

/** ClientHttp2Session.prototype, from a session whose stream never connects (destroyed at once). */
function sessionPrototype(): { request?: unknown } | undefined {
  const http2 = builtin<NodeHttp2>('node:http2');
  const stream = builtin<{ Duplex: new (options: object) => object }>('node:stream');
  if (!http2 || !stream) return undefined;
  try {
    const session = http2.connect('http://porthole.invalid', {
      createConnection: () =>
        new stream.Duplex({
          read() {},
          write(_c: unknown, _e: unknown, cb: () => void) {
            cb();
          },
        }),
    });
    session.on('error', () => {});
    const proto = Object.getPrototypeOf(session) as { request?: unknown };
    session.destroy();
    return proto;
  } catch {
    return undefined;
  }
}

/** Headers without HTTP/2's pseudo-headers (:method, :path, :status …), values as strings. */
function plainHeaders(headers: Record<string, string | string[] | number | undefined>): RawHeaders {
  const out: RawHeaders = [];
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) out.push([name, String(v)]);
    else out.push([name, String(value)]);
  }
  return out;
}
