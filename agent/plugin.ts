import type { z } from 'zod';
import {
  type NotificationMethod,
  type NotificationParams,
  type NotificationPayload,
  type PluginProtocol,
  parseWire,
  type RequestMethod,
  type RequestParams,
  type RequestPayload,
  type RequestResult,
} from '../shared/plugin-protocol.js';
import { RequestError, type RequestOptions } from '../shared/protocol/messenger.js';
import { OfflineBuffer } from './offline-buffer.js';

/** What a plugin's agent part can do; given to its setup function. */
export interface AgentPluginContext<P extends PluginProtocol> {
  /** Sends a notification to the host part; buffered (bounded, drop-oldest) while offline. */
  notify<M extends NotificationMethod<P['toHost']>>(method: M, params: NotificationParams<P['toHost'], M>): void;
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
  /** True while the inspector is connected and accepted this plugin. */
  readonly connected: boolean;
  /** Called with true on every (re)connection, false on every loss. */
  onConnectionChange(listener: (connected: boolean) => void): void;
}

type RequestResultInput<P extends PluginProtocol, M extends RequestMethod<P['toAgent']>> = z.input<
  NonNullable<P['toAgent']['requests']>[M]['result']
>;

/** The link between a plugin and the agent's connection; set by connect(). */
export interface PluginLink {
  notify(plugin: string, method: string, params: unknown): boolean;
  request(plugin: string, method: string, params: unknown, options?: RequestOptions): Promise<unknown>;
}

export interface AgentPlugin<P extends PluginProtocol = PluginProtocol> {
  readonly protocol: P;
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

  constructor(readonly protocol: PluginProtocol) {}

  setConnected(connected: boolean): void {
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
    const spec = this.protocol.toAgent.requests?.[method];
    const handler = this.handlers.get(method);
    if (!spec || !handler) {
      throw new RequestError('no-handler', `the app's ${this.protocol.id} plugin does not handle "${method}"`);
    }
    const payload = parseWire(spec.params, params, `${this.protocol.id}.${method} params`, 'invalid-params');
    return await handler(payload, signal);
  }

  handleNotification(method: string, params: unknown): void {
    const schema = this.protocol.toAgent.notifications?.[method];
    if (!schema)
      throw new RequestError('no-handler', `the app's ${this.protocol.id} plugin has no notification "${method}"`);
    const payload = parseWire(schema, params, `${this.protocol.id}.${method} notification`, 'invalid-params');
    this.listeners.get(method)?.(payload);
  }
}

/**
 * Defines a plugin's agent part. `setup` runs at once and may return an API object that is merged
 * into the plugin (e.g. `log()` on the example plugin); notifications made before connect() are buffered.
 */
export function defineAgentPlugin<P extends PluginProtocol, Api extends object = object>(
  protocol: P,
  setup: (ctx: AgentPluginContext<P>) => Api | void,
): AgentPlugin<P> & Api {
  const runtime = new AgentPluginRuntime(protocol);
  const id = protocol.id;
  const ctx: AgentPluginContext<P> = {
    notify: (method, params) => {
      const schema = protocol.toHost.notifications?.[method];
      const payload = schema ? parseWire(schema, params, `${id}.${method} notification`, 'invalid-params') : params;
      if (!(runtime.connected && runtime.link?.notify(id, method, payload))) runtime.buffer.push(id, method, payload);
    },
    request: async (method, params, options) => {
      if (!runtime.connected || !runtime.link) {
        throw new RequestError('peer-gone', 'the inspector is not connected');
      }
      const spec = protocol.toHost.requests?.[method];
      if (!spec) throw new RequestError('no-handler', `plugin "${id}" declares no request "${method}"`);
      const result = await runtime.link.request(id, method, params, options);
      return parseWire(spec.result, result, `reply to ${id}.${method}`, 'handler-error') as never;
    },
    handle: (method, handler) => {
      runtime.handlers.set(method, handler as Handler);
    },
    on: (method, listener) => {
      runtime.listeners.set(method, listener as (params: unknown) => void);
    },
    get connected() {
      return runtime.connected;
    },
    onConnectionChange: (listener) => {
      runtime.connectionListeners.add(listener);
    },
  };
  const api = setup(ctx) ?? ({} as Api);
  return Object.assign(api, { protocol, runtime }) as AgentPlugin<P> & Api;
}
