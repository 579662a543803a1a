import { makingOwnLink } from '../../../agent/websocket.js';
import {
  type NodeBuffer,
  type NodeClientRequest,
  type NodeHttp,
  type NodeIncoming,
  type NodeSocket,
  nodeBuffer,
} from './node-builtins.js';
import { followUpgraded, injectInto, wsOf } from './node-ws.js';
import {
  BodyCollector,
  callSite,
  type Hub,
  type Observation,
  parseHeaderBlock,
  type RawHeaders,
  type SeenRequest,
} from './observed.js';

// Node's http/https client, observed. Every client built on it (axios, got, node-fetch, superagent,
// http.get, https.request) makes a ClientRequest, so the tap wraps three of that class's prototype
// methods (write, end: the body as the app wrote it and the headers as they were sent) and, on each
// request it follows, the emit of the request and its response (to see events without adding
// listeners: an 'error' listener would swallow errors the app would have seen crash it) and the
// response's push (the body bytes as the parser hands them over). Sockets, agents and streams stay
// the app's: keep-alive, backpressure and timing are untouched.
//
// Node 20's `http.client.request.start` diagnostics channel fires only once the request has ended,
// too late for a streamed upload's start; the prototype is the earliest place that sees every request,
// including those made through `const { request } = require('http')` taken before capture started.

interface Followed {
  obs: Observation;
  started: boolean;
  body: BodyCollector;
  /** `started` had the headers as sent. */
  headersInStart: boolean;
  sent: boolean;
  responded: boolean;
  done: boolean;
  timedOut: boolean;
  error?: unknown;
  req: NodeClientRequest;
  /** The request's own emit before the tap's (its prototype's, as a rule). */
  emit: NodeClientRequest['emit'];
  res?: NodeIncoming;
  resBody?: BodyCollector;
  resPush?: NodeIncoming['push'];
  resEmit?: NodeIncoming['emit'];
  /** A WebSocket handshake (Upgrade: websocket): the `ws` socket it became, once upgraded. */
  socket?: boolean;
  ws?: Parameters<typeof injectInto>[0];
}

// Each request and response followed gets the same three functions (made once per tap, not per
// request); what they need of the request is on its Followed, found through this key. A request the
// tap saw but does not follow holds null: a property, where a WeakMap entry per request would be one
// more table for the app's collector to walk.
const FOLLOWED = Symbol('porthole.http.followed');
type Carrier = { [FOLLOWED]?: Followed | null };

/** Not enumerable, so spreading or inspecting the app's request shows nothing new. */
function carry(target: object, f: Followed | null): void {
  Object.defineProperty(target, FOLLOWED, { value: f, configurable: true, writable: true });
}

export function installHttpTap(hub: Hub, http: NodeHttp): void {
  if (hub.taps.has('http')) return;
  hub.taps.add('http');
  const Buffer = nodeBuffer();
  const proto = http.ClientRequest.prototype;
  const write = proto.write;
  const end = proto.end;

  // A request is followed from the first write() or end(), once that call has returned: then its
  // headers are the ones on the wire (`_header`), and after end() its whole body is known, so one
  // notification says it all.
  const begin = (
    req: NodeClientRequest,
    t0: number,
    startedAt: number,
    body: BodyCollector,
    ended: boolean,
    socket: boolean,
    site: SeenRequest['site'],
  ) => {
    const wire = typeof req._header === 'string' ? parseHeaderBlock(req._header) : undefined;
    let f: Followed | undefined;
    const obs = hub.observe({
      initiator: socket ? 'websocket' : 'http',
      method: req.method,
      url: socket ? urlOf(req).replace(/^http/i, 'ws') : urlOf(req),
      headers: wire ?? appHeaders(req),
      body: ended && wire && body.seen.total > 0 ? body.seen : undefined,
      t0,
      startedAt,
      inject: socket
        ? (data) => {
            if (!f?.ws) throw new Error('the WebSocket is not open');
            injectInto(f.ws, data);
          }
        : undefined,
      site,
    });
    if (!obs) return null;
    f = {
      obs,
      started: true,
      body,
      headersInStart: !!wire,
      sent: ended && !!wire,
      responded: false,
      done: false,
      timedOut: false,
      req,
      emit: req.emit,
      socket,
    };
    hub.byRaw.set(req, obs);
    const mark = hub.mockMarks.get(req);
    if (mark) obs.mocked(mark);
    watchRequest(req, f);
    return f;
  };

  const call = (
    req: NodeClientRequest,
    original: (...a: unknown[]) => unknown,
    args: unknown[],
    ended: boolean,
    entry: unknown,
  ) => {
    const known = (req as Carrier)[FOLLOWED];
    if (known !== undefined) {
      const result = original.apply(req, args);
      if (known) copy(known.body, known.sent, args[0], args[1]);
      return result;
    }
    carry(req, null); // seen, also when the call throws
    if (!hub.active) return original.apply(req, args);
    const upgrade = req.getHeader('upgrade');
    const socket = typeof upgrade === 'string' && upgrade.toLowerCase() === 'websocket';
    // Other upgrades, and the inspector's own link, are not followed.
    if ((upgrade && !socket) || (socket && makingOwnLink())) return original.apply(req, args);
    const t0 = performance.now();
    const startedAt = Date.now();
    const site = hub.callSites ? callSite(entry) : undefined;
    const result = original.apply(req, args);
    try {
      const body = new BodyCollector(hub.maxBodyBytes);
      copy(body, false, args[0], args[1]);
      (req as Carrier)[FOLLOWED] = begin(req, t0, startedAt, body, ended, socket, site);
    } catch {
      // the capture's problem, never the app's
    }
    return result;
  };

  proto.write = function write_(this: NodeClientRequest, ...args: unknown[]) {
    return call(this, write as (...a: unknown[]) => unknown, args, false, write_) as boolean;
  };
  proto.end = function end_(this: NodeClientRequest, ...args: unknown[]) {
    return call(this, end as (...a: unknown[]) => unknown, args, true, end_);
  };

  // `Expect: 100-continue` sends the headers when the request gets its socket, and the app writes the
  // body only on 'continue': a server that refuses it (417) is answered before any write or end.
  const onSocket = proto.onSocket;
  if (typeof onSocket === 'function') {
    proto.onSocket = function onSocket_(this: NodeClientRequest, ...args: unknown[]) {
      if ((this as Carrier)[FOLLOWED] !== undefined || !hub.active || !expectsContinue(this))
        return onSocket.apply(this, args);
      return call(this, onSocket as (...a: unknown[]) => unknown, args, false, onSocket_);
    };
  }

  const copy = (body: BodyCollector, sent: boolean, chunk: unknown, encoding: unknown) => {
    if (sent || chunk == null || typeof chunk === 'function') return;
    try {
      if (typeof chunk === 'string') {
        const enc = typeof encoding === 'string' ? encoding : 'utf8';
        body.add(Buffer ? Buffer.from(chunk, enc) : new TextEncoder().encode(chunk));
      } else if (chunk instanceof Uint8Array) {
        body.add(chunk, true);
      }
    } catch {
      // an odd chunk costs its capture, never the app's write
    }
  };

  const sendRequest = (req: NodeClientRequest, f: Followed) => {
    if (f.sent) return;
    f.sent = true;
    const block = req._header;
    const header = !f.headersInStart && typeof block === 'string' ? () => parseHeaderBlock(block) : undefined;
    f.obs.sent(header, f.body.seen.total > 0 ? f.body.seen : undefined);
  };

  function requestEmit(this: NodeClientRequest, event: string | symbol, arg: unknown) {
    const f = (this as Carrier | undefined)?.[FOLLOWED];
    // biome-ignore lint/complexity/noArguments: passes the call on as it came, without copying it
    if (!f) return passOn(this, arguments);
    if (event === 'upgrade' && f.socket && !f.done) {
      // biome-ignore lint/complexity/noArguments: the upgraded socket is the event's second argument
      const socket = arguments[2] as (NodeSocket & { on?: (...a: unknown[]) => unknown }) | undefined;
      let restore: (() => void) | undefined;
      try {
        restore = upgraded(f, arg as NodeIncoming, socket);
      } catch {
        // the capture's problem, never the app's
      }
      try {
        // biome-ignore lint/complexity/noArguments: passes the call on as it came, without copying it
        return f.emit.apply(this, arguments as unknown as [string | symbol, ...unknown[]]);
      } finally {
        try {
          restore?.();
        } catch {
          // the capture's problem, never the app's
        }
      }
    }
    try {
      onRequestEvent(f.req, f, event, arg);
    } catch {
      // the capture's problem, never the app's
    }
    // biome-ignore lint/complexity/noArguments: passes the call on as it came, without copying it
    return f.emit.apply(this, arguments as unknown as [string | symbol, ...unknown[]]);
  }

  const watchRequest = (req: NodeClientRequest, f: Followed) => {
    (req as Carrier)[FOLLOWED] = f;
    req.emit = requestEmit;
  };

  const onRequestEvent = (req: NodeClientRequest, f: Followed, event: string | symbol, arg: unknown) => {
    if (f.done) return;
    switch (event) {
      case 'response':
        sendRequest(req, f);
        f.responded = true;
        watchResponse(req, f, arg as NodeIncoming);
        break;
      case 'finish':
        sendRequest(req, f);
        break;
      case 'timeout':
        f.timedOut = true;
        break;
      case 'error': {
        sendRequest(req, f);
        finish(f);
        // After the response began, what came of its body stays with the failure.
        const seen = f.resBody?.seen;
        f.obs.fail(arg, f.timedOut || isTimeout(arg), seen?.total ? { body: { ...seen, cut: true } } : undefined);
        break;
      }
      case 'close':
        if (!f.responded) {
          sendRequest(req, f);
          finish(f);
          f.obs.fail(aborted('the request was closed before a response arrived'), f.timedOut);
        }
        break;
    }
  };

  /**
   * The handshake was answered: reported now, and the socket followed once the app's listener has
   * handed it to its WebSocket. `ws` emits 'open' inside that listener, where the app may already
   * send: the `ws` socket is caught as soon as ws marks the net.Socket with it (its first `on` call
   * after), and the returned function follows whatever socket it became when the listener is done.
   */
  const upgraded = (
    f: Followed,
    res: NodeIncoming,
    socket: (NodeSocket & { on?: (...a: unknown[]) => unknown }) | undefined,
  ) => {
    sendRequest(f.req, f);
    f.responded = true;
    f.obs.response({
      status: res.statusCode ?? 101,
      statusText: res.statusMessage ?? '',
      headers: pairs(res.rawHeaders),
      httpVersion: res.httpVersion,
      remoteAddress: socket?.remoteAddress,
      remotePort: socket?.remotePort,
    });
    finish(f); // the request's part is over; the socket's messages and close are node-ws's
    let followed = false;
    const follow = () => {
      followed = true;
      f.ws = followUpgraded(f.obs, socket, () => hub.maxMessageBytes);
    };
    const on = socket?.on;
    if (!socket || typeof on !== 'function' || Object.hasOwn(socket, 'on')) return () => follow();
    Object.defineProperty(socket, 'on', {
      configurable: true,
      writable: true,
      value: function on_(this: unknown, ...args: unknown[]) {
        if (!followed && wsOf(socket)) {
          delete (socket as { on?: unknown }).on;
          follow();
        }
        return on.apply(this, args);
      },
    });
    return () => {
      if (Object.hasOwn(socket, 'on')) delete (socket as { on?: unknown }).on;
      if (!followed) follow();
    };
  };

  const watchResponse = (req: NodeClientRequest, f: Followed, res: NodeIncoming) => {
    const socket = req.socket as NodeSocket | null | undefined;
    f.obs.response({
      status: res.statusCode ?? 0,
      statusText: res.statusMessage ?? '',
      headers: pairs(res.rawHeaders),
      httpVersion: res.httpVersion,
      remoteAddress: socket?.remoteAddress,
      remotePort: socket?.remotePort,
    });
    f.res = res;
    f.resBody = new BodyCollector(hub.maxBodyBytes);
    f.resPush = res.push;
    f.resEmit = res.emit;
    carry(res, f);
    res.push = responsePush;
    res.emit = responseEmit;
  };

  function responsePush(this: NodeIncoming, chunk: unknown, _encoding?: string) {
    const f = (this as Carrier | undefined)?.[FOLLOWED];
    // biome-ignore lint/complexity/noArguments: passes the call on as it came, without copying it
    if (!f?.resPush) return passOn(this, arguments, 'push');
    try {
      if (!f.done) {
        if (chunk === null) {
          // The end of the body, unless it broke off: then its 'error' or 'close' says how (Node
          // fails a response cut by its socket, then may end it as a body delimited by the close).
          if (f.res?.complete !== false && !(f.res as { errored?: unknown } | undefined)?.errored) {
            finish(f);
            f.obs.complete({ body: f.resBody!.seen.total > 0 ? f.resBody!.seen : undefined });
          }
        } else if (chunk instanceof Uint8Array) {
          f.resBody!.add(chunk, true);
          f.obs.chunk(f.resBody!.seen, chunk, true);
        }
      }
    } catch {
      // the capture's problem, never the app's
    }
    // biome-ignore lint/complexity/noArguments: passes the call on as it came, without copying it
    return f.resPush!.apply(this, arguments as unknown as [unknown, string?]);
  }

  function responseEmit(this: NodeIncoming, event: string | symbol, arg: unknown) {
    const f = (this as Carrier | undefined)?.[FOLLOWED];
    // biome-ignore lint/complexity/noArguments: passes the call on as it came, without copying it
    if (!f?.resEmit) return passOn(this, arguments);
    try {
      if (!f.done && event === 'error') {
        finish(f);
        f.obs.fail(arg, f.timedOut || isTimeout(arg), cutOf(f));
      } else if (!f.done && event === 'close' && !f.res!.complete) {
        finish(f);
        f.obs.fail(aborted('the response was closed before it ended'), f.timedOut, cutOf(f));
      }
    } catch {
      // the capture's problem, never the app's
    }
    // biome-ignore lint/complexity/noArguments: passes the call on as it came, without copying it
    return f.resEmit!.apply(this, arguments as unknown as [string | symbol, ...unknown[]]);
  }

  const finish = (f: Followed) => {
    f.done = true;
  };
}

/** A tap function called on something it does not follow (taken off a request and called elsewhere): the prototype's own. */
function passOn(target: unknown, args: IArguments, name: 'emit' | 'push' = 'emit'): never {
  const own = (Object.getPrototypeOf(target) as Record<string, (...a: unknown[]) => unknown>)[name]!;
  return own.apply(target, args as unknown as unknown[]) as never;
}

/** What came of a response body that broke off. */
function cutOf(f: Followed) {
  return { body: f.resBody!.seen.total > 0 ? { ...f.resBody!.seen, cut: true } : undefined };
}

function urlOf(req: NodeClientRequest): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(req.path)) return req.path; // a proxy request's absolute form
  const host = req.getHeader('host');
  return `${req.protocol ?? 'http:'}//${typeof host === 'string' ? host : (req.host ?? 'localhost')}${req.path}`;
}

function appHeaders(req: NodeClientRequest): RawHeaders {
  const out: RawHeaders = [];
  for (const name of req.getRawHeaderNames()) {
    const value = req.getHeader(name);
    if (Array.isArray(value)) for (const v of value) out.push([name, String(v)]);
    else if (value !== undefined) out.push([name, String(value)]);
  }
  return out;
}

function pairs(raw: string[]): RawHeaders {
  const out: RawHeaders = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

function aborted(message: string): Error {
  return Object.assign(new Error(message), { code: 'ABORTED' });
}

function isTimeout(error: unknown): boolean {
  const e = error as { name?: string; code?: string; message?: string } | undefined;
  return (
    e?.name === 'TimeoutError' ||
    e?.code === 'ETIMEDOUT' ||
    e?.code === 'ESOCKETTIMEDOUT' ||
    /\btime(d)?\s?out\b/i.test(e?.message ?? '')
  );
}

export type { NodeBuffer };

function expectsContinue(req: NodeClientRequest): boolean {
  try {
    return /100-continue/i.test(String(req.getHeader('expect') ?? ''));
  } catch {
    return false;
  }
}
