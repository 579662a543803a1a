import type { z } from 'zod';
import type {
  NotificationMethod,
  NotificationParams,
  NotificationPayload,
  PluginProtocol,
  RequestMethod,
  RequestParams,
  RequestPayload,
  RequestResult,
} from '../shared/plugin-protocol.js';
import type { Attached } from '../shared/protocol/attachment.js';
import type { RequestOptions } from '../shared/protocol/messenger.js';
import { RequestError } from '../shared/protocol/request-error.js';
import { madeFrame } from './made-frame.js';
import { OfflineBuffer } from './offline-buffer.js';

/** What a plugin's agent part can do; given to its setup function. */
export interface AgentPluginContext<P extends PluginProtocol> {
  /**
   * Sends a notification to the host part; buffered (bounded, drop-oldest) while offline. Notifications
   * made within a few milliseconds leave together (at most 10 ms later); `flush()` writes them now.
   * Params given as a function are made when the notification leaves, off the path of the app's
   * code that caused it: the function must only read values that no longer change. Params the
   * inspector would refuse (too large, too deep) then drop the notification with a warning instead of
   * throwing here.
   */
  notify<M extends NotificationMethod<P['toHost']>>(
    method: M,
    params: NotificationParams<P['toHost'], M> | (() => NotificationParams<P['toHost'], M>),
    /**
     * Bytes for the empty string at `attached.path` in params, sent as they are in a binary frame
     * (docs/protocol.md, "binary notification") and turned into that string by the inspector; encoded
     * here instead when the link has no binary frames or is offline.
     */
    attached?: Attached,
  ): void;
  /** Asks the host part; rejects with a RequestError when offline or unanswered. */
  request<M extends RequestMethod<P['toHost']>>(
    method: M,
    params: RequestParams<P['toHost'], M>,
    options?: RequestOptions,
  ): Promise<RequestResult<P['toHost'], M>>;
  /** Answers a request from the host part. Params arrive validated against the protocol. */
  handle<M extends RequestMethod<P['toAgent']>>(
    method: M,
    handler: (
      params: RequestPayload<P['toAgent'], M>,
      signal: AbortSignal,
    ) => RequestResultInput<P, M> | Promise<RequestResultInput<P, M>>,
  ): void;
  /** Receives a notification from the host part. */
  on<M extends NotificationMethod<P['toAgent']>>(
    method: M,
    listener: (params: NotificationPayload<P['toAgent'], M>) => void,
  ): void;
  /** Writes the notifications waiting for the end of this turn now (before the process may end). */
  flush(): void;
  /** True while the inspector is connected and accepted this plugin. */
  readonly connected: boolean;
  /**
   * The version of this plugin's protocol the connected inspector speaks; undefined offline or when
   * the inspector is too old to say. Send what a newer minor version added only when it is at least that.
   */
  readonly hostVersion: string | undefined;
  /** Bytes sent to the inspector that the link has not written yet: it is behind when this grows. */
  readonly unsentBytes: number;
  /** Called with true on every (re)connection, false on every loss. */
  onConnectionChange(listener: (connected: boolean) => void): void;
}

type RequestResultInput<P extends PluginProtocol, M extends RequestMethod<P['toAgent']>> = z.input<
  NonNullable<P['toAgent']['requests']>[M]['result']
>;

/** The link between a plugin and the agent's connection; set by connect(). */
export interface PluginLink {
  notify(plugin: string, method: string, params: unknown, attached?: Attached): boolean;
  flush?(): void;
  unsentBytes?(): number;
  request(plugin: string, method: string, params: unknown, options?: RequestOptions): Promise<unknown>;
}

/**
 * The part of a plugin's protocol the agent carries: its id and version, checked against
 * `protocol.ts` by the compiler (`const ref: ProtocolRef<typeof myProtocol> = { id, version }`, with
 * `import type`), so the app's bundle holds no schemas. The inspector validates what crosses the wire.
 */
export interface ProtocolRef<P extends PluginProtocol = PluginProtocol> {
  readonly id: P['id'];
  readonly version: P['version'];
  /** Carries the protocol's type; never set. */
  readonly protocol?: P;
}

export interface AgentPlugin<P extends PluginProtocol = PluginProtocol> {
  readonly protocol: ProtocolRef<P>;
  /** Internal: the connection's side of the plugin. */
  readonly runtime: AgentPluginRuntime;
}

type Handler = (params: unknown, signal: AbortSignal) => unknown;

/** The connection-facing half of an agent plugin: its handlers, buffer and connection state. */
export class AgentPluginRuntime {
  readonly handlers = new Map<string, Handler>();
  readonly listeners = new Map<string, (params: unknown) => void>();
  readonly connectionListeners = new Set<(connected: boolean) => void>();
  buffer: OfflineBuffer = new OfflineBuffer(1000);
  link: PluginLink | undefined;
  connected = false;
  hostVersion: string | undefined;

  constructor(readonly protocol: ProtocolRef) {}

  setConnected(connected: boolean, hostVersion?: string): void {
    this.hostVersion = connected ? hostVersion : undefined;
    if (this.connected === connected) return;
    this.connected = connected;
    for (const listener of this.connectionListeners) {
      try {
        listener(connected);
      } catch (e) {
        console.error(`[porthole] ${this.protocol.id} connection listener threw:`, e);
      }
    }
  }

  async handleRequest(method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    const handler = this.handlers.get(method);
    if (!handler) {
      throw new RequestError('no-handler', `the app's ${this.protocol.id} plugin does not handle ${named(method)}`);
    }
    return await handler(objectParams(params, `${this.protocol.id} ${named(method)} params`), signal);
  }

  handleNotification(method: string, params: unknown): void {
    const listener = this.listeners.get(method);
    if (!listener)
      throw new RequestError('no-handler', `the app's ${this.protocol.id} plugin has no notification ${named(method)}`);
    listener(objectParams(params, `${this.protocol.id} ${named(method)} notification`));
  }
}

/**
 * Defines a plugin's agent part. `setup` runs at once and may return an API object that is merged
 * into the plugin (e.g. `log()` on the example plugin); notifications made before connect() are buffered.
 */
export function defineAgentPlugin<P extends PluginProtocol, Api extends object = object>(
  protocol: ProtocolRef<P>,
  setup: (ctx: AgentPluginContext<P>) => Api | void,
): AgentPlugin<P> & Api;
/** The same with the whole protocol object: simpler, but the app's bundle then carries its schemas. */
export function defineAgentPlugin<P extends PluginProtocol, Api extends object = object>(
  protocol: P,
  setup: (ctx: AgentPluginContext<P>) => Api | void,
): AgentPlugin<P> & Api;
export function defineAgentPlugin<P extends PluginProtocol, Api extends object = object>(
  given: P | ProtocolRef<P>,
  setup: (ctx: AgentPluginContext<P>) => Api | void,
): AgentPlugin<P> & Api {
  const protocol: ProtocolRef<P> = { id: given.id, version: given.version };
  const runtime = new AgentPluginRuntime(protocol);
  const id = protocol.id;
  const ctx: AgentPluginContext<P> = {
    notify: (method, params, attached) => {
      if (runtime.connected && runtime.link?.notify(id, method, params, attached)) return;
      // Kept for later, params made now; attached bytes stay bytes until the link sends them.
      const frame = madeFrame({ type: 'notification' as const, plugin: id, method, params });
      runtime.buffer.push(id, method, frame.params, attached);
    },
    request: async (method, params, options) => {
      if (!runtime.connected || !runtime.link) {
        throw new RequestError('peer-gone', 'the inspector is not connected');
      }
      return (await runtime.link.request(id, method, params, options)) as never;
    },
    handle: (method, handler) => {
      runtime.handlers.set(method, handler as Handler);
    },
    on: (method, listener) => {
      runtime.listeners.set(method, listener as (params: unknown) => void);
    },
    flush: () => runtime.link?.flush?.(),
    get connected() {
      return runtime.connected;
    },
    get hostVersion() {
      return runtime.hostVersion;
    },
    get unsentBytes() {
      return runtime.link?.unsentBytes?.() ?? 0;
    },
    onConnectionChange: (listener) => {
      runtime.connectionListeners.add(listener);
    },
  };
  const api = setup(ctx) ?? ({} as Api);
  return Object.assign(api, { protocol, runtime }) as AgentPlugin<P> & Api;
}

/** Params the inspector sent: a JSON object (or nothing); the handler reads its fields. */
function objectParams(params: unknown, what: string): unknown {
  if (params === undefined || (typeof params === 'object' && params !== null && !Array.isArray(params))) {
    return params ?? {};
  }
  throw new RequestError('invalid-params', `invalid ${what}: expected an object`);
}

/** A method name as errors quote it: at most 40 characters of what the inspector sent. */
const named = (method: string) => JSON.stringify(method.length > 40 ? `${method.slice(0, 40)}…` : method);
