import { bytesToBase64 } from '../../../shared/protocol/attachment.js';
import type { MockAction, MockRule } from '../protocol.js';
import { base64ToBytes, isTextualType } from './capture-body.js';
import type { MockPath } from './intercept.js';
import { type CompiledRule, findMatchingRule, needsBody } from './mock-match.js';
import type { Installed } from './node.js';
import { BodyCollector, type Hub, type Observation, type RawHeaders, type SeenBody } from './observed.js';
import { installWebSocketTap } from './websocket-tap.js';

// React Native's fetch is whatwg-fetch over its own XMLHttpRequest (a JS class that talks to the
// native Networking module), so one tap on XMLHttpRequest sees every request once. A fetch() marks
// the XHR it makes synchronously, so that request is recorded as the fetch it is. Mock rules answer
// at the same place: the XHR is not sent, and its own callbacks (the ones the native module's
// events call) play the rule's answer, so fetch, axios and plain XHR get it as from the network.

interface RnXhr extends XMLHttpRequest {
  _url?: string;
  __didCreateRequest(id: number): void;
  __didReceiveResponse(id: number, status: number, headers: Record<string, string>, url: string): void;
  __didReceiveData(id: number, data: unknown): void;
  __didCompleteResponse(id: number, error: string, timedOut: boolean): void;
}

interface State {
  method: string;
  url: string;
  headers: [string, string][];
}

type Rules = () => { enabled: boolean; rules: CompiledRule[] };

let fetching = 0;
let mocking: Rules | undefined;
let fakeIds = 0;

export function installReactNativeTaps(hub: Hub): Installed | undefined {
  if (typeof XMLHttpRequest === 'undefined' || hub.taps.has('react-native')) return undefined;
  hub.taps.add('react-native');
  const g = globalThis as { fetch?: (...args: unknown[]) => Promise<unknown> };
  const original = g.fetch;
  if (typeof original === 'function') {
    g.fetch = function fetch(this: unknown, ...args: unknown[]) {
      fetching++;
      try {
        return original.apply(this, args);
      } finally {
        fetching--;
      }
    };
  }
  wrapXhr(hub);
  const kinds: Installed['kinds'] = typeof original === 'function' ? ['fetch', 'xhr'] : ['xhr'];
  // React Native's WebSocket is the WHATWG one over its native module: the page's tap fits it.
  if (installWebSocketTap(hub)) kinds.push('websocket');
  return { kinds };
}

function wrapXhr(hub: Hub): void {
  const proto = XMLHttpRequest.prototype;
  const { open, send, setRequestHeader } = proto;
  const states = new WeakMap<XMLHttpRequest, State>();

  proto.open = function open_(this: XMLHttpRequest, ...args: [string, string | URL, boolean?]) {
    states.set(this, { method: String(args[0]).toUpperCase(), url: String(args[1]), headers: [] });
    return (open as (...a: unknown[]) => void).apply(this, args);
  };

  proto.setRequestHeader = function setRequestHeader_(this: XMLHttpRequest, ...args: [string, string]) {
    states.get(this)?.headers.push([args[0], args[1]]);
    return setRequestHeader.apply(this, args);
  };

  proto.send = function send_(this: XMLHttpRequest, ...args: [unknown?]) {
    const state = states.get(this);
    const xhr = this as RnXhr;
    const body = args[0];
    const rule = state && mocking ? match(mocking, state, body) : undefined;
    if (state && hub.active) {
      try {
        startXhr(hub, xhr, state, body, fetching > 0, rule);
      } catch {
        // never in the app's way
      }
    }
    if (rule && typeof xhr.__didCreateRequest === 'function') return answer(xhr, rule.action);
    return send.apply(this, args as [XMLHttpRequestBodyInit?]);
  };
}

function match(rules: Rules, state: State, body: unknown): MockRule | undefined {
  const { enabled, rules: compiled } = rules();
  const text = typeof body === 'string' ? body : undefined;
  if (!enabled || (needsBody(compiled) && body != null && text === undefined)) return undefined;
  return findMatchingRule(enabled, compiled, {
    method: state.method,
    url: state.url,
    header: (name) => state.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1] ?? null,
    bodyText: text,
  });
}

function startXhr(hub: Hub, xhr: RnXhr, state: State, body: unknown, fromFetch: boolean, rule?: MockRule): void {
  const cap = hub.maxBodyBytes;
  const obs = hub.observe({
    initiator: fromFetch ? 'fetch' : 'xhr',
    method: state.method,
    url: state.url,
    headers: state.headers,
    body: knownBody(body, cap),
    mock: rule && { ruleId: rule.id, ruleName: rule.name },
  });
  if (!obs) return;
  let reason: string | undefined;
  let responded = false;
  xhr.addEventListener('readystatechange', () => {
    if (xhr.readyState >= 2 && !responded && xhr.status !== 0) {
      responded = true;
      respond(xhr, state, obs);
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
              : `network error${typeof xhr.responseText === 'string' && xhr.responseText ? `: ${xhr.responseText}` : ''}`;
        obs.fail(new Error(message), reason === 'timeout');
        return;
      }
      if (!responded) respond(xhr, state, obs);
      end(xhr, obs, cap, performance.now());
    } catch (e) {
      obs.fail(e);
    }
  });
}

function respond(xhr: XMLHttpRequest, state: State, obs: Observation): void {
  const finalUrl = xhr.responseURL;
  obs.response({
    status: xhr.status,
    statusText: xhr.statusText ?? '',
    headers: parseHeaders(xhr.getAllResponseHeaders() ?? ''),
    redirected: !!finalUrl && finalUrl !== state.url,
    url: finalUrl || undefined,
  });
}

/** The body the app got: text as is, an ArrayBuffer's bytes, a Blob (fetch asks for one) read through FileReader. */
function end(xhr: XMLHttpRequest, obs: Observation, cap: number, endedAt: number): void {
  const type = xhr.responseType;
  if (type === '' || type === 'text') {
    const text = xhr.responseText;
    return obs.complete({ body: text ? textBody(text, cap) : undefined, decoded: true, endedAt });
  }
  const value = xhr.response as unknown;
  if (value == null) return obs.complete({ decoded: true, endedAt });
  if (type === 'json') return obs.complete({ body: textBody(JSON.stringify(value), cap), decoded: true, endedAt });
  if (value instanceof ArrayBuffer)
    return obs.complete({ body: bytesBody(new Uint8Array(value), cap), decoded: true, endedAt });
  if (type === 'blob' && typeof FileReader === 'function') {
    const blob = value as Blob;
    const kept = blob.size > cap ? blob.slice(0, cap) : blob;
    const textual = isTextualType(xhr.getResponseHeader('content-type') ?? undefined);
    const reader = new FileReader();
    reader.onload = () => {
      try {
        const result = String(reader.result ?? '');
        const seen = textual
          ? textBody(result, cap)
          : bytesBody(base64ToBytes(result.slice(result.indexOf(',') + 1)), cap);
        if (blob.size > cap) seen.cut = true;
        obs.complete({ body: seen, decoded: true, endedAt });
      } catch (e) {
        obs.fail(e);
      }
    };
    reader.onerror = () => obs.complete({ decoded: true, endedAt });
    if (textual) reader.readAsText(kept);
    else reader.readAsDataURL(kept);
    return;
  }
  obs.complete({ decoded: true, endedAt });
}

function parseHeaders(all: string): RawHeaders {
  const out: RawHeaders = [];
  for (const line of all.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) out.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
  }
  return out;
}

function knownBody(body: unknown, cap: number): SeenBody | undefined {
  if (typeof body === 'string') return textBody(body, cap);
  if (body instanceof ArrayBuffer) return bytesBody(new Uint8Array(body), cap);
  if (ArrayBuffer.isView(body)) return bytesBody(new Uint8Array(body.buffer, body.byteOffset, body.byteLength), cap);
  return undefined; // FormData (the native module writes its multipart body), Blobs
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

/** A rule's answer played through the XHR's own callbacks, after the rule's delay. */
function answer(xhr: RnXhr, action: MockAction): void {
  const id = -1 - fakeIds++;
  xhr.__didCreateRequest(id);
  setTimeout(() => {
    if (action.type !== 'respond') {
      const message = action.type === 'networkError' ? (action.message ?? 'mocked network error') : 'mocked';
      return xhr.__didCompleteResponse(id, message, false);
    }
    const headers: Record<string, string> = { ...action.headers };
    let text = '';
    let base64: string | undefined;
    if (action.body?.type === 'text') text = action.body.text;
    else if (action.body?.type === 'json') text = JSON.stringify(action.body.json);
    else if (action.body?.type === 'base64') base64 = action.body.base64;
    const type = action.body?.type === 'json' ? 'application/json' : base64 ? 'application/octet-stream' : 'text/plain';
    if (action.body && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = type;
    xhr.__didReceiveResponse(id, action.status, headers, xhr._url ?? '');
    const responseType = xhr.responseType;
    if (responseType === 'arraybuffer') {
      xhr.__didReceiveData(id, base64 ?? bytesToBase64(new TextEncoder().encode(text)));
    } else if (responseType === 'blob') {
      const part = base64 === undefined ? text : atob(base64);
      xhr.__didReceiveData(id, (new Blob([part], { type: headers['content-type'] }) as Blob & { data: unknown }).data);
    } else {
      xhr.__didReceiveData(id, base64 === undefined ? text : atob(base64));
    }
    xhr.__didCompleteResponse(id, '', false);
  }, action.delayMs ?? 0);
}

/** The mock path of a React Native app: while on, the XHR tap answers what a rule matches. */
export function reactNativeMockPath(current: Rules): MockPath {
  return {
    enable: () => {
      mocking = current;
      return Promise.resolve();
    },
    disable: () => {
      if (mocking === current) mocking = undefined;
    },
  };
}
