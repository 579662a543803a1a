import { ATTACH_BYTES } from '../constants.js';
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
        obs = startFetch(hub, input, init, callSite(fetch));
      } catch {
        obs = undefined;
      }
    }
    const result = original.apply(this, args);
    if (obs) {
      const o = obs;
      result.then(
        (response) => {
          try {
            followResponse(hub, o, response);
          } catch (e) {
            o.fail(e);
          }
        },
        (error: unknown) => o.fail(error, (error as { name?: string })?.name === 'TimeoutError'),
      );
    }
    return result;
  } as typeof globalThis.fetch;
  globalThis.fetch = fetch;
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
  if (!known && init?.body instanceof Blob) {
    void init.body.arrayBuffer().then((b) => obs.sent(undefined, bytesBody(new Uint8Array(b), hub.maxBodyBytes)));
  } else if (!known && init?.body == null && request?.body) {
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
  let large: { feed: ReadableStreamDefaultController<Uint8Array>; blob: Promise<Blob> } | undefined;
  const end = () => {
    const endedAt = performance.now();
    if (!large) return obs.complete({ body: body.seen, decoded: true, endedAt });
    large.feed.close();
    large.blob.then(
      (blob) => obs.complete({ body: { ...body.seen, blob }, decoded: true, endedAt }),
      () => obs.complete({ body: body.seen, decoded: true, endedAt }),
    );
  };
  const pump = (): Promise<void> =>
    reader.read().then(({ done, value }) => {
      if (done) return end();
      const before = body.seen.chunks.length;
      body.add(value);
      if (large && body.seen.chunks.length > before) large.feed.enqueue(body.seen.chunks[before]!);
      else if (!large && body.seen.kept >= ATTACH_BYTES) large = blobOf(body.seen.chunks);
      if (body.seen.kept >= hub.maxBodyBytes) {
        body.seen.cut = true;
        reader.cancel().catch(() => {});
        return end();
      }
      return pump();
    });
  pump().catch((error: unknown) => {
    large?.feed.error(error);
    obs.fail(error);
  });
}

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
        obs = startXhr(hub, this, state, body, callSite(send_));
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
  if (!known && body instanceof Blob) {
    void body.arrayBuffer().then((b) => obs.sent(undefined, bytesBody(new Uint8Array(b), hub.maxBodyBytes)));
  }
  if (!state.async) return obs;
  let reason: string | undefined;
  let responded = false;
  xhr.addEventListener('readystatechange', () => {
    if (xhr.readyState >= 2 && !responded && xhr.status !== 0) {
      responded = true;
      xhrResponse(xhr, state, obs);
    }
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
        obs.fail(new Error(message), reason === 'timeout');
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

function parseAllHeaders(all: string): RawHeaders {
  const out: RawHeaders = [];
  for (const line of all.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) out.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
  }
  return out;
}
