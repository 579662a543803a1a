import type { ClientInfo, ToolResultJson } from '../../../shared/call-record.js';
import { type CallDecision, isGatedSurface } from '../../../shared/permissions.js';
import { syncWith } from '../../../shared/protocol/messenger.js';
import type { CallSurface, PluginToolContext, ToolCallContext, ToolDefinition } from '../../../shared/tool.js';
import { ToolResult } from '../../../shared/tool-result.js';
import {
  closestName,
  describeRequestError,
  executeTool,
  parseToolArguments,
  quoteName,
  type ToolOutcome,
} from '../../../shared/tool-runner.js';
import type { EventBus } from '../event-bus.js';
import type { CallHistory, FinishedStatus } from '../history/call-history.js';
import { type ClientAsker, type Gate, type Permissions, perCallAsk } from '../permissions/permissions.js';
import type { PluginHost } from '../plugin-host.js';
import type { SessionRegistry } from '../sessions.js';
import type { PluginListing } from './plugin-listing.js';
import { routeToSession } from './session-routing.js';
import { type RegisteredTool, registeredTool, type ToolInfo, type ToolRegistry } from './tool-registry.js';

export interface CallOptions {
  surface: CallSurface;
  /** The MCP client making the call, for the history. */
  client?: ClientInfo;
  /** Cancels the call and the debuggee request it is waiting for. */
  signal?: AbortSignal;
  /** Told while the call waits for the user's permission (MCP progress notifications). */
  onWaiting?(message: string): void;
  /** How the MCP client can ask its own user, when it declared elicitation (see ClientAsker). */
  asker?: ClientAsker;
}

export interface ToolCall {
  /** The call's id in the history. */
  callId: string;
  status: FinishedStatus;
  result: ToolResult;
  /** How the permissions decided, when they did more than allow it silently. */
  decision?: CallDecision;
  /** Raw-value surfaces only (window, CLI, scripts): the handler's own value (before any `mcpResult`), for tools with `output`. */
  value?: unknown;
  /** No tool has this name (MCP answers it with a protocol error, -32602; the attempt is still recorded). */
  unknownTool?: true;
  /**
   * 2026-07-28: the call waits for the user's answer, which the client gets in its own prompt; the
   * MCP answer is `input_required` and the client's retry carries the answer (`requestState` is askId).
   * The call stays running in the history until then.
   */
  inputRequired?: { askId: string; message: string };
}

interface Deps {
  registry: ToolRegistry;
  history: CallHistory;
  sessions: SessionRegistry;
  plugins: PluginHost;
  bus: EventBus;
  /** Agent permissions; absent, every call is allowed. */
  /** Which plugins' tools tools/list shows (offered by an app, or enabled in the window); all without it. */
  listing?: PluginListing;
  permissions?: Permissions;
}

/** How a call ended, before it is recorded. */
type Outcome = {
  status: FinishedStatus;
  result: ToolResult;
  value?: unknown;
  decision?: CallDecision;
  unknownTool?: true;
};

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

  /** Calls `listener` whenever what an MCP client may see can have changed: the tool set or the permissions. */
  onListChanged(listener: () => void): () => void {
    const off = [this.deps.bus.on('tools:changed', listener), this.deps.bus.on('permissions:changed', listener)];
    return () => {
      for (const f of off) f();
    };
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

  /** How long a permission question waits for its answer. */
  askTimeoutMs(): number {
    return this.deps.permissions?.policy().askTimeoutMs ?? 60_000;
  }

  /**
   * The tools an MCP client sees in tools/list: the inspector's own, and those of the plugins an app
   * offered or the user enabled (narrowed to `plugins` when the client asked), less what its
   * permissions deny. Scripts (`porthole call`, `porthole/client`) see every plugin's tools: the
   * rule spares an AI agent's context, and a test script connects before its app does.
   */
  listedFor(client?: ClientInfo, plugins?: readonly string[], script = false): RegisteredTool[] {
    const { permissions, listing } = this.deps;
    return this.deps.registry
      .list()
      .filter(
        (tool) =>
          tool.plugin === undefined ||
          ((script || !listing || listing.listed(tool.plugin)) && (!plugins || plugins.includes(tool.plugin))),
      )
      .filter((tool) => !permissions || permissions.listed(tool, client));
  }

  /** Runs a tool and records the call. Never throws. */
  async call(name: string, args: unknown, options: CallOptions): Promise<ToolCall> {
    const { history } = this.deps;
    const tool = this.deps.registry.get(name);
    const signal = options.signal ?? new AbortController().signal;
    const base = { tool: name, surface: options.surface, client: options.client, args: args ?? {} };

    if (!tool) {
      const call = history.start(base);
      return this.finish(call.id, { ...failed(unknownToolMessage(name, this.deps.registry)), unknownTool: true });
    }

    const gated = isGatedSurface(options.surface) ? this.deps.permissions : undefined;
    const refusal = gated?.refusal(tool, options.client);
    if (refusal && !refusal.allowed) {
      const call = history.start({ ...base, plugin: tool.plugin, sessionId: requestedSession(args) });
      return this.finish(call.id, refused(refusal));
    }

    const parsed = parseToolArguments(name, tool.input, args);
    if (!parsed.ok) {
      const call = history.start({ ...base, plugin: tool.plugin, sessionId: requestedSession(args) });
      return this.finish(call.id, failed(parsed.message));
    }

    const context: ToolCallContext = { surface: options.surface, signal, client: options.client };
    // `ask` tools ask; a tool allowed by default may still ask for this call (its askWhen).
    const ask = async (callId: string, toolArgs: Record<string, unknown>, toolContext: unknown): Promise<Gate> => {
      if (!gated) return { allowed: true };
      // A change made through a read-only tool (its askWhen says so) is off while the switch is on.
      const readOnly = gated.readOnlyChange(tool, options.client);
      if (readOnly && perCallAsk(tool, toolArgs, toolContext) !== undefined) return readOnly;
      const { permission, source } = gated.effective(tool, options.client);
      const reason =
        permission === 'allow' && source === 'default' ? perCallAsk(tool, toolArgs, toolContext) : undefined;
      if (permission !== 'ask' && reason === undefined) return { allowed: true };
      return gated.decide({
        callId,
        tool,
        args: parsed.args,
        surface: options.surface,
        client: options.client,
        signal,
        onWaiting: options.onWaiting,
        reason,
        asker: options.asker,
      });
    };
    // A 2026-07-28 retry carrying the user's answer continues the call its first request started.
    const resumed = options.asker?.kind === 'resume' ? this.deps.permissions?.callOf(options.asker.askId) : undefined;
    const start = (entry: Parameters<CallHistory['start']>[0]) =>
      resumed && history.get(resumed)?.status === 'running' ? { id: resumed } : history.start(entry);
    if (!tool.plugin) {
      const call = start({ ...base, plugin: tool.plugin });
      const gate = await ask(call.id, parsed.args, context);
      if (gate.input) return this.waitForInput(call.id, gate.input);
      if (!gate.allowed) return this.finish(call.id, refused(gate));
      return this.finish(call.id, {
        ...(await executeTool(tool.definition, parsed.args, context)),
        decision: gate.decision,
      });
    }

    const { sessionId, ...toolArgs } = parsed.args as { sessionId?: string };
    const routing = routeToSession(
      this.deps.sessions,
      tool.plugin,
      sessionId,
      tool.definition.worksWhenDisconnected === true,
    );
    const call = start({
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
    const gate = await ask(call.id, toolArgs, pluginContext);
    if (gate.input) return this.waitForInput(call.id, gate.input);
    if (!gate.allowed) return this.finish(call.id, refused(gate));
    // What the app did before this call may still wait in its agent's batch: answer after it is in.
    const link = this.deps.sessions.get(routing.session.id)?.link;
    const gone = link && (await syncWith(link.messenger, tool.plugin, SYNC_WAIT_MS, signal));
    if (gone && tool.definition.worksWhenDisconnected !== true)
      return this.finish(call.id, {
        ...failed(describeRequestError(gone, routing.session.id)),
        decision: gate.decision,
      });
    return this.finish(call.id, {
      ...(await executeTool(tool.definition, toolArgs, pluginContext)),
      decision: gate.decision,
    });
  }

  /**
   * The call's first request ends with input_required; the call stays running until the client's
   * retry finishes it. A question that ends otherwise (the window denied it, nobody answered) ends
   * the call as refused; one allowed but never retried ends as cancelled after the ask timeout.
   */
  private waitForInput(callId: string, input: { askId: string; message: string; settled: Promise<Gate> }): ToolCall {
    const { history } = this.deps;
    void input.settled.then((gate) => {
      if (!gate.allowed && !gate.input) {
        if (history.get(callId)?.status === 'running') this.finish(callId, refused(gate));
        return;
      }
      const wait = setTimeout(() => {
        if (history.get(callId)?.status === 'running') {
          this.finish(callId, {
            status: 'cancelled',
            result: ToolResult.error('the client did not call again after the user answered'),
            decision: gate.decision,
          });
        }
      }, this.deps.permissions?.policy().askTimeoutMs ?? 60_000);
      wait.unref?.();
    });
    return {
      callId,
      status: 'refused',
      result: ToolResult.error(input.message),
      inputRequired: { askId: input.askId, message: input.message },
    };
  }

  private finish(callId: string, outcome: Outcome): ToolCall {
    try {
      const { unknownTool: _, ...recorded } = outcome;
      this.deps.history.finish(callId, recorded);
    } catch (e) {
      console.error('[porthole] could not record a finished call:', e);
    }
    return { callId, ...outcome };
  }
}

/** How long a tool waits for the app's queued notifications; an app busy longer is answered from what is in. */
const SYNC_WAIT_MS = 300;

/** The longest name a tool can have (`^[a-zA-Z0-9_-]{1,64}$`). */
const MAX_TOOL_NAME_CHARS = 64;

/** Constant time whatever the name's length: a name no tool can have gets no closest-name search. */
function unknownToolMessage(name: string, registry: ToolRegistry): string {
  const near =
    name.length <= MAX_TOOL_NAME_CHARS
      ? closestName(
          name,
          registry.list().map((t) => t.name),
        )
      : undefined;
  const quoted = quoteName(name, `a tool name has at most ${MAX_TOOL_NAME_CHARS}`);
  return `there is no tool named ${quoted}${near ? ` (did you mean "${near}"?)` : ''}; call tools/list to see the tools`;
}

function failed(message: string): ToolOutcome {
  return { status: 'failed', result: ToolResult.error(message) };
}

function refused(gate: { decision?: CallDecision; message: string }): Outcome {
  return { status: 'refused', result: ToolResult.error(gate.message), decision: gate.decision };
}

function requestedSession(args: unknown): string | undefined {
  const id = (args as { sessionId?: unknown } | null | undefined)?.sessionId;
  return typeof id === 'string' ? id : undefined;
}
