import {
  type CallToolResult,
  INVALID_PARAMS,
  type JSONRPCRequest,
  type ListToolsResult,
  ResourceNotFoundError,
  type Result,
  Server,
  type ServerContext,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';

const SUPPORTED_MODERN_VERSIONS: readonly string[] = ['2026-07-28'];

import type { ClientInfo } from '../../../shared/call-record.js';
import {
  CALL_ID_META,
  getsRawValue,
  type McpSurface,
  RAW_VALUE_META,
  STATUS_META,
  type ToolAnnotations,
} from '../../../shared/tool.js';
import type { ToolResult } from '../../../shared/tool-result.js';
import { ASK_FORM, askAnswerOf, type ClientAsker } from '../permissions/permissions.js';
import type { ToolService } from '../tools/tool-service.js';
import { VERSION } from '../version.js';
import {
  appUris,
  listAppResources,
  MCP_APPS_SERVER_EXTENSION,
  readAppResource,
  rendersApps,
  uiMetaOf,
} from './mcp-apps.js';

/** The protocol era a server instance serves: `legacy` is 2025-06-18 / 2025-11-25 (sessions), `modern` 2026-07-28. */
export type McpEra = 'legacy' | 'modern';

export interface McpServerOptions {
  surface: McpSurface;
  era: McpEra;
  /** Told when a call starts (+1) and ends (-1), so an MCP session with a call running is never swept. */
  onCallsInFlight?(delta: 1 | -1): void;
  /** The plugins this client narrowed its list to (`?plugins=` on the MCP URL, `porthole mcp --plugins`). */
  plugins?: readonly string[];
}

export interface McpToolsServer {
  server: Server;
  /** The client's name and version: from its initialize request (legacy), or from the request's `_meta` (modern). */
  client(): ClientInfo | undefined;
  dispose(): void;
}

/** Who the server says it is (the SDK stamps it into every 2026-07-28 result's `_meta`). */
export const SERVER_INFO = { name: 'porthole', title: 'Porthole', version: VERSION } as const;

/** The server's `instructions`: where to start, how sessions and cursors work. */
export const INSTRUCTIONS = `Porthole inspects running JavaScript/TypeScript apps (web pages, Node services, React Native, Electron). \
Each app that embeds the Porthole agent is a session. When something is broken, start with inspector_debug_bundle: the recent \
errors, grouped, with the failed and slow requests and console lines around each, the page loads and the mock rules in force. \
inspector_list_sessions lists the apps. Plugin tools (<plugin>_*) act on one session: pass its sessionId, or omit it when exactly \
one connected app has the plugin. Lists answer a page at a time: pass nextCursor back as cursor for the next one. Every structured \
answer starts with a one-line summary of what it holds and what to call next. Tools that change the app may wait for the user to \
allow them. A result flagged isError says what went wrong and what to do next.`;

/** Every protocol version /mcp serves: 2026-07-28 stateless, and the 2025 (and older) revisions through initialize. */
export const SERVED_PROTOCOL_VERSIONS: readonly string[] = [
  ...SUPPORTED_MODERN_VERSIONS,
  ...SUPPORTED_PROTOCOL_VERSIONS.filter((v) => !SUPPORTED_MODERN_VERSIONS.includes(v)),
];

type RawHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * A Server whose tools/call handler sees the request as sent. The SDK would parse it with the
 * spec schema first (a call without `name` would get -32603 with a validation dump) and validate
 * the result after; the ToolService checks the arguments itself and names what is wrong, and
 * its results are well-formed by construction.
 */
class ToolsServer extends Server {
  rawCall: RawHandler | undefined;

  protected override _wrapHandler(method: string, handler: RawHandler): RawHandler {
    if (method === 'server/discover') {
      // Every version the endpoint serves, not only the modern ones (the SDK's own answer).
      const discover = super._wrapHandler(method, handler);
      return async (request, ctx) => ({
        ...(await discover(request, ctx)),
        supportedVersions: [...SERVED_PROTOCOL_VERSIONS],
      });
    }
    if (method !== 'tools/call') return super._wrapHandler(method, handler);
    return (request, ctx) => (this.rawCall ?? handler)(request, ctx);
  }
}

/**
 * A JSON-RPC -32602 error. Not a ProtocolError: clients prefix the message with "MCP error
 * -32602:" themselves.
 */
function invalidParams(message: string, data?: Record<string, unknown>): Error {
  return Object.assign(new Error(message), { code: INVALID_PARAMS, data });
}

export function toCallToolResult(result: ToolResult): CallToolResult {
  return result.toJSON() as CallToolResult;
}

/** The tools this client may see (the window's permissions hide denied ones), with the registry's schemas. */
export function listTools(
  tools: ToolService,
  client?: ClientInfo,
  { plugins, surface, apps = false }: { plugins?: readonly string[]; surface?: McpSurface; apps?: boolean } = {},
): ListToolsResult {
  return {
    tools: tools.listedFor(client, plugins, surface !== undefined && getsRawValue(surface)).map(({ info }) => {
      // A tool with a view carries it for clients that render MCP Apps (mcp-apps.ts).
      const ui = apps ? uiMetaOf(info.name) : undefined;
      const meta = ui ? { ...info._meta, ...ui } : info._meta;
      return {
        name: info.name,
        title: info.title,
        description: info.description,
        inputSchema: info.inputSchema as ListToolsResult['tools'][number]['inputSchema'],
        ...(info.outputSchema
          ? { outputSchema: info.outputSchema as ListToolsResult['tools'][number]['inputSchema'] }
          : {}),
        annotations: wireAnnotations(info.annotations),
        ...(meta ? { _meta: meta } : {}),
      };
    }),
  };
}

/**
 * A tool's annotations as tools/list sends them: destructiveHint and idempotentHint only where MCP
 * gives them a meaning, on tools that are not read-only (the window still shows them all).
 */
function wireAnnotations(annotations: ToolAnnotations): ToolAnnotations {
  if (!annotations.readOnlyHint) return { ...annotations };
  const { destructiveHint: _destructive, idempotentHint: _idempotent, ...meaningful } = annotations;
  return meaningful;
}

/** What a client sees of the tool set: when it changes, a legacy session is sent tools/list_changed. */
function listing(tools: ToolService, client: ClientInfo | undefined, options: McpServerOptions): string {
  return JSON.stringify(
    tools.listedFor(client, options.plugins, getsRawValue(options.surface)).map((tool) => tool.info),
  );
}

/** A tool call: name, arguments, cancel signal and (optionally) where progress goes. */
export type McpToolCall = (
  name: string,
  args: unknown,
  signal: AbortSignal,
  progress?: (message: string, n: number) => void,
  asker?: ClientAsker,
) => Promise<CallToolResult>;

/** The key of the permission question in an input_required result's `inputRequests`. */
export const PERMISSION_INPUT = 'porthole/permission';

/** The embedded elicitation/create a client shows its user: Allow once / Allow for this session / Deny. */
export function permissionElicitation(message: string) {
  return { mode: 'form' as const, message, requestedSchema: ASK_FORM };
}

/**
 * How a 2026-07-28 request's client can ask its user: a retry with the answer (`inputResponses`
 * and `requestState` in its params), or, when it declared elicitation, a first call that may end
 * with input_required. Undefined: it cannot ask (the window asks, or the call is refused).
 */
export function modernAsker(params: Record<string, unknown>, capabilities: unknown): ClientAsker | undefined {
  const responses = params.inputResponses as Record<string, unknown> | undefined;
  const state = params.requestState;
  if (typeof state === 'string' && responses && PERMISSION_INPUT in responses) {
    return { kind: 'resume', askId: state, answer: askAnswerOf(responses[PERMISSION_INPUT]) };
  }
  return (capabilities as { elicitation?: unknown } | undefined)?.elicitation ? { kind: 'input-required' } : undefined;
}

/**
 * tools/call as both eras answer it, through the ToolService: an unknown tool is a -32602 error
 * (thrown), anything else a result; the CLI and scripts get the raw value in `_meta`. Shared by
 * the SDK servers and the 2026-07-28 fast path (modern-tools-call.ts), so the two cannot differ.
 */
export function mcpToolCall(
  tools: ToolService,
  options: McpServerOptions,
  client: () => ClientInfo | undefined,
): McpToolCall {
  return async (name, args, signal, progress, asker) => {
    options.onCallsInFlight?.(1);
    let notices = 0;
    try {
      const { callId, status, result, value, unknownTool, inputRequired } = await tools.call(name, args, {
        surface: options.surface,
        client: client(),
        signal,
        onWaiting: progress && ((message) => progress(message, ++notices)),
        asker,
      });
      // The spec makes an unknown tool a protocol error; the attempt is in the history all the same.
      if (unknownTool) throw invalidParams(result.textContent, { callId });
      if (inputRequired) {
        // 2026-07-28: the client asks its user and calls again with the answer (requestState names the question).
        return {
          resultType: 'input_required',
          inputRequests: {
            [PERMISSION_INPUT]: { method: 'elicitation/create', params: permissionElicitation(inputRequired.message) },
          },
          requestState: inputRequired.askId,
        } as unknown as CallToolResult;
      }
      const answer = toCallToolResult(result);
      // The CLI and scripts get the handler's own value beside the envelope (docs/mcp.md, "Raw values").
      if (!getsRawValue(options.surface)) return answer;
      return {
        ...answer,
        _meta: {
          ...answer._meta,
          [CALL_ID_META]: callId,
          [STATUS_META]: status,
          ...(value === undefined ? {} : { [RAW_VALUE_META]: value }),
        },
      };
    } finally {
      options.onCallsInFlight?.(-1);
    }
  };
}

/**
 * Builds the MCP server of one legacy session, or of one modern (stateless) request — never
 * shared between clients. Both eras answer from the same two handlers: tools/list from the
 * registry's schemas (written once per tool, not re-derived per request), tools/call through the
 * ToolService, which validates the arguments itself so that a call with bad arguments is
 * answered and recorded like any other.
 */
export function createMcpServer(tools: ToolService, options: McpServerOptions): McpToolsServer {
  const server = new ToolsServer(
    { ...SERVER_INFO },
    {
      capabilities: { tools: { listChanged: true }, resources: {}, extensions: MCP_APPS_SERVER_EXTENSION },
      instructions: INSTRUCTIONS,
    },
  );
  const client = (): ClientInfo | undefined => {
    const info = server.getClientVersion();
    return info ? { name: info.name, version: info.version } : undefined;
  };

  const call = mcpToolCall(tools, options, client);

  // The client's own prompt, when it declared elicitation: asked over the open request (2025), or
  // through input_required and the retry (2026-07-28).
  const asker = (request: JSONRPCRequest, ctx: ServerContext): ClientAsker | undefined => {
    const capabilities = server.getClientCapabilities();
    if (options.era === 'modern') {
      // The SDK lifts the retry's fields out of the params into the context.
      const req = ctx.mcpReq as { inputResponses?: unknown; requestState?: () => unknown };
      const params = (request.params ?? {}) as Record<string, unknown>;
      return modernAsker(
        {
          inputResponses: params.inputResponses ?? req.inputResponses,
          requestState: params.requestState ?? req.requestState?.(),
        },
        capabilities,
      );
    }
    if (!capabilities?.elicitation) return undefined;
    return {
      kind: 'elicit',
      elicit: async (message, signal) =>
        askAnswerOf(
          await server.elicitInput(permissionElicitation(message), {
            relatedRequestId: ctx.mcpReq.id,
            signal,
            timeout: tools.askTimeoutMs(),
          }),
        ),
    };
  };

  // A call waiting for the user's permission sends progress to clients that asked for it, so they
  // can say what is happening (and, with resetTimeoutOnProgress, keep waiting).
  server.rawCall = async (request, ctx) => {
    const { name, arguments: args, _meta } = (request.params ?? {}) as Record<string, unknown>;
    if (typeof name !== 'string' || name === '') {
      throw invalidParams(
        'tools/call needs params.name, the name of the tool to call (a string); tools/list lists them',
      );
    }
    if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
      throw invalidParams(`tools/call params.arguments must be an object (of ${name}'s arguments)`);
    }
    const progressToken = (_meta as { progressToken?: string | number } | undefined)?.progressToken;
    const progress =
      progressToken === undefined
        ? undefined
        : (message: string, n: number) =>
            void ctx.mcpReq
              .notify({ method: 'notifications/progress', params: { progressToken, progress: n, message } })
              .catch(() => {});
    return (await call(name, args, ctx.mcpReq.signal, progress, asker(request, ctx))) as Result;
  };
  server.setRequestHandler('tools/call', () => {
    throw new Error('not reached: tools/call is answered by rawCall');
  });
  const apps = () => rendersApps(server.getClientCapabilities());
  server.setRequestHandler('tools/list', () => listTools(tools, client(), { ...options, apps: apps() }));
  // The plugins' panels as MCP Apps: listed for the tools this client sees, readable by any client.
  server.setRequestHandler('resources/list', () => {
    const listed = tools.listedFor(client(), options.plugins, getsRawValue(options.surface));
    return listAppResources(new Set(listed.map((tool) => tool.name)));
  });
  server.setRequestHandler('resources/read', async (request) => {
    const read = await readAppResource(request.params.uri);
    if (!read) {
      throw new ResourceNotFoundError(
        request.params.uri,
        `no resource ${request.params.uri}; Porthole serves ${appUris().join(', ')} (resources/list lists them)`,
      );
    }
    return read;
  });

  if (options.era === 'modern') return { server, client, dispose: () => void server.close().catch(() => {}) };

  // A legacy session hears tools/list_changed when what it sees changes (the tool set, or its permissions).
  let seen: string | undefined;
  const sync = () => {
    if (!server.transport) return;
    const now = listing(tools, client(), options);
    if (seen !== undefined && now !== seen) void server.sendToolListChanged().catch(() => {});
    seen = now;
  };
  const unsubscribe = tools.onListChanged(sync);
  // A client's own permissions apply once it has said who it is.
  server.oninitialized = sync;
  return {
    server,
    client,
    dispose() {
      unsubscribe();
      void server.close().catch(() => {});
    },
  };
}
