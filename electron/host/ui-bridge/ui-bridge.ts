import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  BRIDGE_VERSION,
  type BridgeErrorCode,
  type BridgeEventName,
  type BridgeMethod,
  type BridgeResult,
  bridgeRequests,
  ClientFrameSchema,
  isBridgeMethod,
  type ListedPlugins,
  MAX_BRIDGE_FRAME_BYTES,
  type ServerFrame,
  type Snapshot,
} from '../../../shared/bridge.js';
import type { LinkStatus } from '../../../shared/link-status.js';
import { boundMessage } from '../../../shared/protocol/codec.js';
import { overJsonBudget } from '../../../shared/protocol/json-budget.js';
import { Limits } from '../../../shared/protocol/limits.js';
import type { StorageStatus } from '../../../shared/storage-status.js';
import { describeIssues } from '../../../shared/zod-issues.js';
import type { EventBus } from '../event-bus.js';
import type { PluginHost } from '../plugin-host.js';
import type { SessionRegistry } from '../sessions.js';
import type { BridgeHistory, BridgeMcp, BridgePermissions, BridgePluginListing, BridgeTools } from './services.js';

export interface UiBridgeDeps {
  version: string;
  mode: 'headless' | 'desktop';
  bus: EventBus;
  sessions: SessionRegistry;
  plugins: PluginHost;
  debuggeeUrl(): string;
  tools: BridgeTools;
  history: BridgeHistory;
  mcp: BridgeMcp;
  permissions: BridgePermissions;
  /** Which plugins' tools MCP clients see; absent when every plugin is listed. */
  listing?: BridgePluginListing;
  /** The debuggee link's refusals (LAN pairing) and cut-offs. */
  link?: () => LinkStatus;
  /** Headless mode: who may open the window (a new UI key, and this window's one-time link back in). */
  access?: { newLink(): string };
  /** Whether the data dir can be written (shown in the window while it cannot). */
  storage?: { status(): StorageStatus; onChange(listener: (status: StorageStatus) => void): () => void };
}

/** A failure the window is told about with a code and a message that says what to do. */
export class BridgeError extends Error {
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}

export interface BridgeConnection {
  /** A frame from the page: a JSON string (WebSocket) or an object (Electron IPC). Never throws. */
  receive(raw: unknown): void;
  close(): void;
}

type Handler<M extends BridgeMethod> = (
  params: z.output<(typeof bridgeRequests)[M]['params']>,
  signal: AbortSignal,
) => BridgeResult<M> | Promise<BridgeResult<M>>;

const EVENT_FLUSH_MS = 15;
/** Deep values would make JSON.stringify throw further on; a HAR the window imports may hold any number of values. */
const BRIDGE_BUDGET = { maxDepth: Limits.maxDepth, maxValues: Number.POSITIVE_INFINITY };

/**
 * The core side of the window's bridge, independent of the transport: the WebSocket endpoint
 * (headless) and the Electron IPC (desktop) each open one connection per window.
 */
export class UiBridge {
  private readonly connections = new Set<BridgeConnection>();

  constructor(private readonly deps: UiBridgeDeps) {}

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Opens a connection; `send` delivers one frame to the page and may throw when it cannot. */
  connect(send: (frame: ServerFrame) => void): BridgeConnection {
    const connection = new Connection(this.deps, send, () => this.connections.delete(connection));
    this.connections.add(connection);
    return connection;
  }

  close(): void {
    for (const connection of [...this.connections]) connection.close();
  }
}

class Connection implements BridgeConnection {
  private readonly unsubscribe: (() => void)[] = [];
  private readonly inFlight = new Set<AbortController>();
  private queue: { event: string; data: unknown }[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private readonly handlers: { [M in BridgeMethod]: Handler<M> };

  constructor(
    private readonly deps: UiBridgeDeps,
    private readonly sendFrame: (frame: ServerFrame) => void,
    private readonly onClose: () => void,
  ) {
    this.handlers = this.createHandlers();
    const { bus } = deps;
    const forward =
      <E extends BridgeEventName>(event: E) =>
      (data: unknown) =>
        this.push(event, data);
    this.unsubscribe.push(
      bus.on('session:connected', forward('session:connected')),
      bus.on('session:disconnected', forward('session:disconnected')),
      bus.on('session:updated', forward('session:updated')),
      bus.on('session:removed', forward('session:removed')),
      bus.on('plugin:event', forward('plugin:event')),
      bus.on('permission:ask', forward('permission:ask')),
      bus.on('permission:settled', forward('permission:settled')),
      bus.on('link:stats', forward('link:stats')),
    );
    this.unsubscribe.push(
      deps.history.subscribe((event, call) => this.push(event, { call })),
      deps.mcp.onStatus((status) => this.push('mcp:status', { status })),
      deps.tools.onChanged(() => this.push('tools:changed', {})),
      deps.permissions.onChanged(() => this.push('permissions:changed', {})),
    );
    if (deps.storage)
      this.unsubscribe.push(deps.storage.onChange((storage) => this.push('storage:changed', { storage })));
  }

  receive(raw: unknown): void {
    if (this.closed) return;
    try {
      this.handle(raw);
    } catch (e) {
      console.error('[porthole] the UI bridge failed on a frame:', e);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.flushTimer);
    for (const off of this.unsubscribe.splice(0)) off();
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
    this.queue = [];
    this.onClose();
  }

  private handle(raw: unknown): void {
    let value = raw;
    if (typeof raw === 'string') {
      if (raw.length > MAX_BRIDGE_FRAME_BYTES)
        return this.frameError(`the frame is larger than ${MAX_BRIDGE_FRAME_BYTES} bytes`);
      const over = overJsonBudget(raw, BRIDGE_BUDGET);
      if (over) return this.frameError(`the frame was refused: ${over}`);
      try {
        value = JSON.parse(raw);
      } catch {
        return this.frameError('the frame is not JSON');
      }
    }
    const frame = ClientFrameSchema.safeParse(value);
    if (!frame.success) {
      const id = (value as { id?: unknown } | null)?.id;
      const message = `invalid request frame: ${describeIssues(frame.error)}`;
      if (typeof id === 'string' && id.length > 0 && id.length <= 64) return this.fail(id, 'invalid-frame', message);
      return this.frameError(message);
    }
    const { id, method, params } = frame.data;
    if (!isBridgeMethod(method)) {
      return this.fail(
        id,
        'unknown-method',
        `unknown method "${method}"; this inspector speaks bridge v${BRIDGE_VERSION}`,
      );
    }
    const parsed = bridgeRequests[method].params.safeParse(params ?? {});
    if (!parsed.success)
      return this.fail(id, 'invalid-params', `invalid params for ${method}: ${describeIssues(parsed.error)}`);
    void this.run(id, method, parsed.data);
  }

  private async run(id: string, method: BridgeMethod, params: unknown): Promise<void> {
    const controller = new AbortController();
    this.inFlight.add(controller);
    try {
      const result = await (this.handlers[method] as Handler<BridgeMethod>)(params as never, controller.signal);
      if (this.closed) return;
      this.reply({ type: 'reply', id, ok: true, result });
    } catch (e) {
      if (this.closed) return;
      const code = e instanceof BridgeError ? e.code : 'failed';
      this.fail(id, code, e instanceof Error ? e.message : String(e));
    } finally {
      this.inFlight.delete(controller);
    }
  }

  private createHandlers(): { [M in BridgeMethod]: Handler<M> } {
    const { deps } = this;
    const { tools, history } = deps;
    return {
      'app.snapshot': (): Snapshot => ({
        bridgeVersion: BRIDGE_VERSION,
        version: deps.version,
        mode: deps.mode,
        debuggeeUrl: deps.debuggeeUrl(),
        plugins: deps.plugins.list().map((d) => ({
          id: d.protocol.id,
          title: d.title,
          version: d.protocol.version,
          panelMethods: Object.keys(d.protocol.panel?.requests ?? {}),
        })),
        sessions: deps.sessions.list(),
        mcp: deps.mcp.status(),
        link: deps.link?.(),
        storage: deps.storage?.status(),
      }),
      'sessions.remove': ({ sessionId }) => {
        const session = deps.sessions.get(sessionId);
        if (!session) throw new BridgeError('not-found', `no session ${sessionId}; it may have been cleared already`);
        if (session.info.active) {
          throw new BridgeError('failed', 'an active session cannot be cleared; disconnect the app first');
        }
        return { removed: deps.sessions.remove(sessionId) };
      },
      'sessions.openOffline': ({ plugin, source }) => {
        const definition = deps.plugins.list().find((d) => d.protocol.id === plugin);
        if (!definition) throw new BridgeError('not-found', `this inspector has no "${plugin}" plugin`);
        const session = deps.sessions.openOffline({
          app: { id: `offline:${randomUUID()}`, name: source.slice(0, 200) },
          device: { id: 'offline', name: 'Files', platform: 'other' },
          plugins: [{ id: plugin, version: definition.protocol.version }],
          source,
        });
        deps.plugins.open(session);
        return { session: session.info };
      },
      'panel.call': (p, signal) => this.panelCall(p, signal),
      'timeline.query': ({ sessionId, limit, ...range }) => {
        if (!deps.sessions.get(sessionId)) {
          throw new BridgeError('not-found', `no session ${sessionId}; it may have been cleared`);
        }
        return deps.plugins.timeline(sessionId).query({ ...range, limit: limit ?? 5000 });
      },
      'tools.list': async () => ({ tools: await tools.list() }),
      'tools.run': ({ name, args }, signal) => tools.run(name, args, signal),
      'history.list': async ({ limit }) => ({
        calls: await history.list(limit ?? history.capacity),
        capacity: history.capacity,
      }),
      'history.search': async ({ text }) => ({ ids: await history.search(text) }),
      'history.get': async ({ id }) => {
        const call = await history.get(id);
        if (!call) throw new BridgeError('not-found', `no call ${id} in the history; it may have been cleared`);
        return { call };
      },
      'history.clear': async () => ({ cleared: await history.clear() }),
      'mcp.status': () => deps.mcp.status(),
      'mcp.token': () => ({ token: deps.mcp.token() }),
      'mcp.plugins': () => this.listedPlugins(),
      'mcp.enablePlugin': ({ id, enabled }) => {
        if (!deps.listing) throw new BridgeError('unavailable', 'this inspector lists every plugin to MCP clients');
        if (!deps.listing.list().some((p) => p.id === id)) {
          throw new BridgeError('not-found', `this inspector has no "${id}" plugin`);
        }
        deps.listing.setEnabled(id, enabled);
        return this.listedPlugins();
      },
      'ui.newLink': () => {
        if (!deps.access) {
          throw new BridgeError('unavailable', 'the desktop window needs no link: only headless windows open one');
        }
        return { path: deps.access.newLink() };
      },
      'permissions.get': () => deps.permissions.view(),
      'permissions.set': ({ policy }) => deps.permissions.set(policy),
      'permissions.preset': ({ preset }) => deps.permissions.preset(preset),
      'permissions.answer': ({ askId, answer }) => {
        if (!deps.permissions.answer(askId, answer)) {
          throw new BridgeError(
            'not-found',
            'this question is no longer waiting: it timed out, its caller gave up, or another window answered it',
          );
        }
        return { settled: true };
      },
    };
  }

  private listedPlugins(): ListedPlugins {
    const { listing, plugins } = this.deps;
    if (listing) return { all: false, plugins: listing.list() };
    return { all: true, plugins: plugins.list().map((d) => ({ id: d.protocol.id, offered: false, enabled: true })) };
  }

  private async panelCall(
    { sessionId, plugin, method, params }: { sessionId: string; plugin: string; method: string; params?: unknown },
    signal: AbortSignal,
  ): Promise<unknown> {
    const definition = this.deps.plugins.list().find((d) => d.protocol.id === plugin);
    if (!definition) throw new BridgeError('not-found', `this inspector has no "${plugin}" plugin`);
    const requests = definition.protocol.panel?.requests ?? {};
    const spec = Object.hasOwn(requests, method) ? requests[method] : undefined;
    if (!spec) throw new BridgeError('not-found', `the ${plugin} plugin's panel has no method "${method}"`);
    if (!this.deps.sessions.get(sessionId)) {
      throw new BridgeError('not-found', `no session ${sessionId}; it may have been cleared`);
    }
    const instance = this.deps.plugins.instance(sessionId, plugin);
    if (!instance) {
      throw new BridgeError('not-found', `session ${sessionId} has no ${plugin} plugin: the app did not offer it`);
    }
    const handler = (instance.panel as Record<string, Function> | undefined)?.[method] as
      | ((p: unknown, s: AbortSignal) => unknown)
      | undefined;
    if (typeof handler !== 'function') {
      throw new BridgeError('unavailable', `the ${plugin} plugin does not answer "${method}" from its panel`);
    }
    const input = spec.params.safeParse(params ?? {});
    if (!input.success) {
      throw new BridgeError('invalid-params', `invalid params for ${plugin}.${method}: ${describeIssues(input.error)}`);
    }
    const output = spec.result.safeParse(await handler(input.data, signal));
    if (!output.success) {
      throw new BridgeError(
        'failed',
        `the ${plugin} plugin answered ${method} with an invalid value: ${describeIssues(output.error)}`,
      );
    }
    return output.data;
  }

  private push(event: string, data: unknown): void {
    if (this.closed) return;
    this.queue.push({ event, data });
    this.flushTimer ??= setTimeout(() => this.flush(), EVENT_FLUSH_MS);
  }

  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.queue.length === 0 || this.closed) return;
    const events = this.queue;
    this.queue = [];
    if (this.trySend({ type: 'events', events })) return;
    // One event the transport could not carry (e.g. not serializable) must not take the others with it.
    for (const event of events) {
      if (!this.trySend({ type: 'events', events: [event] })) {
        console.error(`[porthole] dropped a ${event.event} event the window could not be sent`);
      }
    }
  }

  private reply(frame: ServerFrame): void {
    this.flush();
    if (!this.trySend(frame) && frame.type === 'reply' && frame.ok) {
      this.trySend({
        type: 'reply',
        id: frame.id,
        ok: false,
        error: { code: 'failed', message: 'the answer could not be sent to the window (not serializable)' },
      });
    }
  }

  private fail(id: string, code: BridgeErrorCode, message: string): void {
    this.reply({ type: 'reply', id, ok: false, error: { code, message: boundMessage(message) } });
  }

  private frameError(message: string): void {
    this.reply({ type: 'frame-error', message: boundMessage(message) });
  }

  private trySend(frame: ServerFrame): boolean {
    try {
      this.sendFrame(frame);
      return true;
    } catch (e) {
      if (!this.closed) console.error('[porthole] the UI bridge could not send a frame:', (e as Error).message);
      return false;
    }
  }
}
