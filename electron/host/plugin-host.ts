import { join } from 'node:path';
import type { DebugBundleQuery, DebugContribution } from '../../shared/debug-bundle.js';
import type {
  AppStore,
  HostPluginContext,
  HostPluginDefinition,
  HostPluginInstance,
  SessionTimeline,
} from '../../shared/host-plugin.js';
import { majorOf, type PluginProtocol, parseWire } from '../../shared/plugin-protocol.js';
import type { PluginOffer } from '../../shared/protocol/messages.js';
import { type IncomingRequest, RequestError, type RequestOptions } from '../../shared/protocol/messenger.js';
import { MemoryBudget, type RecordStore, type RecordStoreOptions, type RecordsApi } from '../../shared/records.js';
import type { SessionInfo } from '../../shared/session.js';
import { mergeTimeline, type TimelineEntry, type TimelinePage, timelinePage } from '../../shared/timeline.js';
import { keepAside, pluginAppDir, readJson, safeName, writeFileAtomic } from './data-dir.js';
import { readUserFile } from './data-dir-user-file.js';
import type { EventBus } from './event-bus.js';
import type { SessionPersistence } from './persistence.js';
import type { Load, Session, SessionRegistry } from './sessions.js';
import { type SourceMapOptions, SourceMapService } from './source-maps/index.js';

type AnyInstance = HostPluginInstance<PluginProtocol>;

/** Creates one host-plugin instance per (plugin, session) and routes the session's plugin frames to it. */
export class PluginHost {
  private readonly definitions = new Map<string, HostPluginDefinition>();
  private readonly instances = new Map<string, Map<string, AnyInstance>>();
  /** AppStore watchers by file: a write through one session's store reaches the others. */
  private readonly watchers = new Map<string, Set<{ store: AppStore; listener: (value: unknown) => void }>>();
  /** Record stores each (session, plugin) opened, released with the session. */
  private readonly recordScopes = new Map<string, (RecordsApi & { closeAll(): void })[]>();
  /** Source maps, one mapper per session, shared by its plugins (`ctx.sourceMaps`). */
  readonly sourceMaps: SourceMapService;

  constructor(
    definitions: readonly HostPluginDefinition[],
    private readonly sessions: SessionRegistry,
    private readonly bus: EventBus,
    private readonly dataDir: string,
    readonly budget: MemoryBudget = new MemoryBudget(),
    private readonly persistence?: SessionPersistence,
    sourceMaps: SourceMapOptions = {},
  ) {
    this.sourceMaps = new SourceMapService(sessions, budget, sourceMaps);
    for (const definition of definitions) {
      const id = definition.protocol.id;
      if (this.definitions.has(id)) throw new Error(`plugin "${id}" is registered twice`);
      this.definitions.set(id, definition);
    }
    bus.on('session:removed', ({ sessionId }) => this.disposeSession(sessionId));
  }

  list(): HostPluginDefinition[] {
    return [...this.definitions.values()];
  }

  /** The protocol version this inspector speaks for a plugin. */
  speaks(id: string): string | undefined {
    return this.definitions.get(id)?.protocol.version;
  }

  /** Splits what an agent offers into the plugins this inspector runs and the ones it cannot, with reasons. */
  negotiate(offers: PluginOffer[]): { accepted: PluginOffer[]; incompatible: SessionInfo['plugins']['incompatible'] } {
    const accepted: PluginOffer[] = [];
    const incompatible: SessionInfo['plugins']['incompatible'] = [];
    for (const offer of offers) {
      const definition = this.definitions.get(offer.id);
      if (!definition) {
        incompatible.push({ ...offer, reason: `this inspector has no "${offer.id}" plugin` });
      } else if (majorOf(definition.protocol.version) !== majorOf(offer.version)) {
        incompatible.push({
          ...offer,
          reason: `the agent has ${offer.id} ${offer.version}, the inspector speaks ${definition.protocol.version}; their major versions must match`,
        });
      } else if (accepted.some((a) => a.id === offer.id)) {
        incompatible.push({ ...offer, reason: `plugin "${offer.id}" was offered twice` });
      } else {
        accepted.push(offer);
      }
    }
    return { accepted, incompatible };
  }

  instance(sessionId: string, plugin: string): AnyInstance | undefined {
    return this.instances.get(sessionId)?.get(plugin);
  }

  isActive(session: Session, plugin: string): boolean {
    return session.link !== undefined && session.info.plugins.accepted.some((p) => p.id === plugin);
  }

  /** Creates the session's missing plugin instances (an offline session gets them without a connect). */
  open(session: Session): Map<string, AnyInstance> {
    let perSession = this.instances.get(session.info.id);
    if (!perSession) this.instances.set(session.info.id, (perSession = new Map()));
    for (const { id } of session.info.plugins.accepted) {
      const definition = this.definitions.get(id);
      if (definition && !perSession.has(id))
        perSession.set(id, definition.create(this.context(session.info.id, definition)));
    }
    return perSession;
  }

  /** The session just connected or resumed: create missing instances, then tell each active one. */
  async connected(session: Session): Promise<void> {
    // A reload may have rebuilt the scripts, and the new connection decides what may be fetched.
    this.sourceMaps.reset(session.info.id);
    const instances = this.open(session);
    for (const { id } of session.info.plugins.accepted) {
      const instance = instances.get(id);
      if (!instance) continue;
      try {
        await instance.onConnect?.();
      } catch (e) {
        console.error(`[porthole] plugin ${id} failed in onConnect:`, e);
      }
    }
  }

  disconnected(sessionId: string): void {
    for (const [id, instance] of this.instances.get(sessionId) ?? []) {
      try {
        instance.onDisconnect?.();
      } catch (e) {
        console.error(`[porthole] plugin ${id} failed in onDisconnect:`, e);
      }
    }
  }

  handleNotification(sessionId: string, plugin: string, method: string, params: unknown): void {
    const definition = this.definitions.get(plugin);
    const schema = definition?.protocol.toHost.notifications?.[method];
    if (!schema) throw new RequestError('no-handler', `plugin "${plugin}" has no notification "${method}"`);
    const payload = parseWire(schema, params, `${plugin}.${method} notification`, 'invalid-params');
    const handler = this.instance(sessionId, plugin)?.notifications?.[method as never] as
      | ((p: unknown) => void)
      | undefined;
    handler?.(payload);
  }

  async handleRequest(sessionId: string, request: IncomingRequest): Promise<unknown> {
    const { plugin, method } = request;
    const spec = this.definitions.get(plugin)?.protocol.toHost.requests?.[method];
    const handler = this.instance(sessionId, plugin)?.requests?.[method as never] as
      | ((p: unknown, signal: AbortSignal) => unknown)
      | undefined;
    if (!spec || !handler)
      throw new RequestError('no-handler', `the inspector's ${plugin} plugin does not handle "${method}"`);
    const params = parseWire(spec.params, request.params, `${plugin}.${method} params`, 'invalid-params');
    return await handler(params, request.signal);
  }

  private context(sessionId: string, definition: HostPluginDefinition): HostPluginContext<PluginProtocol> {
    const plugin = definition.protocol.id;
    const sessions = this.sessions;
    const live = () => {
      const session = sessions.get(sessionId);
      if (!session?.link) {
        throw new RequestError(
          'peer-gone',
          `the debuggee of session ${sessionId} is disconnected; reconnect the app or pick an active session`,
        );
      }
      if (!session.info.plugins.accepted.some((p) => p.id === plugin)) {
        throw new RequestError('plugin-not-active', `plugin "${plugin}" is not active in session ${sessionId}`);
      }
      return session.link.messenger;
    };
    const records = this.budget.scope(`${plugin}:`);
    const scopes = this.recordScopes.get(sessionId) ?? [];
    scopes.push(records);
    this.recordScopes.set(sessionId, scopes);
    return {
      sessionId,
      records: { open: (name, options) => this.openRecords(sessionId, plugin, records, name, options) },
      session: () => {
        const session = sessions.get(sessionId);
        if (!session) throw new Error(`session ${sessionId} was removed`);
        return session.info;
      },
      get active() {
        const session = sessions.get(sessionId);
        return !!session?.link && session.info.plugins.accepted.some((p) => p.id === plugin);
      },
      request: async (method: string, params: unknown, options?: RequestOptions) => {
        const spec = definition.protocol.toAgent.requests?.[method];
        if (!spec) throw new RequestError('no-handler', `plugin "${plugin}" declares no request "${method}"`);
        const result = await live().request(plugin, method, params, options);
        return parseWire(spec.result, result, `reply to ${plugin}.${method} from the debuggee`, 'handler-error');
      },
      notify: (method: string, params: unknown) => live().notify(plugin, method, params),
      emit: (event, data) => this.bus.emit('plugin:event', { sessionId, plugin, event, data }),
      store: this.appStore(plugin, () => sessions.get(sessionId)?.info.app.id ?? sessionId),
      sourceMaps: {
        map: (frame) => this.sourceMaps.map(sessionId, frame),
        source: (frame) => this.sourceMaps.source(sessionId, frame),
      },
      saveExport: (fileName: string, data: string) => {
        const path = join(this.dataDir, 'exports', exportFileName(fileName));
        writeFileAtomic(path, data);
        return { path, bytes: Buffer.byteLength(data) };
      },
      timeline: this.timeline(sessionId),
      readUserFile: (path: string, maxBytes: number, what: string) =>
        readUserFile(path, { dataDir: this.dataDir, maxBytes, what }),
    } as HostPluginContext<PluginProtocol>;
  }

  /** What each of the session's plugins adds to inspector_debug_bundle (a plugin that fails is left out). */
  async debugContributions(
    sessionId: string,
    query: DebugBundleQuery,
  ): Promise<{ plugin: string; contribution: DebugContribution }[]> {
    const out: { plugin: string; contribution: DebugContribution }[] = [];
    for (const [plugin, instance] of this.instances.get(sessionId) ?? []) {
      if (!instance.debugBundle) continue;
      try {
        out.push({ plugin, contribution: await instance.debugBundle(query) });
      } catch (e) {
        console.error(`[porthole] plugin ${plugin} failed to answer for the debug bundle:`, e);
      }
    }
    return out;
  }

  /** The session's timeline: its plugins' entries and its page loads, merged by time. */
  timeline(sessionId: string): SessionTimeline {
    return {
      query: (query) => {
        const pages: TimelinePage[] = [];
        const loads = this.sessions.get(sessionId)?.loads;
        if (loads && (!query.plugins || query.plugins.includes('inspector'))) {
          pages.push(timelinePage(loads, (l) => l.startedAt, loadEntry, query));
        }
        for (const [id, instance] of this.instances.get(sessionId) ?? []) {
          if (!instance.timeline || (query.plugins && !query.plugins.includes(id))) continue;
          try {
            pages.push(instance.timeline(query));
          } catch (e) {
            console.error(`[porthole] plugin ${id} failed to answer for the timeline:`, e);
          }
        }
        return mergeTimeline(pages, query.limit);
      },
      onChange: (listener) => {
        const offEvents = this.bus.on('plugin:event', (e) => e.sessionId === sessionId && listener());
        const offSession = this.bus.on('session:updated', (e) => e.session.id === sessionId && listener());
        const offConnected = this.bus.on('session:connected', (e) => e.session.id === sessionId && listener());
        return () => {
          offEvents();
          offSession();
          offConnected();
        };
      },
    };
  }

  /** A record store for a plugin; a `persist` one is filled from the last run and written back as it changes. */
  private openRecords<T>(
    sessionId: string,
    plugin: string,
    records: RecordsApi,
    name: string,
    options: RecordStoreOptions<T> = {},
  ): RecordStore<T> {
    const persistence = this.persistence;
    if (!options.persist || !persistence) return records.open<T>(name, options);
    const file = persistence.storeFile(sessionId, plugin, name);
    let loaded = false;
    const journal = persistence.journal(file, () => store);
    const store = records.open<T>(name, {
      ...options,
      onDrop: (values, dropped, keys) => {
        if (loaded) for (const key of keys) journal.deleted(key);
        options.onDrop?.(values, dropped, keys);
      },
    });
    const { droppedNow } = persistence.loadStore(file, store);
    loaded = true;
    // Records that no longer fit went as the file was read: write what the store holds now.
    if (droppedNow) journal.rewrite();
    const tracked: RecordStore<T> = Object.create(store);
    tracked.set = (key, value) => {
      store.set(key, value);
      journal.changed(key);
    };
    tracked.remeasure = (key) => {
      store.remeasure(key);
      journal.changed(key);
    };
    tracked.delete = (key) => {
      const had = store.delete(key);
      if (had) journal.deleted(key);
      return had;
    };
    tracked.drop = (key) => store.drop(key); // journalled through onDrop
    tracked.clear = () => {
      const n = store.clear();
      journal.rewrite();
      return n;
    };
    return tracked;
  }

  private appStore(plugin: string, appId: () => string): AppStore {
    const file = (key: string) => join(pluginAppDir(this.dataDir, plugin, appId()), `${safeName(key)}.json`);
    const store: AppStore = {
      read: <T>(key: string) => readJson<T>(file(key), { quarantine: true }),
      backup: (key, what) => keepAside(file(key), what, true),
      write: (key, value) => {
        const path = file(key);
        writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
        for (const watcher of this.watchers.get(path) ?? []) {
          if (watcher.store !== store) watcher.listener(value);
        }
      },
      watch: (key, listener) => {
        const path = file(key);
        let set = this.watchers.get(path);
        if (!set) this.watchers.set(path, (set = new Set()));
        const watcher = { store, listener: listener as (value: unknown) => void };
        set.add(watcher);
        return () => {
          set.delete(watcher);
          if (set.size === 0) this.watchers.delete(path);
        };
      },
    };
    return store;
  }

  private disposeSession(sessionId: string): void {
    this.sourceMaps.reset(sessionId);
    for (const [id, instance] of this.instances.get(sessionId) ?? []) {
      try {
        instance.dispose?.();
      } catch (e) {
        console.error(`[porthole] plugin ${id} failed in dispose:`, e);
      }
    }
    this.instances.delete(sessionId);
    for (const scope of this.recordScopes.get(sessionId) ?? []) scope.closeAll();
    this.recordScopes.delete(sessionId);
  }
}

function loadEntry(load: Load): TimelineEntry {
  return {
    time: load.startedAt,
    plugin: 'inspector',
    kind: 'load',
    ref: String(load.seq),
    summary: `Load ${load.seq}${load.url ? `: ${load.url.slice(0, 280)}` : ''}`,
  };
}

/** An export's file name as given, made safe for every file system and for a file:// link (dots kept, no leading dot). */
function exportFileName(name: string): string {
  return (
    name
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^\.+/, '')
      .slice(0, 150) || 'export'
  );
}
