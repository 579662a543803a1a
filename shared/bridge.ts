import { z } from 'zod';
import {
  type CallDetail,
  CallDetailSchema,
  type CallStatus,
  CallStatusSchema,
  type CallSummary,
  CallSummarySchema,
  ClientInfoSchema,
  ToolResultContentSchema,
  ToolResultJsonSchema,
} from './call-record.js';
import { LinkStatusSchema } from './link-status.js';
import {
  AskAnswerSchema,
  CallDecisionSchema,
  PermissionAskSchema,
  PermissionPolicySchema,
  PermissionPresetSchema,
  PermissionsViewSchema,
} from './permissions.js';
import { SessionInfoSchema } from './session.js';
import { StorageStatusSchema } from './storage-status.js';
import { TimelineEntrySchema, TimelineLevelSchema } from './timeline.js';
import { CallSurfaceSchema, McpSurfaceSchema } from './tool.js';

/**
 * The messages between the inspector window (renderer) and the core. Two transports carry exactly
 * these frames: the Electron preload (contextBridge + IPC) and, in headless mode, a WebSocket on the
 * control server (`/bridge?token=…`). The core validates every frame from the page with these schemas.
 *
 * The window asks with `request` frames and is answered with `reply` frames (same `id`); the core
 * pushes what happens as `events` frames (batched, in order, always flushed before a reply).
 */
export const BRIDGE_VERSION = 1;

/** Path of the WebSocket bridge on the control server (headless mode). */
export const BRIDGE_PATH = '/bridge';

/** Largest frame the page may send, in bytes of UTF-8. */
export const MAX_BRIDGE_FRAME_BYTES = 16 * 1024 * 1024;

/** Electron: the global the preload exposes with `contextBridge.exposeInMainWorld`, and its IPC channels. */
export const PRELOAD_GLOBAL = 'portholeBridge';
export const BRIDGE_IPC = { toCore: 'porthole:bridge:to-core', toWindow: 'porthole:bridge:to-window' } as const;

/** What the preload exposes on `window.portholeBridge`: frames in, frames out — nothing else. */
export interface PreloadBridge {
  send(frame: ClientFrame): void;
  onFrame(listener: (frame: ServerFrame) => void): () => void;
}

// ---------------------------------------------------------------------------------------------
// Values

export const PluginSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  version: z.string(),
  /** Methods the plugin's panel may call on its host instance (`panel.call`). */
  panelMethods: z.array(z.string()),
});
export type PluginSummary = z.infer<typeof PluginSummarySchema>;

export const ToolAnnotationsSchema = z.object({
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

const JsonSchemaObject = z.record(z.string(), z.unknown());

export const ToolInfoSchema = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  /** The plugin the tool belongs to; absent for the inspector's own `inspector_*` tools. */
  plugin: z.string().optional(),
  inputSchema: JsonSchemaObject,
  outputSchema: JsonSchemaObject.optional(),
  annotations: ToolAnnotationsSchema,
});
export type ToolInfo = z.infer<typeof ToolInfoSchema>;

export const ToolContentSchema = ToolResultContentSchema;
export type BridgeToolContent = z.infer<typeof ToolContentSchema>;

/** A tool's answer as the window renders it. `raw` is the handler's own value (the UI surface gets it). */
export const ToolRunResultSchema = ToolResultJsonSchema.extend({ raw: z.unknown().optional() });
export type ToolRunResult = z.infer<typeof ToolRunResultSchema>;

export type { CallDetail, CallStatus, CallSummary };
// The call history's records are defined once, in call-record.ts.
export { CallDetailSchema, CallStatusSchema, CallSummarySchema, CallSurfaceSchema, ClientInfoSchema };

export const McpClientSchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  surface: McpSurfaceSchema,
  connectedAt: z.number(),
  lastActivityAt: z.number().optional(),
  callsInFlight: z.number().int().optional(),
});
export type McpClient = z.infer<typeof McpClientSchema>;

/** A command line an MCP client runs, with the environment it needs (e.g. Electron run as Node). */
export const StdioCommandSchema = z.object({
  command: z.string(),
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()).optional(),
});
export type StdioCommand = z.infer<typeof StdioCommandSchema>;

export const McpStatusSchema = z.object({
  /** False until the MCP server runs (or when it failed to start; see `error`). */
  running: z.boolean(),
  url: z.string().optional(),
  auth: z.enum(['token', 'none']),
  clients: z.array(McpClientSchema),
  /** How an MCP client starts the stdio bridge (`porthole mcp`) for this inspector. */
  stdio: StdioCommandSchema,
  error: z.string().optional(),
});
export type McpStatus = z.infer<typeof McpStatusSchema>;

export const SnapshotSchema = z.object({
  bridgeVersion: z.number().int(),
  version: z.string(),
  mode: z.enum(['headless', 'desktop']),
  debuggeeUrl: z.string(),
  plugins: z.array(PluginSummarySchema),
  sessions: z.array(SessionInfoSchema),
  mcp: McpStatusSchema,
  /** What the debuggee link refused or cut off; `pairing` is there when apps may connect from the LAN. */
  link: LinkStatusSchema.optional(),
  /** Whether the data dir can be written (absent from older cores). */
  storage: StorageStatusSchema.optional(),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;

// ---------------------------------------------------------------------------------------------
// Requests: method → params (validated by the core) and result (validated by the window)

const id = z.string().min(1).max(200);
const name = z.string().min(1).max(100);

/** The most timeline entries one `timeline.query` answers (about 5 MB of JSON at most). */
export const MAX_TIMELINE_PAGE = 20_000;

export const ListedPluginsSchema = z.object({
  all: z.boolean(),
  plugins: z.array(z.object({ id: z.string(), offered: z.boolean(), enabled: z.boolean() })),
});
export type ListedPlugins = z.infer<typeof ListedPluginsSchema>;

export const bridgeRequests = {
  /** The first request of every connection: everything the window shows at start. */
  'app.snapshot': { params: z.object({}), result: SnapshotSchema },
  /** Forgets an inactive session and its data. */
  'sessions.remove': { params: z.object({ sessionId: id }), result: z.object({ removed: z.boolean() }) },
  /**
   * Opens an offline session (no app behind it) running `plugin`, for data read from a file: the
   * window then fills it through the plugin's panel (e.g. network's importHar) and shows it.
   */
  'sessions.openOffline': {
    params: z.object({ plugin: name, source: z.string().min(1).max(500) }),
    result: z.object({ session: SessionInfoSchema }),
  },
  /**
   * A panel's query to its plugin's host instance (declared in the plugin protocol's `panel`
   * section). Plain UI plumbing: not an MCP tool call and not recorded in the call history.
   */
  'panel.call': {
    params: z.object({ sessionId: id, plugin: name, method: name, params: z.unknown().optional() }),
    result: z.unknown(),
  },
  /**
   * A session's timeline across its plugins (requests, console messages, page loads, state
   * actions …), oldest first from `since`; `more` counts the entries in range past `limit`.
   */
  'timeline.query': {
    params: z.object({
      sessionId: id,
      since: z.number().optional(),
      until: z.number().optional(),
      plugins: z.array(name).max(64).optional(),
      minLevel: TimelineLevelSchema.optional(),
      limit: z.number().int().min(1).max(MAX_TIMELINE_PAGE).optional(),
    }),
    result: z.object({ entries: z.array(TimelineEntrySchema), more: z.number().int() }),
  },
  'tools.list': { params: z.object({}), result: z.object({ tools: z.array(ToolInfoSchema) }) },
  /** Runs a tool from the window's tool runner: surface `ui`, recorded in the call history like an MCP call. */
  'tools.run': {
    params: z.object({ name, args: z.record(z.string(), z.unknown()) }),
    result: z.object({ callId: z.string().optional(), result: ToolRunResultSchema }),
  },
  'history.list': {
    params: z.object({ limit: z.number().int().min(1).max(10_000).optional() }),
    /** `capacity`: the most calls the history keeps (a window keeps no more, so counts agree). */
    result: z.object({ calls: z.array(CallSummarySchema), capacity: z.number().int().optional() }),
  },
  /** Ids of the calls whose tool, error, arguments or result contain `text` (case-insensitive). */
  'history.search': {
    params: z.object({ text: z.string().min(1).max(1000) }),
    result: z.object({ ids: z.array(z.string()) }),
  },
  'history.get': { params: z.object({ id }), result: z.object({ call: CallDetailSchema }) },
  'history.clear': { params: z.object({}), result: z.object({ cleared: z.number().int() }) },
  'mcp.status': { params: z.object({}), result: McpStatusSchema },
  /**
   * Headless mode: a new UI key. Every window's access ends (their bridges close with 4009, and the
   * unused links stop working); the answer is this window's own way back in, a one-time link path
   * to open at once (within a minute).
   */
  'ui.newLink': { params: z.object({}), result: z.object({ path: z.string() }) },
  /**
   * Which plugins' tools MCP clients see: listed once an app offered the plugin to this inspector or
   * the person enabled it here (`listed`); `all` when this inspector lists every plugin.
   */
  'mcp.plugins': { params: z.object({}), result: ListedPluginsSchema },
  /** The person's switch: list a plugin's tools to agents although no app offered it (or stop). */
  'mcp.enablePlugin': {
    params: z.object({ id: z.string().min(1).max(64), enabled: z.boolean() }),
    result: ListedPluginsSchema,
  },
  /** The MCP bearer token, only when the user asks to reveal or copy it. */
  'mcp.token': { params: z.object({}), result: z.object({ token: z.string().optional() }) },
  /** Agent permissions: the policy, every tool's permission, the questions waiting, the session grants. */
  'permissions.get': { params: z.object({}), result: PermissionsViewSchema },
  /** Replaces the whole policy (saved in the data dir; MCP clients' tool lists follow it). */
  'permissions.set': { params: z.object({ policy: PermissionPolicySchema }), result: PermissionsViewSchema },
  'permissions.preset': { params: z.object({ preset: PermissionPresetSchema }), result: PermissionsViewSchema },
  /** The answer to a `permission:ask`; `not-found` when it was already settled (timed out, answered elsewhere). */
  'permissions.answer': {
    params: z.object({ askId: id, answer: AskAnswerSchema }),
    result: z.object({ settled: z.literal(true) }),
  },
} as const;

export type BridgeMethod = keyof typeof bridgeRequests;
export const BRIDGE_METHODS = Object.keys(bridgeRequests) as [BridgeMethod, ...BridgeMethod[]];
export type BridgeParams<M extends BridgeMethod> = z.input<(typeof bridgeRequests)[M]['params']>;
export type BridgeResult<M extends BridgeMethod> = z.output<(typeof bridgeRequests)[M]['result']>;

// ---------------------------------------------------------------------------------------------
// Events the core pushes

export const bridgeEvents = {
  'session:connected': z.object({ session: SessionInfoSchema, resumed: z.boolean() }),
  'session:disconnected': z.object({ session: SessionInfoSchema, code: z.number(), reason: z.string() }),
  'session:updated': z.object({ session: SessionInfoSchema }),
  'session:removed': z.object({ sessionId: z.string() }),
  /** Whatever a host plugin publishes with `ctx.emit` (its panel validates `data` with its protocol). */
  'plugin:event': z.object({ sessionId: z.string(), plugin: z.string(), event: z.string(), data: z.unknown() }),
  'call:started': z.object({ call: CallSummarySchema }),
  'call:finished': z.object({ call: CallSummarySchema }),
  'mcp:status': z.object({ status: McpStatusSchema }),
  /** The link refused a LAN app's pairing or cut off an app that did not read (at most 4 a second). */
  'link:stats': LinkStatusSchema,
  /** Writing the data dir failed or works again. */
  'storage:changed': z.object({ storage: StorageStatusSchema }),
  'tools:changed': z.object({}),
  /** The policy or the session grants changed: fetch `permissions.get`. */
  'permissions:changed': z.object({}),
  /** A call waits for the person at the window: show the prompt and answer with `permissions.answer`. */
  'permission:ask': z.object({ ask: PermissionAskSchema }),
  /** A question ended (answered, timed out, or the caller gave up: no decision); close its prompt. */
  'permission:settled': z.object({ askId: z.string(), callId: z.string(), decision: CallDecisionSchema.optional() }),
} as const;

export type BridgeEventName = keyof typeof bridgeEvents;
export type BridgeEventData<E extends BridgeEventName> = z.output<(typeof bridgeEvents)[E]>;
export type BridgeEvent = { [E in BridgeEventName]: { event: E; data: BridgeEventData<E> } }[BridgeEventName];

// ---------------------------------------------------------------------------------------------
// Frames

export const ClientFrameSchema = z.object({
  type: z.literal('request'),
  id: z.string().min(1).max(64),
  method: z.string().min(1).max(100),
  params: z.unknown().optional(),
});
export type ClientFrame = z.infer<typeof ClientFrameSchema>;

export const BridgeErrorCodeSchema = z.enum([
  'invalid-frame',
  'unknown-method',
  'invalid-params',
  'not-found',
  'unavailable',
  'failed',
]);
export type BridgeErrorCode = z.infer<typeof BridgeErrorCodeSchema>;

export const ReplyFrameSchema = z.discriminatedUnion('ok', [
  z.object({ type: z.literal('reply'), id: z.string(), ok: z.literal(true), result: z.unknown() }),
  z.object({
    type: z.literal('reply'),
    id: z.string(),
    ok: z.literal(false),
    error: z.object({ code: BridgeErrorCodeSchema, message: z.string() }),
  }),
]);

export const EventsFrameSchema = z.object({
  type: z.literal('events'),
  events: z.array(z.object({ event: z.string(), data: z.unknown() })),
});

/** A frame the core could not read: it names what was wrong (no id to answer to). */
export const FrameErrorSchema = z.object({ type: z.literal('frame-error'), message: z.string() });

export const ServerFrameSchema = z.union([ReplyFrameSchema, EventsFrameSchema, FrameErrorSchema]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;
export type ReplyFrame = z.infer<typeof ReplyFrameSchema>;

export function isBridgeMethod(method: string): method is BridgeMethod {
  return Object.hasOwn(bridgeRequests, method);
}

export function isBridgeEvent(event: string): event is BridgeEventName {
  return Object.hasOwn(bridgeEvents, event);
}
