import { join } from 'node:path';
import type { HostPluginDefinition } from '../../shared/host-plugin.js';
import { MemoryBudget } from '../../shared/records.js';
import * as builtin from './builtin-plugins.js';
import { ControlServer } from './control-server.js';
import { securePrivateTree } from './data-dir.js';
import { EventBus } from './event-bus.js';
import { CallHistory, type HistoryOptions } from './history/call-history.js';
import { LinkServer, type LinkServerOptions } from './link/link-server.js';
import { weakPairingToken } from './link/pairing.js';
import { machineMemoryBudget } from './machine-budget.js';
import type { McpHttpOptions } from './mcp/mcp-http.js';
import { McpService, type StdioLauncher } from './mcp/mcp-service.js';
import { loadOrCreateToken } from './mcp/mcp-token.js';
import { Permissions } from './permissions/permissions.js';
import { SessionPersistence } from './persistence.js';
import { DataDirHealth } from './persistence-health.js';
import { PluginHost } from './plugin-host.js';
import { loadOrCreateSecretFile } from './secrets.js';
import { SessionRegistry } from './sessions.js';
import type { SourceMapOptions } from './source-maps/index.js';
import { createHostTools } from './tools/host-tools.js';
import { PluginListing } from './tools/plugin-listing.js';
import { ToolRegistry } from './tools/tool-registry.js';
import { ToolService } from './tools/tool-service.js';
import { type InstalledUi, installUi, type UiOptions } from './ui-bridge/index.js';
import { VERSION } from './version.js';

/** The built-in plugins as one typed list: a plugin of the wrong shape does not compile. */
export const builtinPlugins: readonly HostPluginDefinition[] = Object.values(builtin);

export interface CoreOptions {
  dataDir: string;
  debuggeePort: number;
  controlPort: number;
  /**
   * Accept debuggees from the LAN (binds 0.0.0.0); they must present this pairing token. `true`: the
   * token kept in `<data-dir>/lan-token`, made on first use (`--lan` without a value).
   */
  lanPairingToken?: string | true;
  allowedOrigins?: string[];
  plugins?: readonly HostPluginDefinition[];
  link?: Partial<LinkServerOptions>;
  /** The window's bridge; headless (default) also serves the window at `/` of the control server. */
  ui?: UiOptions;
  /** The MCP endpoint: `auth: 'none'` is `--mcp-auth none`; also session cap, idle timeout, body cap, origins. */
  mcp?: Partial<McpHttpOptions>;
  history?: HistoryOptions;
  /** Global byte budget over everything the link feeds (logs, traffic, inactive sessions); default 512 MiB. */
  memoryBudgetBytes?: number;
  /** Sessions connected at once; the next app is refused with `too-many-sessions`. Default 256. */
  maxActiveSessions?: number;
  /** Keep sessions and their captured data across restarts (default true). */
  persistSessions?: boolean;
  /** Source maps: folders of maps the user pointed at (`--source-maps <dir>`), and limits. */
  sourceMaps?: SourceMapOptions;
  /** Desktop mode: captures the inspector window as a PNG (the `inspector_screenshot` tool). */
  windowCapture?: () => Promise<{ base64: string; width: number; height: number }>;
  /** How MCP clients start this build's CLI for `porthole mcp` (default: Node and bin/porthole.js). */
  stdioLauncher?: StdioLauncher;
  /**
   * Which plugins' tools tools/list shows: `offered` (default) those an app offered to this
   * inspector or the user enabled (`<data-dir>/mcp-plugins.json`); `all` every plugin's.
   */
  listedPlugins?: 'offered' | 'all';
}

export interface CoreUrls {
  debuggeeUrl: string;
  controlUrl: string;
  mcpUrl: string;
  /** The window's one-time link (headless): each read gives the link unused now. */
  readonly uiUrl: string;
}

/** A port the user asked for is taken; the message names the flag that changes it. */
export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly flag: string,
  ) {
    super(`port ${port} is already in use; pass ${flag} <port> to use another (0 picks any free port)`);
    this.name = 'PortInUseError';
  }
}

/** The inspector without a window: sessions, plugins, the debuggee link and the control plane. */
export class Core {
  readonly version = VERSION;
  readonly bus = new EventBus();
  /** The byte budget every record store the link feeds shares. */
  readonly budget: MemoryBudget;
  /** Whether the data dir can be written (a full disk, a file replaced by a folder): status tool and window. */
  readonly storage = new DataDirHealth();
  readonly sessions: SessionRegistry;
  /** Sessions and their plugins' records on disk, for resuming after a restart. */
  readonly persistence: SessionPersistence | undefined;
  readonly plugins: PluginHost;
  readonly control = new ControlServer();
  readonly link: LinkServer;
  /** Every tool call from every surface. */
  readonly history: CallHistory;
  /** The tool set (host tools and the plugins' tools): list with JSON Schemas, run, watch changes. */
  readonly tools: ToolService;
  /** What AI agents may do, tool by tool (`<data-dir>/permissions.json`), and the questions waiting for the window. */
  readonly permissions: Permissions;
  /** Which plugins' tools MCP clients are shown: those an app offered, or the user enabled (`mcp-plugins.json`). */
  readonly pluginListing: PluginListing;
  /** The MCP server at `/mcp`: status, URL, token, connected clients. */
  readonly mcp: McpService;
  /** The window's bridge (`ui.bridge.connect(send)` for Electron IPC) and the UI token. */
  readonly ui: InstalledUi;
  private urls: CoreUrls | undefined;
  private lanToken: string | undefined;

  constructor(readonly options: CoreOptions) {
    const weakLanToken = typeof options.lanPairingToken === 'string' && weakPairingToken(options.lanPairingToken);
    if (weakLanToken) throw new Error(weakLanToken);
    this.budget = new MemoryBudget(options.memoryBudgetBytes ?? machineMemoryBudget());
    this.sessions = new SessionRegistry(this.bus, { budget: this.budget, maxActive: options.maxActiveSessions });
    this.persistence =
      options.persistSessions === false
        ? undefined
        : new SessionPersistence(
            join(options.dataDir, 'sessions'),
            () => this.sessions.persisted(),
            () => this.budget.dropped,
            undefined,
            this.storage,
          );
    this.plugins = new PluginHost(
      options.plugins ?? builtinPlugins,
      this.sessions,
      this.bus,
      options.dataDir,
      this.budget,
      this.persistence,
      options.sourceMaps,
    );
    this.link = new LinkServer(
      {
        port: options.debuggeePort,
        host: options.lanPairingToken ? '0.0.0.0' : '127.0.0.1',
        pairingToken: options.lanPairingToken ? () => this.lanPairingToken! : undefined,
        allowedOrigins: options.allowedOrigins,
        ...options.link,
      },
      { sessions: this.sessions, plugins: this.plugins, bus: this.bus },
    );
    this.history = new CallHistory(options.dataDir, this.bus, {
      ...options.history,
      secrets: () => [...(this.ui?.secrets() ?? []), this.mcp?.token(), this.lanToken],
      health: this.storage,
    });
    const registry = new ToolRegistry(this.bus);
    this.permissions = new Permissions({
      dataDir: options.dataDir,
      bus: this.bus,
      tools: () => registry.list(),
      windows: () => this.ui?.bridge.connectionCount ?? 0,
    });
    this.pluginListing = new PluginListing(options.dataDir, this.bus, () =>
      this.plugins.list().map((plugin) => plugin.protocol.id),
    );
    this.tools = new ToolService({
      registry,
      history: this.history,
      sessions: this.sessions,
      plugins: this.plugins,
      bus: this.bus,
      permissions: this.permissions,
      ...(options.listedPlugins === 'all' ? {} : { listing: this.pluginListing }),
    });
    this.mcp = new McpService(
      {
        dataDir: options.dataDir,
        bus: this.bus,
        tools: this.tools,
        control: this.control,
        stdioLauncher: options.stdioLauncher,
      },
      options.mcp,
    );
    this.tools.register(
      createHostTools({
        version: VERSION,
        dataDir: options.dataDir,
        sessions: this.sessions,
        plugins: this.plugins,
        registry,
        urls: () => this.urls,
        budget: this.budget,
        storage: () => this.storage.status(),
        mcpClients: () => this.mcp.clients(),
        link: () => this.link.stats,
        permissions: this.permissions,
        windowCapture: options.windowCapture,
      }),
    );
    for (const plugin of this.plugins.list()) {
      if (plugin.tools?.length) this.tools.register(plugin.tools, plugin.protocol.id);
    }
    this.ui = installUi(
      this.control,
      {
        version: VERSION,
        bus: this.bus,
        sessions: this.sessions,
        plugins: this.plugins,
        dataDir: options.dataDir,
        debuggeeUrl: () => this.urls?.debuggeeUrl ?? '',
        tools: this.tools,
        history: this.history,
        mcp: this.mcp,
        permissions: this.permissions,
        ...(options.listedPlugins === 'all' ? {} : { listing: this.pluginListing }),
        link: () => this.link.stats,
        storage: this.storage,
      },
      options.ui,
    );
    this.control.route('/healthz', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, version: VERSION }));
    });
  }

  /** The LAN pairing token, or undefined when the link is loopback only. */
  get lanPairingToken(): string | undefined {
    const { lanPairingToken } = this.options;
    if (lanPairingToken === undefined) return undefined;
    this.lanToken ??=
      lanPairingToken === true ? loadOrCreateSecretFile(join(this.options.dataDir, 'lan-token')) : lanPairingToken;
    return this.lanToken;
  }

  get started(): CoreUrls {
    if (!this.urls) throw new Error('the core has not been started');
    return this.urls;
  }

  async start(): Promise<CoreUrls> {
    securePrivateTree(this.options.dataDir);
    // Secrets first: a token file that cannot be used stops the start before any port is taken.
    void this.ui.token;
    void this.lanPairingToken;
    if ((this.options.mcp?.auth ?? 'token') === 'token') loadOrCreateToken(this.options.dataDir);
    this.history.load();
    this.permissions.load();
    this.restoreSessions();
    const debuggeeUrl = await listenOrExplain(() => this.link.listen(), this.options.debuggeePort, '--debuggee-port');
    let controlUrl: string;
    try {
      controlUrl = await listenOrExplain(
        () => this.control.listen(this.options.controlPort),
        this.options.controlPort,
        '--control-port',
      );
    } catch (e) {
      await this.link.close();
      throw e;
    }
    const ui = this.ui;
    this.urls = {
      debuggeeUrl,
      controlUrl,
      mcpUrl: `${controlUrl}/mcp`,
      // One-time: once opened, the next unused link.
      get uiUrl() {
        return ui.url(controlUrl);
      },
    };
    this.mcp.start(controlUrl);
    return this.urls;
  }

  /** Lists the sessions of the last run (inactive, resumable) with their plugins' data, then keeps them saved. */
  private restoreSessions(): void {
    const persistence = this.persistence;
    if (!persistence) return;
    const { sessions, dropped } = persistence.loadSessions();
    // A session the budget drops while the later ones load goes with its files, as in a live run.
    this.bus.on('session:removed', ({ sessionId }) => persistence.removeSession(sessionId));
    for (const saved of sessions) this.sessions.restore(saved, (session) => this.plugins.open(session));
    // What was dropped before the restart, with what restoring had to drop now (a smaller budget).
    this.budget.dropped.count += dropped.count;
    this.budget.dropped.bytes += dropped.bytes;
    const changed = () => persistence.sessionsChanged();
    this.bus.on('session:connected', changed);
    this.bus.on('session:disconnected', changed);
    this.bus.on('session:updated', changed);
    changed();
  }

  async stop(): Promise<void> {
    this.permissions.close();
    this.ui.close();
    await this.mcp.stop().catch(() => {});
    await Promise.allSettled([this.link.close(), this.control.close()]);
    await this.history.flush();
    await this.persistence?.close();
    this.plugins.sourceMaps.close();
  }
}

async function listenOrExplain(listen: () => Promise<string>, port: number, flag: string): Promise<string> {
  try {
    return await listen();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(port, flag);
    throw e;
  }
}
