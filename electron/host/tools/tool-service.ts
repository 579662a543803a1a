import type { ClientInfo, ToolResultJson } from '../../../shared/call-record.js';
import type { CallSurface, PluginToolContext, ToolCallContext, ToolDefinition } from '../../../shared/tool.js';
import { ToolResult } from '../../../shared/tool-result.js';
import {
  type CallOutcomeStatus,
  executeTool,
  parseToolArguments,
  type ToolOutcome,
} from '../../../shared/tool-runner.js';
import type { EventBus } from '../event-bus.js';
import type { CallHistory } from '../history/call-history.js';
import type { PluginHost } from '../plugin-host.js';
import type { SessionRegistry } from '../sessions.js';
import { routeToSession } from './session-routing.js';
import { type RegisteredTool, registeredTool, type ToolInfo, type ToolRegistry } from './tool-registry.js';

export interface CallOptions {
  surface: CallSurface;
  /** The MCP client making the call, for the history. */
  client?: ClientInfo;
  /** Cancels the call and the debuggee request it is waiting for. */
  signal?: AbortSignal;
}

export interface ToolCall {
  /** The call's id in the history. */
  callId: string;
  status: CallOutcomeStatus;
  result: ToolResult;
  /** Raw-value surfaces only (window, CLI, scripts): the handler's own value (before any `mcpResult`), for tools with `output`. */
  value?: unknown;
}

interface Deps {
  registry: ToolRegistry;
  history: CallHistory;
  sessions: SessionRegistry;
  plugins: PluginHost;
  bus: EventBus;
}

/**
 * `core.tools`: lists and runs tools for every surface. Each call is validated, routed to a session
 * (plugin tools), run, and recorded once in the history — whatever happens, it ends as a result.
 */
export class ToolService {
  constructor(private readonly deps: Deps) {}

  /** Every tool with its JSON Schemas and annotations, as MCP clients see them. */
  list(): ToolInfo[] {
    return this.deps.registry.list().map((t) => t.info);
  }

  get(name: string): RegisteredTool | undefined {
    return this.deps.registry.get(name);
  }

  /** The tools with their definitions and schemas (what the MCP layer registers). */
  registered(): RegisteredTool[] {
    return this.deps.registry.list();
  }

  /** Adds tools (host tools, or a plugin's with its id); returns a function that removes them. */
  // biome-ignore lint/suspicious/noExplicitAny: plugin tools name their own instance type
  register(definitions: readonly ToolDefinition<any>[], plugin?: string): () => void {
    return this.deps.registry.add(definitions.map((d) => registeredTool(d, plugin)));
  }

  /** Calls `listener` whenever the tool set changes. */
  onChanged(listener: () => void): () => void {
    return this.deps.bus.on('tools:changed', listener);
  }

  /**
   * The window's tool runner: surface `ui`, recorded like any call. `raw` is the handler's own value
   * (before any `mcpResult` projection) for tools that declare an output.
   */
  async run(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<{ callId: string; result: ToolResultJson & { raw?: unknown } }> {
    const call = await this.call(name, args, { surface: 'ui', signal });
    const result = call.result.toJSON();
    return { callId: call.callId, result: call.value === undefined ? result : { ...result, raw: call.value } };
  }

  /** Runs a tool and records the call. Never throws. */
  async call(name: string, args: unknown, options: CallOptions): Promise<ToolCall> {
    const { history } = this.deps;
    const tool = this.deps.registry.get(name);
    const signal = options.signal ?? new AbortController().signal;
    const base = { tool: name, surface: options.surface, client: options.client, args: args ?? {} };

    if (!tool) {
      const call = history.start(base);
      return this.finish(call.id, failed(`there is no tool named "${name}"; call tools/list to see the tools`));
    }

    const parsed = parseToolArguments(name, tool.input, args);
    if (!parsed.ok) {
      const call = history.start({ ...base, plugin: tool.plugin, sessionId: requestedSession(args) });
      return this.finish(call.id, failed(parsed.message));
    }

    const context: ToolCallContext = { surface: options.surface, signal, client: options.client };
    if (!tool.plugin) {
      const call = history.start({ ...base, plugin: tool.plugin });
      return this.finish(call.id, await executeTool(tool.definition, parsed.args, context));
    }

    const { sessionId, ...toolArgs } = parsed.args as { sessionId?: string };
    const routing = routeToSession(
      this.deps.sessions,
      tool.plugin,
      sessionId,
      tool.definition.worksWhenDisconnected === true,
    );
    const call = history.start({
      ...base,
      plugin: tool.plugin,
      sessionId: routing.ok ? routing.session.id : sessionId,
    });
    if (!routing.ok) return this.finish(call.id, failed(routing.message));
    const instance = this.deps.plugins.instance(routing.session.id, tool.plugin);
    if (!instance) {
      return this.finish(
        call.id,
        failed(`the ${tool.plugin} plugin is not running for session ${routing.session.id}; reconnect the app`),
      );
    }
    const pluginContext: PluginToolContext<unknown> = { ...context, instance, session: routing.session };
    return this.finish(call.id, await executeTool(tool.definition, toolArgs, pluginContext));
  }

  private finish(callId: string, outcome: ToolOutcome): ToolCall {
    try {
      this.deps.history.finish(callId, outcome);
    } catch (e) {
      console.error('[porthole] could not record a finished call:', e);
    }
    return { callId, ...outcome };
  }
}

function failed(message: string): ToolOutcome {
  return { status: 'failed', result: ToolResult.error(message) };
}

function requestedSession(args: unknown): string | undefined {
  const id = (args as { sessionId?: unknown } | null | undefined)?.sessionId;
  return typeof id === 'string' ? id : undefined;
}
