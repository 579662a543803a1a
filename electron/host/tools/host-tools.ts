import { z } from 'zod';
import { type LinkStatus, LinkStatusSchema } from '../../../shared/link-status.js';
import { PermissionSchema, PermissionSourceSchema } from '../../../shared/permissions.js';
import { AppInfoSchema } from '../../../shared/protocol/messages.js';
import type { MemoryBudget } from '../../../shared/records.js';
import { type SessionInfo, SessionInfoSchema } from '../../../shared/session.js';
import { type StorageStatus, StorageStatusSchema } from '../../../shared/storage-status.js';
import { type ClientInfo, defineTool, McpSurfaceSchema, ToolError } from '../../../shared/tool.js';
import { ToolResult } from '../../../shared/tool-result.js';
import type { McpClientInfo } from '../mcp/mcp-status.js';
import type { Permissions } from '../permissions/permissions.js';
import type { PluginHost } from '../plugin-host.js';
import type { SessionRegistry } from '../sessions.js';
import { createDebugBundleTool } from './debug-bundle-tool.js';
import { jsonBytes, pageOf } from './paging.js';
import type { ToolRegistry } from './tool-registry.js';

export interface HostToolDeps {
  version: string;
  dataDir: string;
  sessions: SessionRegistry;
  plugins: PluginHost;
  registry: ToolRegistry;
  /** Undefined until the core has started. */
  urls(): { debuggeeUrl: string; controlUrl: string; mcpUrl: string; uiUrl: string } | undefined;
  budget?: MemoryBudget;
  /** Whether the data dir can be written now. */
  storage?: () => StorageStatus;
  mcpClients(): McpClientInfo[];
  /** What the debuggee link refused or cut off since the start. */
  link?: () => LinkStatus;
  permissions?: Permissions;
  /** Desktop mode only: captures the inspector window. */
  windowCapture?: () => Promise<{ base64: string; width: number; height: number }>;
}

/** A session as MCP callers get it: everything but the app icon (a data: URL of no use to an agent). */
const McpSessionSchema = SessionInfoSchema.extend({ app: AppInfoSchema.omit({ icon: true }) });

/**
 * A session as MCP callers get it and the bytes of its JSON, made once per SessionInfo (the registry
 * replaces an info object whenever it changes, never edits one): a page is made of the few it holds.
 */
const mcpSessions = new WeakMap<
  SessionInfo,
  { session: Omit<SessionInfo, 'app'> & { app: Omit<SessionInfo['app'], 'icon'> }; bytes: number }
>();
function forMcp(info: SessionInfo) {
  let made = mcpSessions.get(info);
  if (!made) {
    const { icon: _icon, ...app } = info.app;
    const session = { ...info, app };
    mcpSessions.set(info, (made = { session, bytes: jsonBytes(session) }));
  }
  return made;
}

/** inspector_list_plugins names at most this many sessions per plugin (and as many refusals). */
const SESSIONS_PER_PLUGIN = 10;

const portOf = (url: string | undefined) => (url ? Number(new URL(url).port) : null);

/** The inspector's own tools: `inspector_*`. */
export function createHostTools(deps: HostToolDeps) {
  const listSessions = defineTool({
    name: 'inspector_list_sessions',
    alwaysLoad: true,
    title: 'List debuggee sessions',
    description:
      'The apps (sessions) the inspector knows, connected (active) or not, with their plugins, oldest first. A session id is the sessionId of plugin tools.',
    input: z.object({
      activeOnly: z.boolean().optional().describe('Only the sessions whose app is connected now.'),
      limit: z.number().int().min(1).max(256).default(20).describe('Sessions per page (fewer when they are large).'),
      cursor: z.string().max(16).optional().describe('The nextCursor of the previous page.'),
    }),
    output: z.object({
      sessions: z.array(McpSessionSchema),
      total: z.number().int().describe('Sessions over all pages.'),
      nextCursor: z.string().optional().describe('Pass it back as cursor for the next page; absent on the last.'),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: ({ activeOnly, limit, cursor }) => {
      const all = deps.sessions.list().filter((s) => !activeOnly || s.active);
      const { items, ...page } = pageOf(all, { limit, cursor, sizeOf: (s) => forMcp(s).bytes });
      return { sessions: items.map((s) => forMcp(s).session), ...page };
    },
  });

  const listPlugins = defineTool({
    name: 'inspector_list_plugins',
    title: 'List plugins',
    description:
      'The plugins, their tools, and per session (connected first, at most 10) whether each is active and its version, or why it was refused.',
    input: z.object({}),
    output: z.object({
      plugins: z.array(
        z.object({
          id: z.string(),
          title: z.string(),
          version: z.string().describe("The inspector's protocol version of the plugin."),
          tools: z.array(z.string()),
          sessions: z.array(
            z.object({
              sessionId: z.string(),
              app: z.string(),
              device: z.string(),
              active: z.boolean().describe('The app is connected and runs this plugin.'),
              version: z.string().describe("The app's version of the plugin."),
            }),
          ),
          incompatible: z.array(
            z.object({ sessionId: z.string(), app: z.string(), version: z.string(), reason: z.string() }),
          ),
          moreSessions: z
            .number()
            .int()
            .optional()
            .describe('Sessions left out of both lists; inspector_list_sessions has every one.'),
        }),
      ),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: () => {
      // Connected first, then the most recently connected.
      const sessions = [...deps.sessions.list()].sort(
        (a, b) => Number(b.active) - Number(a.active) || b.lastConnectedAt - a.lastConnectedAt,
      );
      const tools = deps.registry.list();
      return {
        plugins: deps.plugins.list().map(({ protocol, title }) => {
          const running = sessions.flatMap((s) => {
            const offer = s.plugins.accepted.find((p) => p.id === protocol.id);
            return offer
              ? [{ sessionId: s.id, app: s.app.name, device: s.device.name, active: s.active, version: offer.version }]
              : [];
          });
          const incompatible = sessions.flatMap((s) =>
            s.plugins.incompatible
              .filter((p) => p.id === protocol.id)
              .map((p) => ({ sessionId: s.id, app: s.app.name, version: p.version, reason: p.reason })),
          );
          const more =
            Math.max(0, running.length - SESSIONS_PER_PLUGIN) + Math.max(0, incompatible.length - SESSIONS_PER_PLUGIN);
          return {
            id: protocol.id,
            title,
            version: protocol.version,
            tools: tools.filter((t) => t.plugin === protocol.id).map((t) => t.name),
            sessions: running.slice(0, SESSIONS_PER_PLUGIN),
            incompatible: incompatible.slice(0, SESSIONS_PER_PLUGIN),
            ...(more > 0 ? { moreSessions: more } : {}),
          };
        }),
      };
    },
  });

  const getStatus = defineTool({
    name: 'inspector_get_status',
    title: 'Inspector status',
    description:
      "The inspector's version, URLs, sessions (how many connected), MCP clients, and per tool whether you may call it: allowed, asked (the user approves), denied.",
    input: z.object({}),
    output: z.object({
      version: z.string(),
      ports: z.object({ debuggee: z.number().nullable(), control: z.number().nullable() }),
      urls: z
        .object({
          debuggee: z.string(),
          mcp: z.string(),
          ui: z
            .string()
            .describe(
              "The window's address without its token (never given to tools): open the URL the inspector printed, or uiUrl in <data-dir>/instance.json.",
            ),
        })
        .nullable(),
      sessions: z.object({ total: z.number().int(), active: z.number().int(), max: z.number().int() }),
      memory: z
        .object({
          budgetBytes: z.number().describe('The global memory budget for captured data (--memory-budget).'),
          usedBytes: z.number().describe('Estimated bytes held by logs, traffic and inactive sessions.'),
          dropped: z
            .object({ count: z.number().int(), bytes: z.number() })
            .describe(
              'Records dropped as the oldest to stay within the budgets, over every run (kept with the sessions).',
            ),
        })
        .optional(),
      link: LinkStatusSchema.optional().describe(
        'Since the start: apps cut off for not reading their socket (close 4005); with --lan, pairing refusals.',
      ),
      storage: StorageStatusSchema.optional().describe(
        'Whether the data dir can be written. While it cannot (a full disk, a file replaced by a folder), everything works from memory and the writes are tried again; problems say what to do.',
      ),
      mcpClients: z.array(
        z.object({
          name: z.string(),
          version: z.string(),
          surface: McpSurfaceSchema,
          connectedAt: z.number(),
        }),
      ),
      dataDir: z.string(),
      permissions: z
        .object({
          readOnly: z
            .boolean()
            .describe('The user switched the inspector to read-only for you: tools that change things are denied.'),
          askTimeoutMs: z.number().int().describe('How long an `ask` tool waits for the user to answer in the window.'),
          whenNoWindow: z
            .enum(['deny', 'allow'])
            .describe('What an `ask` tool does when no Porthole window is open to ask in.'),
          windowOpen: z.boolean().describe('A Porthole window is connected, so `ask` tools can be answered.'),
          tools: z.array(
            z.object({
              name: z.string(),
              permission: PermissionSchema,
              reason: PermissionSourceSchema.describe(
                'default: not set; tool: set by the user; client: set for your client name; read-only / client-read-only: the read-only switch.',
              ),
            }),
          ),
        })
        .optional()
        .describe(
          'What you (this MCP client) may do, as the user set it in the window: allow runs at once, ask waits for the user to approve, deny is refused and not listed. Plan with it instead of failing.',
        ),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    handler: (_args, ctx) => {
      const urls = deps.urls();
      const sessions = deps.sessions.list();
      return {
        version: deps.version,
        ports: { debuggee: portOf(urls?.debuggeeUrl), control: portOf(urls?.controlUrl) },
        urls: urls ? { debuggee: urls.debuggeeUrl, mcp: urls.mcpUrl, ui: `${urls.controlUrl}/` } : null,
        sessions: {
          total: sessions.length,
          active: sessions.filter((s) => s.active).length,
          max: deps.sessions.maxActive,
        },
        memory: deps.budget && {
          budgetBytes: deps.budget.maxBytes,
          usedBytes: deps.budget.usedBytes,
          dropped: { ...deps.budget.dropped },
        },
        link: deps.link?.(),
        storage: deps.storage?.(),
        mcpClients: deps.mcpClients(),
        dataDir: deps.dataDir,
        permissions: deps.permissions && permissionsFor(deps.permissions, deps.registry, ctx.client),
      };
    },
  });

  const screenshot = defineTool({
    name: 'inspector_screenshot',
    title: 'Screenshot the inspector window',
    description:
      'The Porthole window itself (what the developer sees) as a PNG; needs the desktop app. For the debugged app, use ui_screenshot.',
    input: z.object({}),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: async () => {
      if (!deps.windowCapture) {
        throw new ToolError(
          'inspector_screenshot needs the Porthole desktop app: this inspector runs headless (porthole serve) and has no window. Start it with `npm start` where Electron can run, or capture the debuggee with ui_screenshot.',
        );
      }
      let shot: { base64: string; width: number; height: number };
      try {
        shot = await deps.windowCapture();
      } catch (e) {
        throw new ToolError(
          `could not capture the inspector window: ${(e as Error).message}; open the window and retry`,
        );
      }
      return ToolResult.image(shot.base64, 'image/png', `The inspector window, ${shot.width}×${shot.height} px.`);
    },
  });

  const debugBundle = createDebugBundleTool(deps);

  return [debugBundle, listSessions, listPlugins, getStatus, screenshot];
}

function permissionsFor(permissions: Permissions, registry: ToolRegistry, client: ClientInfo | undefined) {
  const policy = permissions.policy();
  const own = client && Object.hasOwn(policy.clients, client.name) ? policy.clients[client.name] : undefined;
  return {
    readOnly: policy.readOnly || own?.readOnly === true,
    askTimeoutMs: policy.askTimeoutMs,
    whenNoWindow: policy.headlessAsk,
    windowOpen: permissions.windowOpen(),
    tools: registry.list().map((tool) => {
      const { permission, source } = permissions.effective(tool, client);
      return { name: tool.name, permission, reason: source };
    }),
  };
}
