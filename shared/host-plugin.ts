import type {
  NotificationMethod,
  NotificationParams,
  NotificationPayload,
  PanelMethod,
  PanelPayload,
  PanelResult,
  PluginProtocol,
  RequestMethod,
  RequestParams,
  RequestPayload,
  RequestResult,
} from './plugin-protocol.js';
import type { RequestOptions } from './protocol/messenger.js';
import type { RecordsApi } from './records.js';
import type { SessionInfo } from './session.js';
import type { TimelinePage, TimelineQuery } from './timeline.js';
import type { PluginToolContext, ToolDefinition } from './tool.js';

/** JSON documents a plugin keeps in the data dir, scoped to (plugin, app id): they outlive sessions. */
export interface AppStore {
  /** The document, or undefined; a file that is not JSON is moved aside (and reported) first. */
  read<T>(key: string): T | undefined;
  /** Copies the document beside itself (e.g. before repairing it); returns the copy's path. */
  backup(key: string, what: string): string | undefined;
  /** Atomic: the file is written beside and renamed over the old one. */
  write(key: string, value: unknown): void;
  /** Called when another session of the same app writes `key` (e.g. to push the change to its app). */
  watch<T>(key: string, listener: (value: T) => void): () => void;
}

/** A place in a script, as a stack frame names it (line and column from 1). */
export interface SourceFrame {
  file: string;
  line: number;
  column: number;
  fn?: string;
}

export interface HostPluginContext<P extends PluginProtocol> {
  readonly sessionId: string;
  /** The session as it is now (active flag, app, device). */
  session(): SessionInfo;
  /** True while the debuggee is connected and has this plugin. */
  readonly active: boolean;
  /** Sends a request to the plugin's agent part; rejects with a RequestError (peer-gone, timeout, …). */
  request<M extends RequestMethod<P['toAgent']>>(
    method: M,
    params: RequestParams<P['toAgent'], M>,
    options?: RequestOptions,
  ): Promise<RequestResult<P['toAgent'], M>>;
  /** Sends a notification to the agent part; throws a RequestError when the debuggee is not connected. */
  notify<M extends NotificationMethod<P['toAgent']>>(method: M, params: NotificationParams<P['toAgent'], M>): void;
  /** Publishes a plugin event to the window (and anyone else on the event bus). */
  emit(event: string, data?: unknown): void;
  /** Persistent storage for this plugin and the session's app. */
  readonly store: AppStore;
  /**
   * In-memory record stores (logs, captured traffic) under the inspector's global byte budget
   * (`--memory-budget`): past it the oldest records of any session go first and are counted.
   * The stores are released when the session is cleared.
   */
  readonly records: RecordsApi;
  /**
   * Writes a large artifact (a whole-session HAR) to `<data-dir>/exports/` (mode 0600, a safe form of
   * `fileName`, never outside that folder) and returns its absolute path and size.
   */
  saveExport(fileName: string, data: string): { path: string; bytes: number };
  /** The session's timeline across its plugins (see SessionTimeline). */
  readonly timeline: SessionTimeline;
  /**
   * The inspector's source maps for this session: a frame's place in the app's original source, or
   * undefined when no map says. Scripts and maps are fetched and read only where the session's
   * connection allows (docs/plugins.md, "Source maps"); maps are shared by the session's plugins and
   * count against the memory budget.
   */
  readonly sourceMaps: { map(frame: SourceFrame): Promise<SourceFrame | undefined> };
  /**
   * The text of a file the user named (an import), at most `maxBytes`: opened once without blocking
   * (a FIFO or device is refused, never waited on), checked on the opened handle (a regular file,
   * its size), then read. Files in the data dir are refused, except its `exports/`. Rejects with an
   * Error that says why (`what` names the file, e.g. "HAR file") and quotes nothing of the file.
   */
  readUserFile(path: string, maxBytes: number, what: string): Promise<string>;
}

/**
 * One time-ordered view of a session across its plugins (requests, console messages, page loads,
 * agent actions, state actions), merged from each plugin's `timeline()` and the core's page loads.
 * What a tool uses to say what an action caused, and the window's Timeline.
 */
export interface SessionTimeline {
  query(query: TimelineQuery): TimelinePage;
  /** Called after anything in the session changed (any plugin's `emit`, a load); returns the unsubscribe. */
  onChange(listener: () => void): () => void;
}

type RequestHandlers<P extends PluginProtocol> = {
  [M in RequestMethod<P['toHost']>]?: (
    params: RequestPayload<P['toHost'], M>,
    signal: AbortSignal,
  ) => RequestResult<P['toHost'], M> | Promise<RequestResult<P['toHost'], M>>;
};

type NotificationHandlers<P extends PluginProtocol> = {
  [M in NotificationMethod<P['toHost']>]?: (params: NotificationPayload<P['toHost'], M>) => void;
};

/** Answers to the panel's requests (declared in the protocol's `panel.requests`). */
export type PanelHandlers<P extends PluginProtocol> = {
  [M in PanelMethod<P>]?: (
    params: PanelPayload<P, M>,
    signal: AbortSignal,
  ) => PanelResult<P, M> | Promise<PanelResult<P, M>>;
};

/** One host-side plugin instance, created once per (plugin, session) and kept while the session is listed. */
export interface HostPluginInstance<P extends PluginProtocol> {
  notifications?: NotificationHandlers<P>;
  requests?: RequestHandlers<P>;
  /** Answers its panel in the window; validated against the protocol's `panel` section by the UI bridge. */
  panel?: PanelHandlers<P>;
  /** The debuggee (re)connected with this plugin active. */
  onConnect?(): void | Promise<void>;
  /** The debuggee went away; the instance and its data stay until the session is cleared. */
  onDisconnect?(): void;
  /** The session was cleared: release everything. */
  dispose?(): void;
  /** What this plugin kept in a time range, for the session's timeline (`timelinePage` builds it). */
  timeline?(query: TimelineQuery): TimelinePage;
}

export interface HostPluginDefinition<
  P extends PluginProtocol = PluginProtocol,
  I extends HostPluginInstance<P> = HostPluginInstance<P>,
> {
  protocol: P;
  /** Shown in the window. */
  title: string;
  create(ctx: HostPluginContext<P>): I;
  /** MCP tools, named `<pluginId>_*`; listed whether or not a debuggee is connected. */
  tools?: readonly ToolDefinition<PluginToolContext<I>>[];
}

export function definePlugin<P extends PluginProtocol, I extends HostPluginInstance<P>>(
  definition: HostPluginDefinition<P, I>,
): HostPluginDefinition<P, I> {
  return definition;
}
