import { getRawRequest } from '@mswjs/interceptors';
import { FetchInterceptor } from '@mswjs/interceptors/fetch';
import { XMLHttpRequestInterceptor } from '@mswjs/interceptors/XMLHttpRequest';
import { type AgentPluginContext, defineAgentPlugin } from '../../../agent/plugin.js';
import type { NotificationMethod, NotificationParams } from '../../../shared/plugin-protocol.js';
import { RequestError } from '../../../shared/protocol/messenger.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_REDACTED_HEADERS,
  EMPTY_MOCK_CONFIG,
  type Header,
  type Initiator,
  MAX_BODY_BYTES_LIMIT,
  type MockAction,
  type MockConfig,
  type MockRule,
  type NetworkProtocol,
  networkProtocol,
  REDACTED,
  type RedactionScope,
} from '../protocol.js';
import { base64ToBytes, captureBody } from './capture-body.js';
import { type CompiledRule, compileMockConfig, findMatchingRule } from './mock-match.js';

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
}

export interface NetworkPluginApi {
  /** Resolves once interception is installed (Node loads its http interceptor asynchronously). */
  readonly ready: Promise<void>;
  /** The mock config this app applies now. */
  mockConfig(): MockConfig;
  /** Removes the interception; the app's fetch, XMLHttpRequest and http are restored. */
  dispose(): void;
}

type Ctx = AgentPluginContext<NetworkProtocol>;

interface RequestEvent {
  request: Request;
  requestId: string;
  controller: {
    respondWith(response: Response): void;
    errorWith(reason?: unknown): void;
    handled: Promise<void>;
  };
}
interface ResponseEvent {
  response: Response;
  requestId: string;
}
interface HttpInterceptor {
  on(event: 'request', listener: (e: RequestEvent) => unknown): unknown;
  on(event: 'response', listener: (e: ResponseEvent) => unknown): unknown;
  apply(): void;
  dispose(): void;
}

/** One request the agent is following, from its start to its end. */
interface Live {
  id: string;
  requestId: string;
  initiator: Initiator;
  t0: number;
  responded: boolean;
  done: boolean;
}

/** Kept off bundlers' static analysis: these exist only in Node. */
const CLIENT_REQUEST_MODULE = '@mswjs/interceptors/ClientRequest';
const NODE_MODULE = 'node:module';
const MAX_URL = 65_536;
const MAX_HEADERS = 1000;
/** A request body that has not ended after this long is captured as far as it got. */
const REQUEST_BODY_WAIT_MS = 1000;

/**
 * The network plugin's agent part: captures the app's HTTP traffic with @mswjs/interceptors
 * (fetch and XMLHttpRequest in browsers; fetch, http and https in Node) and applies the mock rules
 * the inspector pushes.
 */
export function network(options: NetworkOptions = {}) {
  return defineAgentPlugin(networkProtocol, (ctx): NetworkPluginApi => new NetworkAgent(ctx, options).api());
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class NetworkAgent {
  private readonly maxBodyBytes: number;
  private readonly redacted: Set<string>;
  private readonly scope: RedactionScope;
  private readonly live = new Map<string, Live>();
  private readonly interceptors: HttpInterceptor[] = [];
  private readonly interceptorKinds: Initiator[] = [];
  private config: MockConfig = EMPTY_MOCK_CONFIG;
  private rules: CompiledRule[] = [];
  private nextId = 1;
  private readonly idPrefix = Math.random().toString(36).slice(2, 8);
  /** The fetch call being made right now: the fetch interceptor's request listener runs synchronously inside it. */
  private currentFetch: { live?: Live } | undefined;
  private restoreFetch: (() => void) | undefined;
  private disposed = false;
  private readonly warned = new Set<string>();
  private syncBuiltins: () => void = () => {};
  private readonly ready: Promise<void>;

  constructor(
    private readonly ctx: Ctx,
    private readonly options: NetworkOptions,
  ) {
    this.maxBodyBytes = Math.min(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, MAX_BODY_BYTES_LIMIT);
    if (!(this.maxBodyBytes > 0)) throw new Error('network({ maxBodyBytes }) must be a positive number of bytes');
    const redact = options.redact === false ? { headers: [] } : (options.redact ?? {});
    this.redacted = new Set((redact.headers ?? DEFAULT_REDACTED_HEADERS).map((h) => h.toLowerCase()));
    this.scope = redact.scope ?? 'all';

    ctx.handle('setMockConfig', (config) => this.applyMockConfig(config));
    ctx.onConnectionChange((connected) => {
      if (connected) this.sendInfo();
    });
    this.ready = this.install();
  }

  api(): NetworkPluginApi {
    return {
      ready: this.ready,
      mockConfig: () => this.config,
      dispose: () => this.dispose(),
    };
  }

  private sendInfo(): void {
    this.ctx.notify('agentInfo', {
      interceptors: this.interceptorKinds,
      maxBodyBytes: this.maxBodyBytes,
      redaction: { headers: [...this.redacted], scope: this.scope },
    });
  }

  private applyMockConfig(config: MockConfig): { revision: number } {
    const wouldMock = config.enabled && config.rules.some((r) => r.enabled);
    if (this.options.mocking === false && wouldMock) {
      throw new RequestError(
        'handler-error',
        'mocking is turned off in this app (network({ mocking: false })); remove that option to allow mock rules',
      );
    }
    let compiled: CompiledRule[];
    try {
      compiled = compileMockConfig(config);
    } catch (e) {
      throw new RequestError('handler-error', `the app cannot use this mock config: ${(e as Error).message}`);
    }
    this.config = config;
    this.rules = compiled;
    return { revision: config.revision };
  }

  private async install(): Promise<void> {
    const g = globalThis as { XMLHttpRequest?: unknown; process?: { versions?: { node?: string } } };
    const isNode = !!g.process?.versions?.node && g.XMLHttpRequest === undefined;
    if (isNode) {
      try {
        const { ClientRequestInterceptor } = (await import(/* @vite-ignore */ CLIENT_REQUEST_MODULE)) as {
          ClientRequestInterceptor: new () => HttpInterceptor;
        };
        if (this.disposed) return;
        this.add('http', new ClientRequestInterceptor());
        // The interceptor replaces http.request & co. on the module objects; this makes ESM named
        // imports (`import { request } from 'node:http'`) see the replacements too.
        this.syncBuiltins = (
          (await import(/* @vite-ignore */ NODE_MODULE)) as { syncBuiltinESMExports(): void }
        ).syncBuiltinESMExports;
        this.syncBuiltins();
      } catch (e) {
        console.warn(`[porthole] network: http/https requests will not be captured: ${(e as Error).message}`);
      }
    }
    if (typeof globalThis.fetch === 'function') {
      this.add('fetch', new FetchInterceptor() as unknown as HttpInterceptor);
      this.wrapFetch();
    }
    if (!isNode && g.XMLHttpRequest !== undefined) {
      this.add('xhr', new XMLHttpRequestInterceptor() as unknown as HttpInterceptor);
    }
  }

  private add(kind: Initiator, interceptor: HttpInterceptor): void {
    interceptor.on('request', (event) => this.onRequest(kind, event));
    interceptor.on('response', (event) => this.onResponse(event));
    interceptor.apply();
    this.interceptors.push(interceptor);
    this.interceptorKinds.push(kind);
  }

  /**
   * fetch reports a failure only by rejecting the app's promise; this thin wrapper over the
   * intercepted fetch hands the reason (e.g. ECONNREFUSED) to the transaction it belongs to.
   */
  private wrapFetch(): void {
    const intercepted = globalThis.fetch;
    const agent = this;
    const wrapped = function fetch(this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      const call: { live?: Live } = {};
      agent.currentFetch = call;
      let result: Promise<Response>;
      try {
        result = intercepted.call(this, input, init);
      } finally {
        agent.currentFetch = undefined;
      }
      return result.catch((error: unknown) => {
        if (call.live) agent.fail(call.live, error);
        throw error;
      });
    } as typeof fetch;
    globalThis.fetch = wrapped;
    this.restoreFetch = () => {
      if (globalThis.fetch === wrapped) globalThis.fetch = intercepted;
    };
  }

  private ignored(request: Request): boolean {
    if (request.headers.get('upgrade')) return true; // WebSocket handshakes, the inspector's own link among them
    const url = request.url;
    return (this.options.ignoreUrls ?? []).some((p) => (typeof p === 'string' ? url.includes(p) : p.test(url)));
  }

  /**
   * Whatever goes wrong in here must not reach the interceptor: it would answer the app's request
   * with a 500. A capture problem costs the capture, never the app's request.
   */
  private async onRequest(initiator: Initiator, event: RequestEvent): Promise<void> {
    try {
      await this.capture(initiator, event);
    } catch (e) {
      this.warn('request', e);
    }
  }

  private async capture(initiator: Initiator, { request, requestId, controller }: RequestEvent): Promise<void> {
    if (this.disposed || this.ignored(request)) return;
    const live: Live = {
      id: `${this.idPrefix}-${this.nextId++}`,
      requestId,
      initiator,
      t0: performance.now(),
      responded: false,
      done: false,
    };
    const startedAt = Date.now();
    if (initiator === 'fetch' && this.currentFetch) this.currentFetch.live = live;
    this.live.set(requestId, live);
    this.watchFailures(live, request, controller);

    let body: Awaited<ReturnType<typeof captureBody>>;
    try {
      body = await captureBody(request.clone(), this.maxBodyBytes, REQUEST_BODY_WAIT_MS);
    } catch {
      body = undefined;
    }
    const rule = findMatchingRule(this.config.enabled, this.rules, {
      method: request.method,
      url: request.url,
      header: (name) => request.headers.get(name),
      bodyText: body?.encoding === 'text' ? body.data : undefined,
    });
    this.send('started', {
      id: live.id,
      initiator,
      method: clip(request.method, 32),
      url: clip(request.url, MAX_URL),
      headers: this.headers(request.headers),
      body,
      startedAt,
      mock: rule ? { ruleId: rule.id, ruleName: rule.name } : undefined,
    });
    if (rule) await this.answer(live, rule, controller);
  }

  private async answer(live: Live, rule: MockRule, controller: RequestEvent['controller']): Promise<void> {
    const action = rule.action;
    if (action.delayMs) await sleep(action.delayMs);
    if (live.done) return; // the app gave up (aborted) during the delay
    if (action.type === 'networkError') {
      const error = new TypeError(action.message ?? 'mocked network error');
      this.fail(live, error);
      controller.errorWith(error);
      return;
    }
    controller.respondWith(mockResponse(action));
  }

  private watchFailures(live: Live, request: Request, controller: RequestEvent['controller']): void {
    const raw = getRawRequest(request) as
      | {
          once?: (event: string, listener: (e?: unknown) => void) => void;
          addEventListener?: (event: string, listener: () => void) => void;
        }
      | undefined;
    if (live.initiator === 'http' && typeof raw?.once === 'function') {
      raw.once('error', (error) => this.fail(live, error));
      raw.once('close', () => {
        if (!live.responded) this.fail(live, new Error('the request was closed before a response arrived'));
      });
    } else if (live.initiator === 'xhr' && typeof raw?.addEventListener === 'function') {
      raw.addEventListener('error', () => this.fail(live, new Error('network error')));
      raw.addEventListener('abort', () => this.fail(live, new Error('the request was aborted')));
      raw.addEventListener('timeout', () => this.fail(live, new Error('the request timed out')));
    } else if (live.initiator === 'fetch') {
      // The fetch wrapper reports the reason; this catches a failure it could not attribute.
      void controller.handled.then(() =>
        setTimeout(() => {
          if (!live.responded) this.fail(live, new Error('the request failed without a response'));
        }, 0),
      );
    }
  }

  private onResponse(event: ResponseEvent): void {
    try {
      this.captureResponse(event);
    } catch (e) {
      this.warn('response', e);
    }
  }

  private captureResponse({ response, requestId }: ResponseEvent): void {
    const live = this.live.get(requestId);
    if (!live || live.done || live.responded) return;
    live.responded = true;
    this.send('response', {
      id: live.id,
      status: response.status,
      statusText: clip(response.statusText, 1024),
      headers: this.headers(response.headers),
      waitMs: round(performance.now() - live.t0),
    });
    // Not awaited: the app gets its response at once while the body is captured beside it.
    void captureBody(response, this.maxBodyBytes).then(
      (body) => {
        if (live.done) return;
        live.done = true;
        this.live.delete(live.requestId);
        this.send('completed', { id: live.id, body, durationMs: round(performance.now() - live.t0) });
      },
      (error) => this.fail(live, error, 'the response body failed: '),
    );
  }

  private fail(live: Live, error: unknown, prefix = ''): void {
    if (live.done) return;
    live.done = true;
    this.live.delete(live.requestId);
    const { message, code } = describeError(error);
    this.send('failed', {
      id: live.id,
      message: `${prefix}${message}`.slice(0, 4096),
      code,
      durationMs: round(performance.now() - live.t0),
    });
  }

  private headers(headers: Headers): Header[] {
    const out: Header[] = [];
    const hide = this.scope === 'all';
    const add = (name: string, value: string) => {
      if (out.length < MAX_HEADERS) {
        out.push({ name: clip(name, 1024), value: hide && this.redacted.has(name) ? REDACTED : clip(value, 65_536) });
      }
    };
    headers.forEach((value, name) => {
      if (name !== 'set-cookie') add(name, value);
    });
    for (const value of typeof headers.getSetCookie === 'function' ? headers.getSetCookie() : [])
      add('set-cookie', value);
    return out;
  }

  /** A notification the inspector would refuse is dropped with a warning, never thrown at the app. */
  private send<M extends NotificationMethod<NetworkProtocol['toHost']>>(
    method: M,
    params: NotificationParams<NetworkProtocol['toHost'], M>,
  ): void {
    try {
      this.ctx.notify(method, params);
    } catch (e) {
      this.warn(method, e);
    }
  }

  private warn(what: string, error: unknown): void {
    if (this.warned.has(what)) return;
    this.warned.add(what);
    console.warn(`[porthole] network: a ${what} could not be captured: ${(error as Error)?.message ?? error}`);
  }

  private dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.restoreFetch?.();
    for (const interceptor of this.interceptors.splice(0)) interceptor.dispose();
    this.syncBuiltins();
    this.live.clear();
  }
}

function mockResponse(action: Extract<MockAction, { type: 'respond' }>): Response {
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
  return new Response(nullBody ? null : body, { status: action.status, statusText: action.statusText, headers });
}

function describeError(error: unknown): { message: string; code?: string } {
  if (!(error instanceof Error)) return { message: String(error) };
  const parts = [error.message];
  let code = (error as { code?: unknown }).code;
  let cause = (error as { cause?: unknown }).cause;
  for (let depth = 0; cause instanceof Error && depth < 4; depth++) {
    if (cause.message && !parts.includes(cause.message)) parts.push(cause.message);
    code ??= (cause as { code?: unknown }).code;
    cause = (cause as { cause?: unknown }).cause;
  }
  if (error.name === 'AbortError') parts[0] = `aborted: ${error.message}`;
  return { message: parts.join(': '), code: typeof code === 'string' ? code.slice(0, 64) : undefined };
}

const round = (ms: number) => Math.round(ms * 100) / 100;
const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);
