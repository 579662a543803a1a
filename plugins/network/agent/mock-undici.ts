import { concatBytes } from '../../../shared/bytes.js';
import type { MockRule } from '../protocol.js';
import type { MatchableRequest } from './mock-match.js';
import { nodeBuffer } from './node-builtins.js';
import { undiciHeaders } from './node-undici.js';
import { headerOf, type RawHeaders } from './observed.js';

// The mock path for undici: Node's global fetch and the undici package's request, stream, pipeline
// and fetch all send through the process's global dispatcher, which every copy of undici keeps under
// Symbol.for('undici.globalDispatcher.1') (and .2 from undici 7.30). While rules exist it is
// wrapped: a request a rule answers is answered here, with no socket; any other goes to the app's
// dispatcher at once and unchanged (when a rule reads bodies, after up to 64 KiB of a streamed body
// was read). A request sent with a dispatcher of its own (`{ dispatcher }`, a Pool, a Client) is
// recorded but not mocked.

const SLOTS = [Symbol.for('undici.globalDispatcher.1'), Symbol.for('undici.globalDispatcher.2')];
const BODY_MATCH_BYTES = 64 * 1024;
const BODY_MATCH_WAIT_MS = 1000;
/** Dispatcher methods that only call `this.dispatch`: they run on the wrapper so that it sees their requests. */
const THROUGH_DISPATCH = new Set<PropertyKey>(['request', 'stream', 'pipeline', 'connect', 'upgrade', 'compose']);

type Fn = (...args: unknown[]) => unknown;
type Handler = Record<string, Fn | undefined>;

export interface Dispatcher {
  dispatch(opts: DispatchOptions, handler: Handler): boolean;
}

interface DispatchOptions {
  origin?: string | { toString(): string };
  path?: string;
  method?: string;
  headers?: Parameters<typeof undiciHeaders>[0];
  body?: unknown;
  upgrade?: unknown;
}

/** A request a rule answers, as the rule and the record need it. */
export interface Dispatched {
  initiator: 'fetch' | 'undici';
  method: string;
  url: string;
  headers: RawHeaders;
  /** The body when it was known or read; undefined for a stream that was not read. */
  body?: Uint8Array;
}

/** The answer's way back to the app's handler; the shape of @mswjs/interceptors' controller. */
export interface Reply {
  /** Aborted when the app gives up on the request. */
  signal: AbortSignal;
  respondWith(response: Response): void;
  errorWith(reason?: unknown): void;
}

export interface RuleSource {
  mayMatch(method: string, url: string): boolean;
  needsBody(): boolean;
  match(request: MatchableRequest): MockRule | undefined;
  answer(rule: MockRule, request: Dispatched, reply: Reply): void;
}

export interface DispatcherMock {
  /** Wraps the global dispatchers not wrapped yet (one the app set since is wrapped too). */
  install(): Promise<void>;
  /** Puts back every dispatcher still in its slot. */
  uninstall(): void;
}

export function dispatcherMock(rules: RuleSource): DispatcherMock {
  const g = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  const wrappers = new WeakSet<object>();
  let installed: { slot: symbol; inner: Dispatcher; wrapper: Dispatcher }[] = [];

  return {
    async install() {
      if (SLOTS.every((s) => g[s] === undefined) && typeof globalThis.fetch === 'function') {
        // Node's own undici makes its global dispatcher when it first fetches.
        await globalThis
          .fetch('data:,')
          .then((r) => r.arrayBuffer())
          .catch(() => {});
      }
      const made = new Map<Dispatcher, Dispatcher>();
      for (const slot of SLOTS) {
        const inner = g[slot];
        if (!inner || typeof inner.dispatch !== 'function' || wrappers.has(inner)) continue;
        let wrapper = made.get(inner);
        if (!wrapper) {
          wrapper = wrap(inner, rules);
          wrappers.add(wrapper);
          made.set(inner, wrapper);
        }
        g[slot] = wrapper;
        installed.push({ slot, inner, wrapper });
      }
    },
    uninstall() {
      for (const { slot, inner, wrapper } of installed) if (g[slot] === wrapper) g[slot] = inner;
      installed = [];
    },
  };
}

function wrap(inner: Dispatcher, rules: RuleSource): Dispatcher {
  const dispatch = (opts: DispatchOptions, handler: Handler): boolean => {
    let request: Dispatched | undefined;
    try {
      request = mockable(opts, rules);
    } catch {
      request = undefined; // cannot be read: sent as it is
    }
    if (!request) return inner.dispatch(opts, handler);
    const body = opts.body;
    if (request.body || body == null || !rules.needsBody()) {
      const rule = ruleFor(request, rules);
      if (!rule) return inner.dispatch(opts, handler);
      rules.answer(rule, request, replyTo(handler, request.method));
      return true;
    }
    const dispatched = request;
    peek(body).then(
      ({ head, rest }) => {
        dispatched.body = head;
        const rule = ruleFor(dispatched, rules);
        if (rule) rules.answer(rule, dispatched, replyTo(handler, dispatched.method));
        else forward(inner, { ...opts, body: rest }, handler);
      },
      (error) => handler.onError?.(error),
    );
    return true;
  };
  const bound = new Map<PropertyKey, { fn: unknown; bound: unknown }>();
  return new Proxy(inner, {
    get(target, key) {
      if (key === 'dispatch') return dispatch;
      const value = Reflect.get(target, key);
      if (typeof value !== 'function' || THROUGH_DISPATCH.has(key)) return value;
      const cached = bound.get(key);
      if (cached && cached.fn === value) return cached.bound;
      const b = (value as Fn).bind(target);
      bound.set(key, { fn: value, bound: b });
      return b;
    },
  });
}

function forward(inner: Dispatcher, opts: DispatchOptions, handler: Handler): void {
  try {
    inner.dispatch(opts, handler);
  } catch (error) {
    handler.onError?.(error);
  }
}

/** The request, when a rule could answer it by its method and URL. */
function mockable(opts: DispatchOptions, rules: RuleSource): Dispatched | undefined {
  if (!opts || opts.upgrade || typeof opts.path !== 'string') return undefined;
  const url = `${String(opts.origin ?? '').replace(/\/$/, '')}${opts.path}`;
  const method = String(opts.method ?? 'GET').toUpperCase();
  if (!rules.mayMatch(method, url)) return undefined;
  const headers = undiciHeaders(opts.headers);
  const initiator = headerOf(headers, 'sec-fetch-mode') ? 'fetch' : 'undici';
  const b = opts.body;
  const body = typeof b === 'string' ? new TextEncoder().encode(b) : b instanceof Uint8Array ? b : undefined;
  return { initiator, method, url, headers, body };
}

/** The rule that answers the request; none when matching fails (the capture's problem, never the app's). */
function ruleFor(request: Dispatched, rules: RuleSource): MockRule | undefined {
  try {
    return rules.match({
      method: request.method,
      url: request.url,
      header: (name) => headerOf(request.headers, name) ?? null,
      bodyText: request.body && rules.needsBody() ? new TextDecoder().decode(request.body) : undefined,
    });
  } catch {
    return undefined;
  }
}

type Chunk = Uint8Array | string;

/**
 * Reads the start of a streamed body (up to 64 KiB, waiting at most 1 s) and gives the bytes read
 * and a body that yields all of it, from the start.
 */
async function peek(body: unknown): Promise<{ head: Uint8Array; rest: unknown }> {
  // A stream or an async generator; FormData, URLSearchParams and Blob are left unread.
  const it = (body as Partial<AsyncIterable<Chunk>>)[Symbol.asyncIterator]?.();
  if (!it) return { head: new Uint8Array(), rest: body };
  const read: Chunk[] = [];
  const bytes: Uint8Array[] = [];
  let kept = 0;
  let ended = false;
  let pending: Promise<IteratorResult<Chunk>> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), BODY_MATCH_WAIT_MS);
  });
  try {
    while (kept < BODY_MATCH_BYTES) {
      pending = Promise.resolve(it.next());
      const r = await Promise.race([pending, late]);
      if (r === 'late') break;
      pending = undefined;
      if (r.done) {
        ended = true;
        break;
      }
      read.push(r.value);
      const chunk = typeof r.value === 'string' ? new TextEncoder().encode(r.value) : r.value;
      if (!(chunk instanceof Uint8Array)) continue; // not bytes: passed on, not matched against
      bytes.push(chunk);
      kept += chunk.byteLength;
    }
  } finally {
    clearTimeout(timer);
  }
  // An async iterable by hand (Hermes, which compiles this file for React Native, has no async generators).
  let at = 0;
  let finished = ended;
  const rest: AsyncIterableIterator<Chunk> = {
    [Symbol.asyncIterator]: () => rest,
    async next(): Promise<IteratorResult<Chunk>> {
      if (at < read.length) return { done: false, value: read[at++]! };
      if (finished) return { done: true, value: undefined };
      const r = await (pending ?? it.next());
      pending = undefined;
      if (r.done) finished = true;
      return r;
    },
    async return(): Promise<IteratorResult<Chunk>> {
      if (!finished) {
        finished = true;
        await it.return?.();
      }
      return { done: true, value: undefined };
    },
  };
  return { head: concatBytes(bytes), rest };
}

/** Drives the app's handler (undici's older onConnect/onHeaders/… or its newer onRequestStart/… API). */
function replyTo(handler: Handler, method: string): Reply {
  const aborter = new AbortController();
  const modern = typeof handler.onRequestStart === 'function' && typeof handler.onConnect !== 'function';
  let done = false;
  const controller = {
    get aborted() {
      return aborter.signal.aborted;
    },
    get reason() {
      return aborter.signal.reason;
    },
    paused: false,
    pause() {},
    resume() {},
    abort: (reason?: unknown) => abort(reason),
  };
  const fail = (error: unknown) => {
    if (done) return;
    done = true;
    if (modern) handler.onResponseError?.(controller, error);
    else handler.onError?.(error);
  };
  const abort = (reason?: unknown) => {
    if (done || aborter.signal.aborted) return;
    aborter.abort(reason);
    fail(aborter.signal.reason);
  };
  if (modern) handler.onRequestStart?.(controller, {});
  else handler.onConnect?.(abort, null);

  return {
    signal: aborter.signal,
    errorWith: fail,
    respondWith(response) {
      // The head at once, then the body as its stream gives it (a rule may pace, stall or cut it).
      const Buffer = nodeBuffer()!;
      const headers = [...response.headers];
      if (modern) {
        const byName: Record<string, string | string[]> = {};
        for (const [n, v] of headers) {
          const had = byName[n];
          byName[n] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
        }
        handler.onResponseStart?.(controller, response.status, byName, response.statusText);
      } else {
        const raw = headers.flatMap(([n, v]) => [Buffer.from(n), Buffer.from(v)]);
        handler.onHeaders?.(response.status, raw, () => {}, response.statusText);
      }
      const end = () => {
        if (done) return;
        done = true;
        if (modern) handler.onResponseEnd?.(controller, {});
        else handler.onComplete?.([]);
      };
      if (!response.body || method === 'HEAD') return end();
      const reader = response.body.getReader();
      aborter.signal.addEventListener('abort', () => reader.cancel().catch(() => {}), { once: true });
      const pump = (): Promise<void> =>
        reader.read().then(({ done: over, value }) => {
          if (done) return;
          if (over) return end();
          const chunk = Buffer.from(value);
          if (chunk.byteLength) {
            if (modern) handler.onResponseData?.(controller, chunk);
            else handler.onData?.(chunk);
          }
          return pump();
        });
      pump().catch(fail);
    },
  };
}
