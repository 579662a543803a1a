import { getRawRequest } from '@mswjs/interceptors';
import { FetchInterceptor } from '@mswjs/interceptors/fetch';
import { XMLHttpRequestInterceptor } from '@mswjs/interceptors/XMLHttpRequest';
import { nodeImport } from '../../../agent/node-import.js';
import type { Initiator, MockAction, MockRule } from '../protocol.js';
import { base64ToBytes } from './capture-body.js';
import { type CompiledRule, findMatchingRule, type MatchableRequest, mayMatchAny, needsBody } from './mock-match.js';
import { type HttpModule, routeByRules } from './mock-route.js';
import { fakeServerConnection, fakeWebSocket } from './mock-socket.js';
import { type DispatcherMock, dispatcherMock, type RuleSource } from './mock-undici.js';
import { isNode } from './node-builtins.js';
import { BodyCollector, type Http2Answer, hub, type Observation, type SeenRequest } from './observed.js';
import { readCapped } from './read-capped.js';

// The mock path, applied only while the app has an active mock rule and removed when it has none:
// @mswjs/interceptors for Node's http/https and the browser's fetch and XHR, and a wrapper of
// undici's global dispatcher for Node's fetch and the undici package (mock-undici.ts). While applied
// it changes how requests go out (see README.md: Node's http gets the library's agent, so keep-alive
// is off, unless the method and URL of the call rule out every rule (mock-route.ts)); the taps still
// record every request that is not mocked, and this records the ones a rule answers.

export interface MockPath {
  enable(): Promise<void>;
  disable(): void;
}

interface RequestEvent {
  request: Request;
  controller: { respondWith(response: Response): void; errorWith(reason?: unknown): void };
}

interface Interceptor {
  on(event: 'request', listener: (e: RequestEvent) => unknown): unknown;
  apply(): void;
  dispose(): void;
}

export interface MockRecorder {
  observe(request: SeenRequest): Observation | undefined;
  warn(what: string, error: unknown): void;
}

/** Kept off bundlers' static analysis: these exist only in Node. */
const CLIENT_REQUEST_MODULE = '@mswjs/interceptors/ClientRequest';
let rawOf = getRawRequest;
const NODE_MODULE = 'node:module';
const BODY_MATCH_BYTES = 64 * 1024;
const BODY_MATCH_WAIT_MS = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function mockPath(recorder: MockRecorder, current: () => { enabled: boolean; rules: CompiledRule[] }): MockPath {
  let applied: Interceptor[] = [];
  let enabling: Promise<void> | undefined;
  let syncBuiltins: () => void = () => {};
  let dispatchers: DispatcherMock | undefined;
  let on = false;

  const listen = (kind: Initiator, interceptor: Interceptor) => {
    interceptor.on('request', (event) => answer(kind, event).catch((e) => recorder.warn('mocked request', e)));
    interceptor.apply();
    applied.push(interceptor);
  };

  const answer = async (kind: Initiator, { request, controller }: RequestEvent) => {
    const { enabled, rules } = current();
    let bodyText: string | undefined;
    if (needsBody(rules) && request.body) {
      const { bytes } = await readCapped(request.clone().body!, BODY_MATCH_BYTES, BODY_MATCH_WAIT_MS);
      bodyText = new TextDecoder().decode(bytes);
    }
    const rule = findMatchingRule(enabled, rules, {
      method: request.method,
      url: request.url,
      header: (name) => request.headers.get(name),
      bodyText,
    });
    if (!rule) return; // not mocked: it goes out, and the taps record it
    const mark = { ruleId: rule.id, ruleName: rule.name };
    // An http request is a real ClientRequest the http tap follows; fetch and XHR answered here
    // never reach the runtime, so they are recorded here.
    const tapped = kind === 'http' ? hub().byRaw.get(rawOf(request) as object) : undefined;
    const obs =
      tapped ??
      recorder.observe({
        initiator: kind,
        method: request.method,
        url: request.url,
        headers: [...request.headers],
        body: bodyText === undefined ? undefined : { chunks: [], kept: 0, total: 0, cut: false, text: bodyText },
        mock: mark,
      });
    tapped?.mocked(mark);
    const signal = request.signal as AbortSignal | undefined;
    if (!tapped) failOnAbort(obs, signal);
    await respond(rule, controller, tapped ? undefined : obs, signal);
  };

  /** The rule a WebSocket to `url` is answered by, if any. */
  const socketRule = (url: string) => {
    const { enabled, rules } = current();
    return findMatchingRule(enabled, rules, { method: 'GET', url, header: () => null, bodyText: undefined }, true);
  };
  const mockSocket = (args: unknown[], Ctor: new (...a: unknown[]) => object) => {
    let url: string;
    try {
      url = new URL(String(args[0]), (globalThis as { location?: { href: string } }).location?.href).href;
    } catch {
      return undefined; // the app's constructor throws its own SyntaxError
    }
    const rule = socketRule(url);
    return rule ? fakeWebSocket(Ctor, args, rule, recorder as never) : undefined;
  };

  /** A node:http2 request (matched on its method, URL and headers: its body is not known yet). */
  const mockHttp2 = (request: MatchableRequest): Http2Answer | undefined => {
    const { enabled, rules } = current();
    const rule = findMatchingRule(enabled, rules, request);
    const action = rule?.action;
    if (!action || action.type === 'websocket') return undefined;
    const mark = { ruleId: rule.id, ruleName: rule.name };
    if (action.type === 'networkError') return { mark, delayMs: action.delayMs, error: mockedError(action) };
    return { mark, delayMs: action.delayMs, response: mockResponse(action), trailers: action.trailers };
  };

  const teardown = () => {
    if (hub().mockSocket === mockSocket) hub().mockSocket = undefined;
    if (hub().mockHttp2 === mockHttp2) hub().mockHttp2 = undefined;
    dispatchers?.uninstall();
    for (const interceptor of applied) interceptor.dispose();
    applied = [];
    syncBuiltins();
  };

  const source: RuleSource = {
    mayMatch(method, url) {
      const { enabled, rules } = current();
      return mayMatchAny(enabled, rules, method, url);
    },
    needsBody: () => needsBody(current().rules),
    match(request) {
      const { enabled, rules } = current();
      return findMatchingRule(enabled, rules, request);
    },
    answer(rule, request, reply) {
      const mark = { ruleId: rule.id, ruleName: rule.name };
      let body: BodyCollector | undefined;
      if (request.body) (body = new BodyCollector(hub().maxBodyBytes)).add(request.body);
      const obs = recorder.observe({ ...request, body: body?.seen, mock: mark });
      failOnAbort(obs, reply.signal);
      respond(rule, reply, obs, reply.signal).catch((e) => {
        recorder.warn('mocked request', e);
        reply.errorWith(e);
      });
    },
  };

  return {
    enable() {
      if (enabling) return enabling;
      if (on) return dispatchers?.install() ?? Promise.resolve();
      on = true;
      hub().mockSocket = mockSocket;
      enabling = (async () => {
        if (isNode) {
          hub().mockHttp2 = mockHttp2;
          try {
            dispatchers ??= dispatcherMock(source);
            await dispatchers.install();
          } catch (e) {
            console.warn(`[porthole] network: fetch and undici requests cannot be mocked: ${(e as Error).message}`);
          }
          try {
            const { ClientRequestInterceptor } = await nodeImport<{ ClientRequestInterceptor: new () => Interceptor }>(
              CLIENT_REQUEST_MODULE,
            );
            // The same copy of the library as the interceptor's (inside Vitest or Jest nodeImport may load CommonJS).
            rawOf = (await nodeImport<{ getRawRequest: typeof getRawRequest }>('@mswjs/interceptors')).getRawRequest;
            const modules = await Promise.all(['node:http', 'node:https'].map((m) => nodeImport<HttpModule>(m)));
            const own = modules.map((m) => ({ ...m }));
            listen('http', new ClientRequestInterceptor());
            for (const [i, m] of modules.entries()) {
              routeByRules(
                m,
                own[i]!,
                i === 0 ? 'http:' : 'https:',
                source.mayMatch,
                (url) => {
                  const rule = socketRule(url);
                  return (
                    rule && {
                      connection: () => fakeServerConnection(rule),
                      mark: { ruleId: rule.id, ruleName: rule.name },
                    }
                  );
                },
                hub().mockMarks,
              );
            }
            // The interceptor replaces http.request & co. on the module objects; this makes ESM named
            // imports (`import { request } from 'node:http'`) see the replacements too.
            syncBuiltins = (await nodeImport<{ syncBuiltinESMExports(): void }>(NODE_MODULE)).syncBuiltinESMExports;
            syncBuiltins();
          } catch (e) {
            console.warn(`[porthole] network: http/https requests cannot be mocked: ${(e as Error).message}`);
          }
        }
        if (!isNode && typeof globalThis.fetch === 'function') {
          listen('fetch', new FetchInterceptor() as unknown as Interceptor);
        }
        if (!isNode && typeof XMLHttpRequest !== 'undefined') {
          listen('xhr', new XMLHttpRequestInterceptor() as unknown as Interceptor);
        }
      })().finally(() => {
        enabling = undefined;
        if (!on) teardown(); // the rules went while it was being applied
      });
      return enabling;
    },
    disable() {
      if (!on) return;
      on = false;
      if (!enabling) teardown();
    },
  };
}

/** A mocked request the app gives up on is recorded as failed. */
function failOnAbort(obs: Observation | undefined, signal: AbortSignal | undefined): void {
  if (!obs || !signal) return;
  const onAbort = () => obs.fail(signal.reason ?? new Error('aborted'));
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
}

async function respond(
  rule: MockRule,
  controller: RequestEvent['controller'],
  obs: Observation | undefined,
  signal: AbortSignal | undefined,
) {
  const action = rule.action;
  if (action.type === 'websocket') return; // never chosen for HTTP (findMatchingRule)
  if (action.delayMs) await sleep(action.delayMs);
  if (signal?.aborted) return; // the app gave up during the delay
  if (action.type === 'networkError') {
    const error = mockedError(action);
    obs?.fail(error, action.code === 'ETIMEDOUT');
    controller.errorWith(error);
    return;
  }
  const response = mockResponse(action);
  // Recorded from a copy as it streams (a paced, stalled or cut body too), after the app has its answer.
  const copy = obs && response.body ? response.clone() : undefined;
  obs?.response({ status: response.status, statusText: response.statusText, headers: [...response.headers] });
  controller.respondWith(response);
  if (!obs) return;
  if (!copy) return obs.complete({ decoded: true });
  const body = new BodyCollector(hub().maxBodyBytes || Number.MAX_SAFE_INTEGER);
  const reader = copy.body!.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      body.add(value);
    }
    obs.complete({ body: body.seen, decoded: true });
  } catch (error) {
    obs.fail(error, false, { body: { ...body.seen, cut: true } });
  }
}

/** A mocked network error as the runtime's own look: a TypeError, or an Error with the rule's code (ECONNRESET, …). */
export function mockedError(action: Extract<MockAction, { type: 'networkError' }>): Error {
  const message = action.message ?? (action.code ? `mocked ${action.code}` : 'mocked network error');
  return action.code ? Object.assign(new Error(message), { code: action.code }) : new TypeError(message);
}

/**
 * A mocked body as a stream when the rule paces or cuts it: `bytesPerSecond` in ten slices a
 * second, and at `cut.afterBytes` either nothing more (stall: the body never ends) or a reset.
 */
function pacedBody(bytes: Uint8Array, action: Extract<MockAction, { type: 'respond' }>): ReadableStream<Uint8Array> {
  const rate = action.bytesPerSecond;
  const stop = action.cut ? Math.min(action.cut.afterBytes, bytes.byteLength) : bytes.byteLength;
  const slice = rate ? Math.max(1, Math.floor(rate / 10)) : stop;
  let at = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      return new Promise<void>((resolve) => {
        const step = () => {
          if (at < stop) {
            const next = Math.min(stop, at + slice);
            controller.enqueue(bytes.slice(at, next));
            at = next;
            return resolve();
          }
          if (!action.cut || stop >= bytes.byteLength) {
            controller.close();
          } else if (action.cut.end === 'reset') {
            controller.error(
              Object.assign(new Error('read ECONNRESET (mocked: the body was cut)'), { code: 'ECONNRESET' }),
            );
          }
          // stall: the body never ends (the pull stays pending until the app gives up)
          if (action.cut?.end !== 'stall' || stop >= bytes.byteLength) resolve();
        };
        if (rate && at > 0 && at < stop) timer = setTimeout(step, 100);
        else step();
      });
    },
    cancel() {
      if (timer) clearTimeout(timer);
    },
  });
}

export function mockResponse(action: Extract<MockAction, { type: 'respond' }>): Response {
  const headers = new Headers(action.headers);
  let body: BodyInit | null = null;
  let type: string | undefined;
  if (action.body?.type === 'text') {
    body = action.body.text;
    type = 'text/plain; charset=utf-8';
  } else if (action.body?.type === 'json') {
    body = JSON.stringify(action.body.json);
    type = 'application/json';
  } else if (action.body?.type === 'base64') {
    body = base64ToBytes(action.body.base64) as Uint8Array<ArrayBuffer>;
    type = 'application/octet-stream';
  }
  if (type && !headers.has('content-type')) headers.set('content-type', type);
  const nullBody = action.status === 204 || action.status === 205 || action.status === 304;
  if (!nullBody && (action.bytesPerSecond || action.cut)) {
    const bytes =
      body === null
        ? new Uint8Array()
        : typeof body === 'string'
          ? new TextEncoder().encode(body)
          : (body as Uint8Array);
    return new Response(pacedBody(bytes, action), { status: action.status, statusText: action.statusText, headers });
  }
  return new Response(nullBody ? null : body, { status: action.status, statusText: action.statusText, headers });
}
