import { McpServer, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  type ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ClientInfo } from '../../../shared/call-record.js';
import { CALL_ID_META, getsRawValue, type McpSurface, RAW_VALUE_META, STATUS_META } from '../../../shared/tool.js';
import type { ToolResult } from '../../../shared/tool-result.js';
import type { ToolService } from '../tools/tool-service.js';
import { VERSION } from '../version.js';

export interface McpSessionOptions {
  surface: McpSurface;
  /** Told when a call starts (+1) and ends (-1), so an MCP session with a call running is never swept. */
  onCallsInFlight?(delta: 1 | -1): void;
}

export interface McpSessionServer {
  server: McpServer;
  /** The client's name and version from its initialize request. */
  client(): ClientInfo | undefined;
  dispose(): void;
}

const INSTRUCTIONS = `Porthole is a debugging inspector for JavaScript/TypeScript apps (web pages, Node services, React Native, Electron). \
Apps embed the Porthole agent and appear as sessions. Start with inspector_list_sessions; plugin tools (named <plugin>_*) \
act on one session: pass its sessionId, or omit it when exactly one connected app has the plugin. A result flagged isError \
says what went wrong and what to do next.`;

/** tools/call with its params unchecked: the handler checks them and names what is wrong. */
const LooseCallToolRequest = z.object({
  method: z.literal('tools/call'),
  params: z.looseObject({}).optional(),
});

/**
 * A JSON-RPC -32602 error. Not an McpError: its message carries an "MCP error -32602:" prefix,
 * which the client would add a second time.
 */
function invalidParams(message: string, data?: Record<string, unknown>): Error {
  return Object.assign(new Error(message), { code: ErrorCode.InvalidParams, data });
}

export function toCallToolResult(result: ToolResult): CallToolResult {
  return result.toJSON() as CallToolResult;
}

/** The tools this client may see (the window's permissions hide denied ones), with the registry's schemas. */
export function listTools(tools: ToolService, client?: ClientInfo): ListToolsResult {
  return {
    tools: tools.listedFor(client).map(({ info }) => ({
      name: info.name,
      title: info.title,
      description: info.description,
      inputSchema: info.inputSchema as ListToolsResult['tools'][number]['inputSchema'],
      ...(info.outputSchema
        ? { outputSchema: info.outputSchema as ListToolsResult['tools'][number]['inputSchema'] }
        : {}),
      annotations: { ...info.annotations },
    })),
  };
}

/**
 * Builds the McpServer of one MCP session (never shared between clients). Its tools mirror the
 * registry: registered before the transport connects, then kept in step (the SDK sends
 * notifications/tools/list_changed). Calls go through the ToolService, which validates the
 * arguments itself so that a call with bad arguments is answered and recorded like any other.
 */
export function createMcpSessionServer(tools: ToolService, options: McpSessionOptions): McpSessionServer {
  const server = new McpServer(
    { name: 'porthole', title: 'Porthole', version: VERSION },
    { capabilities: { tools: { listChanged: true } }, instructions: INSTRUCTIONS },
  );
  const client = (): ClientInfo | undefined => {
    const info = server.server.getClientVersion();
    return info ? { name: info.name, version: info.version } : undefined;
  };

  const call = async (
    name: string,
    args: unknown,
    signal: AbortSignal,
    progress?: (message: string, n: number) => void,
  ): Promise<CallToolResult> => {
    options.onCallsInFlight?.(1);
    let notices = 0;
    try {
      const { callId, status, result, value, unknownTool } = await tools.call(name, args, {
        surface: options.surface,
        client: client(),
        signal,
        onWaiting: progress && ((message) => progress(message, ++notices)),
      });
      // The spec makes an unknown tool a protocol error; the attempt is in the history all the same.
      if (unknownTool) throw invalidParams(result.textContent, { callId });
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

  const registered = new Map<string, { tool: unknown; handle: RegisteredTool }>();
  const sync = () => {
    const current = new Map(tools.registered().map((tool) => [tool.name, tool]));
    const listed = new Set(tools.listedFor(client()).map((tool) => tool.name));
    for (const [name, { tool, handle }] of registered) {
      if (current.get(name) === tool) continue;
      handle.remove();
      registered.delete(name);
    }
    let shown = false;
    for (const [name, tool] of current) {
      const existing = registered.get(name);
      if (existing) {
        // Denied tools stay registered but unlisted (the SDK lists enabled tools only). Flipped
        // here, not with enable()/disable(), so a policy change sends one list_changed, not one per tool.
        if (existing.handle.enabled !== listed.has(name)) {
          existing.handle.enabled = listed.has(name);
          shown = true;
        }
        continue;
      }
      const handle = server.registerTool(
        name,
        {
          title: tool.info.title,
          description: tool.info.description,
          inputSchema: tool.input,
          outputSchema: tool.output,
          annotations: { title: tool.info.title, ...tool.info.annotations },
        },
        // Not reached: tools/call is answered below. Kept equivalent in case the SDK routes here.
        ((args: unknown, extra: { signal: AbortSignal }) => call(name, args, extra.signal)) as never,
      );
      if (!listed.has(name)) handle.enabled = false;
      registered.set(name, { tool, handle });
    }
    if (shown && server.isConnected()) server.sendToolListChanged();
  };
  sync();
  // Arguments are checked by the ToolService, not by the SDK: a call with bad arguments must reach the history too.
  // A call waiting for the user's permission sends progress to clients that asked for it, so they
  // can say what is happening (and, with resetTimeoutOnProgress, keep waiting).
  // Registered on the Protocol itself: the Server's own tools/call wrapper would answer a request
  // without `name` with a dump of its schema's validation; this one says what is missing.
  Protocol.prototype.setRequestHandler.call(server.server, LooseCallToolRequest, (request, extra) => {
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
            void extra
              .sendNotification({ method: 'notifications/progress', params: { progressToken, progress: n, message } })
              .catch(() => {});
    return call(name, args, extra.signal, progress);
  });
  // The schemas the registry wrote once per tool (compact, the window's too), not re-derived per request.
  server.server.setRequestHandler(ListToolsRequestSchema, () => listTools(tools, client()));
  const unsubscribe = tools.onListChanged(sync);
  // A client's own permissions apply once it has said who it is.
  server.server.oninitialized = sync;

  return {
    server,
    client,
    dispose() {
      unsubscribe();
      void server.close().catch(() => {});
    },
  };
}
