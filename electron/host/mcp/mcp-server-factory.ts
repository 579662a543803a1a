import { McpServer, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';
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

export function toCallToolResult(result: ToolResult): CallToolResult {
  return result.toJSON() as CallToolResult;
}

export function listTools(tools: ToolService): ListToolsResult {
  return {
    tools: tools.list().map((info) => ({
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

  const call = async (name: string, args: unknown, signal: AbortSignal): Promise<CallToolResult> => {
    options.onCallsInFlight?.(1);
    try {
      const { callId, status, result, value } = await tools.call(name, args, {
        surface: options.surface,
        client: client(),
        signal,
      });
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
    for (const [name, { tool, handle }] of registered) {
      if (current.get(name) === tool) continue;
      handle.remove();
      registered.delete(name);
    }
    for (const [name, tool] of current) {
      if (registered.has(name)) continue;
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
      registered.set(name, { tool, handle });
    }
  };
  sync();
  // Arguments are checked by the ToolService, not by the SDK: a call with bad arguments must reach the history too.
  server.server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    call(request.params.name, request.params.arguments, extra.signal),
  );
  // The schemas the registry wrote once per tool (compact, the window's too), not re-derived per request.
  server.server.setRequestHandler(ListToolsRequestSchema, () => listTools(tools));
  const unsubscribe = tools.onChanged(sync);

  return {
    server,
    client,
    dispose() {
      unsubscribe();
      void server.close().catch(() => {});
    },
  };
}
