import { ATTACH_BYTES } from '../constants.js';
import { installEventSourceTap } from './eventsource-tap.js';
import type { Installed } from './node.js';
import { isNode } from './node-builtins.js';
import {
  BodyCollector,
  callSite,
  type Hub,
  type Observation,
  type RawHeaders,
  type SeenBody,
  type SeenRequest,
} from './observed.js';
import { installWebSocketTap } from './websocket-tap.js';

// The page's fetch and XMLHttpRequest, observed by thin wrappers that hand every call straight to
// the original and only read what it gives back: a fetch response's clone (read up to the cap, then
// let go), an XHR's own properties and events (listeners added with addEventListener, which the
// app's handlers never see). Synchronous XHR stays synchronous. What a page cannot see is not
// recorded: forbidden request headers the browser adds (Cookie, User-Agent, …), Set-Cookie, the
// hops of a redirect (the entry says `redirected` and gives the final URL).

export function installBrowserTaps(hub: Hub): Installed | undefined {
  const g = globalThis as { fetch?: unknown; XMLHttpRequest?: unknown };
  if (isNode || g.XMLHttpRequest === undefined) return undefined;
  const kinds: Installed['kinds'] = [];
  if (typeof g.fetch === 'function') {
    wrapFetch(hub);
    kinds.push('fetch');
  }
  wrapXhr(hub);
  kinds.push('xhr');
  if (installWebSocketTap(hub)) kinds.push('websocket');
  if (installEventSourceTap(hub)) kinds.push('eventsource');
  if (wrapBeacon(hub)) kinds.push('beacon');
  return { kinds };
}

const base = () => (globalThis as { location?: { href: string } }).location?.href;

function wrapFetch(hub: Hub): void {
  if (hub.taps.has('browser-fetch')) return;
  hub.taps.add('browser-fetch');
  const original = globalThis.fetch;
  const fetch = function fetch(this: unknown, ...args: [RequestInfo | URL, RequestInit?]) {
    const [input, init] = args;
    let obs: Observation | undefined;
    if (hub.active) {
      try {
        obs = startFetch(hub, input, init, hub.callSites ? callSite(fetch) : undefined);
      } catch {
        obs = undefined;
      }
    }
    const result = original.apply(this, args);
    if (obs) {
      const o = obs;
      const at = performance.now();
      result.then(
        (response) => {
          try {
            followResponse(hub, o, response);
          } catch (e) {
            o.fail(e);
          }
        },
        (error: unknown) => {
          const name = (error as { name?: string })?.name;
          if (name !== 'TypeError') return o.fail(error, name === 'TimeoutError');
          const mode = init?.mode ?? (input instanceof Request ? input.mode : undefined);
          failed(o, error, urlOf(input), at, mode);
        },
      );
    }
    return result;
  } as typeof globalThis.fetch;
  globalThis.fetch = fetch;
  installCancelHooks();
}

function urlOf(input: RequestInfo | URL): string {
  return new URL(input instanceof Request ? input.url : String(input), base()).href;
}

/**
 * A request the browser failed without telling the page why. When the server did answer (the
 * browser's resource timing has the response, which it shows only when the server sends
 * Timing-Allow-Origin) it is reported as a CORS failure; a cross-origin failure without that is
 * said to be a CORS refusal or a network error, since a page is not told which.
 */
function failed(obs: Observation, error: unknown, url: string, startedAt: number, mode?: string): void {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  let crossOrigin = false;
  try {
    crossOrigin = !!origin && new URL(url).origin !== origin;
  } catch {
    // not a URL the page could reach
  }
  if (!crossOrigin || mode === 'no-cors' || typeof performance.getEntriesByName !== 'function') return obs.fail(error);
  // The browser adds the entry as the request ends, around the time the page hears of it; what it
  // says is read by code loaded only then.
  const explain = import('./cors-failure.js');
  setTimeout(() => {
    explain.then(
      (m) => m.explainFailure(obs, error, url, startedAt, origin!),
      () => obs.fail(error),
    );
  }, 50);
}

function startFetch(
  hub: Hub,
  input: RequestInfo | URL,
  init: RequestInit | undefined,
  site: SeenRequest['site'],
): Observation | undefined {
  const request = input instanceof Request ? input : undefined;
  const url = new URL(request ? request.url : String(input), base()).href;
  const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
  const headers: RawHeaders = [...new Headers(init?.headers ?? request?.headers)];
  const known = init?.body != null ? knownBody(init.body, hub.maxBodyBytes) : undefined;
  const obs = hub.observe({ initiator: 'fetch', method, url, headers, body: known, site });
  if (!obs) return undefined;
  if (init?.body != null) {
    if (!known) readLater(obs, init.body, hub.maxBodyBytes);
  } else if (request?.body) {
    // A Request's clone is a tee of its body: the app's request is sent as it would have been.
    void request
      .clone()
      .arrayBuffer()
      .then(
        (b) => obs.sent(undefined, bytesBody(new Uint8Array(b), hub.maxBodyBytes)),
        () => {},
      );
  }
  return obs;
}

function followResponse(hub: Hub, obs: Observation, response: Response): void {
  obs.response({
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
    redirected: response.redirected,
    url: response.url,
  });
  if (!response.body) {
    obs.complete({ decoded: true });
    return;
  }
  // The clone is read as far as the cap and then let go, so the app's reading paces the rest. Once
  // the body is large, what is kept also goes to the browser to make a Blob of as it comes, which the
  // socket sends without the page's thread copying it (copying 1 MiB there took 4 to 16 ms).
  const reader = response.clone().body!.getReader();
  const body = new BodyCollector(hub.maxBodyBytes);
  // An event stream is read on past the cap (not kept): its events still reach the inspector.
  const events = /^\s*text\/event-stream/i.test(response.headers.get('content-type') ?? '');
  let large: { feed: ReadableStreamDefaultController<Uint8Array>; blob: Promise<Blob> } | undefined;
  let over = false;
  const end = () => {
    if (over) return;
    over = true;
    const endedAt = performance.now();
    if (!large) return obs.complete({ body: body.seen, decoded: true, endedAt });
    large.feed.close();
    large.blob.then(
      (blob) => obs.complete({ body: { ...body.seen, blob }, decoded: true, endedAt }),
      () => obs.complete({ body: body.seen, decoded: true, endedAt }),
    );
  };
  // The app cancelled its body (its reader, a pipe, a loop it left): the copy is let go at once,
  // so the browser stops the download as it would without Porthole.
  trackBody(response.body, () => {
    if (over) return;
    over = true;
    reader.cancel().catch(() => {});
    large?.feed.error(new Error('cancelled'));
    const error = Object.assign(new Error('aborted: the app cancelled the response body'), { code: 'ABORTED' });
    obs.fail(error, false, { body: { ...body.seen, cut: true } });
  });
  const pump = (): Promise<void> =>
    reader.read().then(({ done, value }) => {
      if (over) return;
      if (done) return end();
      const before = body.seen.chunks.length;
      body.add(value);
      if (large && body.seen.chunks.length > before) large.feed.enqueue(body.seen.chunks[before]!);
      else if (!large && body.seen.kept >= ATTACH_BYTES && !events) large = blobOf(body.seen.chunks);
      obs.chunk(body.seen, value);
      if (body.seen.kept >= hub.maxBodyBytes && !events) {
        body.seen.cut = true;
        reader.cancel().catch(() => {});
        return end();
      }
      return pump();
    });
  pump().catch((error: unknown) => {
    if (over) return;
    over = true;
    large?.feed.error(error);
    obs.fail(error, false, { body: body.seen.total > 0 ? { ...body.seen, cut: true } : undefined });
  });
}

/** The app's response bodies whose cancellation lets the capture's copy go: the stream, and its readers. */
const stops = new WeakMap<object, () => void>();

function trackBody(stream: ReadableStream | null, stop: () => void): void {
  if (stream) stops.set(stream, stop);
}

/**
 * A tee (Response.clone) goes on reading while either branch reads: when the app cancels its branch,
 * the copy must be cancelled too. The ways a page cancels a stream are wrapped here, for the bodies
 * being followed only: a stream's and a reader's cancel(), pipeTo/pipeThrough (the pipe cancels the
 * body when its destination goes), and async iteration (leaving the loop cancels it).
 */
function installCancelHooks(): void {
  const RS = (globalThis as { ReadableStream?: typeof ReadableStream }).ReadableStream;
  if (!RS || (RS.prototype as { [HOOKED]?: boolean })[HOOKED]) return;
  const proto = RS.prototype as ReadableStream & Record<PropertyKey, unknown>;
  Object.defineProperty(proto, HOOKED, { value: true });
  const cancel = proto.cancel;
  proto.cancel = function cancel_(this: ReadableStream, ...args: [unknown?]) {
    const result = cancel.apply(this, args);
    stops.get(this)?.();
    return result;
  };
  const getReader = proto.getReader as (...a: unknown[]) => ReadableStreamDefaultReader;
  proto.getReader = function getReader_(this: ReadableStream, ...args: unknown[]) {
    const reader = getReader.apply(this, args);
    const stop = stops.get(this);
    if (stop) stops.set(reader, stop);
    return reader;
  } as typeof proto.getReader;
  for (const Reader of [
    (globalThis as { ReadableStreamDefaultReader?: { prototype: { cancel(r?: unknown): Promise<void> } } })
      .ReadableStreamDefaultReader,
    (globalThis as { ReadableStreamBYOBReader?: { prototype: { cancel(r?: unknown): Promise<void> } } })
      .ReadableStreamBYOBReader,
  ]) {
    if (!Reader) continue;
    const own = Reader.prototype.cancel;
    Reader.prototype.cancel = function cancel_(this: object, ...args: [unknown?]) {
      const result = own.apply(this, args);
      stops.get(this)?.();
      return result;
    };
  }
  const pipeTo = proto.pipeTo;
  proto.pipeTo = function pipeTo_(this: ReadableStream, ...args: Parameters<ReadableStream['pipeTo']>) {
    const result = pipeTo.apply(this, args);
    const stop = stops.get(this);
    // A pipe that fails cancels its source unless told not to.
    if (stop && !args[1]?.preventCancel) result.catch(() => stop());
    return result;
  };
  const pipeThrough = proto.pipeThrough;
  proto.pipeThrough = function pipeThrough_(this: ReadableStream, ...args: Parameters<ReadableStream['pipeThrough']>) {
    const [transform, options] = args;
    if (
      !stops.has(this) ||
      this.locked ||
      !(transform?.writable instanceof WritableStream) ||
      !(transform.readable instanceof RS) ||
      transform.writable.locked
    ) {
      return pipeThrough.apply(this, args) as ReturnType<ReadableStream['pipeThrough']>;
    }
    // What pipeThrough does (its pipe's promise is marked handled), through the pipeTo above.
    proto.pipeTo.call(this, transform.writable, options).catch(() => {});
    return transform.readable;
  } as typeof proto.pipeThrough;
  for (const name of ['values', Symbol.asyncIterator] as const) {
    const own = proto[name] as ((...a: unknown[]) => AsyncIterator<unknown>) | undefined;
    if (typeof own !== 'function') continue;
    proto[name] = function iterate(this: ReadableStream, ...args: unknown[]) {
      const it = own.apply(this, args);
      const stop = stops.get(this);
      const keep = (args[0] as { preventCancel?: boolean } | undefined)?.preventCancel;
      if (stop && !keep && typeof it.return === 'function') {
        const ret = it.return;
        Object.defineProperty(it, 'return', {
          value(this: AsyncIterator<unknown>, ...a: [unknown?]) {
            stop();
            return ret.apply(this, a);
          },
          configurable: true,
          writable: true,
        });
      }
      return it;
    };
  }
}

const HOOKED = Symbol.for('porthole.network.cancelHooks');

/** A Blob the browser makes of `chunks` and of what is fed after them. */
function blobOf(chunks: readonly Uint8Array[]) {
  let feed!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      feed = controller;
      for (const chunk of chunks) controller.enqueue(chunk);
    },
  });
  const blob = new Response(stream).blob();
  blob.catch(() => {});
  return { feed, blob };
}

/**
 * A body the page gave that is read apart from it: a Blob, and FormData, which is recorded as the
 * multipart body a Response makes of it (its boundary is not the one the browser sends: a page
 * cannot see that one). Read up to the cap, then let go.
 */
function readLater(obs: Observation, body: unknown, cap: number): Promise<void> {
  const form = typeof FormData === 'function' && body instanceof FormData;
  if (!form && !(typeof Blob === 'function' && body instanceof Blob)) return Promise.resolve();
  const made = new Response(body as BodyInit);
  const type = made.headers.get('content-type') ?? undefined;
  const reader = made.body!.getReader();
  const seen = new BodyCollector(cap);
  const pump = (): Promise<void> =>
    reader.read().then(({ done, value }) => {
      if (done) return obs.sent(undefined, { ...seen.seen, type });
      seen.add(value);
      if (seen.seen.kept >= cap) {
        seen.seen.cut = seen.seen.cut || value.byteLength > 0;
        reader.cancel().catch(() => {});
        return obs.sent(undefined, { ...seen.seen, type });
      }
      return pump();
    });
  return pump().catch(() => {});
}

function knownBody(body: BodyInit | Document, cap: number): SeenBody | undefined {
  if (typeof body === 'string') return textBody(body, cap);
  if (body instanceof URLSearchParams) return textBody(body.toString(), cap);
  if (body instanceof ArrayBuffer) return bytesBody(new Uint8Array(body), cap);
  if (ArrayBuffer.isView(body)) return bytesBody(new Uint8Array(body.buffer, body.byteOffset, body.byteLength), cap);
  if (typeof Document !== 'undefined' && body instanceof Document) {
    return textBody(new XMLSerializer().serializeToString(body), cap);
  }
  return undefined; // FormData (its boundary is the browser's), streams, blobs (read apart)
}

function textBody(text: string, cap: number): SeenBody {
  const cut = text.length > cap;
  return { chunks: [], kept: 0, total: text.length, cut, text: cut ? text.slice(0, cap) : text };
}

function bytesBody(bytes: Uint8Array, cap: number): SeenBody {
  const c = new BodyCollector(cap);
  c.add(bytes, true);
  return c.seen;
}

interface XhrState {
  method: string;
  url: string;
  async: boolean;
  headers: RawHeaders;
}

function wrapXhr(hub: Hub): void {
  if (hub.taps.has('xhr')) return;
  hub.taps.add('xhr');
  const proto = XMLHttpRequest.prototype;
  const { open, send, setRequestHeader } = proto;
  const states = new WeakMap<XMLHttpRequest, XhrState>();

  proto.open = function open_(this: XMLHttpRequest, ...args: [string, string | URL, boolean?, ...unknown[]]) {
    const [method, url, async] = args;
    try {
      states.set(this, {
        method: String(method).toUpperCase(),
        url: new URL(String(url), base()).href,
        async: args.length < 3 || async !== false,
        headers: [],
      });
    } catch {
      states.delete(this);
    }
    return (open as (...a: unknown[]) => void).apply(this, args);
  };

  proto.setRequestHeader = function setRequestHeader_(this: XMLHttpRequest, ...args: [string, string]) {
    states.get(this)?.headers.push([args[0], args[1]]);
    return setRequestHeader.apply(this, args);
  };

  proto.send = function send_(this: XMLHttpRequest, ...args: [(Document | XMLHttpRequestBodyInit | null)?]) {
    const body = args[0];
    const state = states.get(this);
    let obs: Observation | undefined;
    if (state && hub.active) {
      try {
        obs = startXhr(hub, this, state, body, hub.callSites ? callSite(send_) : undefined);
      } catch {
        obs = undefined;
      }
    }
    if (!obs || state!.async) return send.apply(this, args as [XMLHttpRequestBodyInit?]);
    try {
      send.apply(this, args as [XMLHttpRequestBodyInit?]);
    } catch (error) {
      obs.fail(error);
      throw error;
    }
    try {
      xhrResponse(this, state!, obs);
      xhrEnd(this, obs, hub.maxBodyBytes, undefined);
    } catch (e) {
      obs.fail(e);
    }
  };
}

function startXhr(
  hub: Hub,
  xhr: XMLHttpRequest,
  state: XhrState,
  body: unknown,
  site: SeenRequest['site'],
): Observation | undefined {
  const known = body != null ? knownBody(body as BodyInit, hub.maxBodyBytes) : undefined;
  const obs = hub.observe({
    site,
    initiator: 'xhr',
    method: state.method,
    url: state.url,
    headers: state.headers,
    body: known,
  });
  if (!obs) return undefined;
  if (!known && body != null) readLater(obs, body, hub.maxBodyBytes);
  if (!state.async) return obs;
  let reason: string | undefined;
  let responded = false;
  let respondedAt = 0;
  let events = false;
  const at = performance.now();
  xhr.addEventListener('readystatechange', () => {
    if (xhr.readyState >= 2 && !responded && xhr.status !== 0) {
      responded = true;
      respondedAt = performance.now();
      events = /^\s*text\/event-stream/i.test(xhr.getResponseHeader('content-type') ?? '');
      xhrResponse(xhr, state, obs);
    }
  });
  // A text body still arriving is shown as it comes once it has been open a while (an event stream
  // at once): responseText is read only then, as it costs a copy.
  xhr.addEventListener('progress', (e) => {
    const type = xhr.responseType;
    if (!responded || (type !== '' && type !== 'text')) return;
    if (!events && performance.now() - respondedAt < 1000) return;
    const text = xhr.responseText;
    obs.chunk({ chunks: [], kept: 0, total: e.loaded, cut: false, text });
  });
  for (const event of ['error', 'abort', 'timeout'] as const) xhr.addEventListener(event, () => (reason = event));
  xhr.addEventListener('loadend', () => {
    try {
      if (reason || xhr.status === 0) {
        const message =
          reason === 'abort'
            ? 'aborted: the request was aborted'
            : reason === 'timeout'
              ? `timed out after ${xhr.timeout} ms (xhr.timeout)`
              : 'network error (the browser does not say more to a page)';
        if (reason === 'error' || !reason) failed(obs, new Error(message), state.url, at);
        else obs.fail(new Error(message), reason === 'timeout');
        return;
      }
      if (!responded) xhrResponse(xhr, state, obs);
      xhrEnd(xhr, obs, hub.maxBodyBytes, performance.now());
    } catch (e) {
      obs.fail(e);
    }
  });
  return obs;
}

function xhrResponse(xhr: XMLHttpRequest, state: XhrState, obs: Observation): void {
  const finalUrl = xhr.responseURL;
  obs.response({
    status: xhr.status,
    statusText: xhr.statusText,
    headers: parseAllHeaders(xhr.getAllResponseHeaders()),
    redirected: !!finalUrl && finalUrl !== state.url,
    url: finalUrl || undefined,
  });
}

/** The body the page got, for every responseType: text as the browser decoded it, bytes as they came. */
function xhrEnd(xhr: XMLHttpRequest, obs: Observation, cap: number, endedAt: number | undefined): void {
  const type = xhr.responseType;
  if (type === '' || type === 'text') {
    const text = xhr.responseText;
    obs.complete({ body: text ? textBody(text, cap) : undefined, decoded: true, endedAt });
  } else if (type === 'json') {
    // The page gets the parsed value only; its JSON is shown (the server's spacing is not knowable).
    const value = xhr.response as unknown;
    obs.complete({ body: value == null ? undefined : textBody(JSON.stringify(value), cap), decoded: true, endedAt });
  } else if (type === 'document') {
    const doc = xhr.response as Document | null;
    const text = doc ? new XMLSerializer().serializeToString(doc) : undefined;
    obs.complete({ body: text ? textBody(text, cap) : undefined, decoded: true, endedAt });
  } else if (type === 'arraybuffer') {
    const buffer = xhr.response as ArrayBuffer | null;
    obs.complete({ body: buffer ? bytesBody(new Uint8Array(buffer), cap) : undefined, decoded: true, endedAt });
  } else if (type === 'blob') {
    const blob = xhr.response as Blob | null;
    if (!blob) return obs.complete({ decoded: true, endedAt });
    const at = endedAt ?? performance.now();
    const kept = blob.slice(0, cap);
    kept.arrayBuffer().then(
      (b) => {
        // Bytes of our own (not the page's), and the Blob itself for the socket to send.
        const bytes = new Uint8Array(b);
        const seen: SeenBody = {
          chunks: [bytes],
          kept: bytes.byteLength,
          total: blob.size,
          cut: blob.size > cap,
          blob: kept,
        };
        obs.complete({ body: seen, decoded: true, endedAt: at });
      },
      (e: unknown) => obs.fail(e),
    );
  } else {
    obs.complete({ decoded: true, endedAt });
  }
}

/**
 * navigator.sendBeacon, observed: the browser queues the request and a page never sees its answer,
 * so it is recorded with its body and an unknown outcome (or as failed when the browser refused it).
 */
function wrapBeacon(hub: Hub): boolean {
  const nav = (globalThis as { navigator?: { sendBeacon?: (url: string | URL, data?: unknown) => boolean } }).navigator;
  const original = nav?.sendBeacon;
  if (!nav || typeof original !== 'function') return false;
  if (hub.taps.has('beacon')) return true;
  hub.taps.add('beacon');
  nav.sendBeacon = function sendBeacon(this: unknown, ...args: [string | URL, unknown?]) {
    const queued = original.apply(this, args);
    if (!hub.active) return queued;
    try {
      const [url, data] = args;
      const known = data != null ? knownBody(data as BodyInit, hub.maxBodyBytes) : undefined;
      const type = typeof data === 'string' ? 'text/plain;charset=UTF-8' : undefined;
      const obs = hub.observe({
        initiator: 'beacon',
        method: 'POST',
        url: new URL(String(url), base()).href,
        headers: type ? [['content-type', type]] : [],
        body: known,
        contentType: type,
      });
      if (obs) {
        const message = queued
          ? 'unknown: queued by navigator.sendBeacon, whose answer a page never sees'
          : 'the browser refused to queue the beacon (sendBeacon returned false: too large, or too many)';
        const read = !known && data != null ? readLater(obs, data, hub.maxBodyBytes) : Promise.resolve();
        void read.then(() => obs.fail(Object.assign(new Error(message), { unknown: queued })));
      }
    } catch {
      // the capture's problem, never the app's
    }
    return queued;
  };
  return true;
}

function parseAllHeaders(all: string): RawHeaders {
  const out: RawHeaders = [];
  for (const line of all.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) out.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
  }
  return out;
}
