import { z } from 'zod';
import type { SessionInfo } from './session.js';
import type { ToolContent, ToolResult } from './tool-result.js';

/** A failure that is not the caller's fault (the debuggee went away, nothing matched). Becomes an isError result. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

/** The caller's arguments are wrong. Becomes an isError result that says how to fix them. */
export class ToolArgumentError extends ToolError {
  constructor(message: string) {
    super(message);
    this.name = 'ToolArgumentError';
  }
}

export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Porthole's own copy of the MCP tool annotations. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * How a caller reaches the tools over MCP: a client over HTTP, one started over stdio (`porthole
 * mcp`), the CLI (`porthole call`), or a script using `porthole/client`.
 */
export const McpSurfaceSchema = z.enum(['mcp-http', 'mcp-stdio', 'cli', 'script']);
export type McpSurface = z.infer<typeof McpSurfaceSchema>;
/** Every surface: the MCP ones and the inspector's own window (`ui`). */
export const CallSurfaceSchema = z.enum([...McpSurfaceSchema.options, 'ui']);
export type CallSurface = z.infer<typeof CallSurfaceSchema>;

/** `_meta` keys of a tools/call result for the `cli` and `script` surfaces: the raw value, the history's call id, the outcome. */
export const RAW_VALUE_META = 'porthole/raw';
export const CALL_ID_META = 'porthole/callId';
/** How the call ended, as the history records it (`succeeded`, `failed`, `cancelled`, …). */
export const STATUS_META = 'porthole/status';

/** The window, the CLI and scripts get the handler's own value; MCP clients get its projection. */
export const getsRawValue = (surface: CallSurface): boolean =>
  surface === 'ui' || surface === 'cli' || surface === 'script';

/** The MCP client that made a call, from its `initialize` request. */
export const ClientInfoSchema = z.object({ name: z.string(), version: z.string() });
export type ClientInfo = z.infer<typeof ClientInfoSchema>;

export interface ToolCallContext {
  surface: CallSurface;
  /** Aborted when the caller cancels; pass it on to debuggee requests. */
  signal: AbortSignal;
  client?: ClientInfo;
}

/** What a plugin tool's handler gets besides its arguments: the host-plugin instance of the routed session. */
export interface PluginToolContext<Instance> extends ToolCallContext {
  instance: Instance;
  session: SessionInfo;
}

/** Any zod object schema (strip, strict or loose). */
export type AnyObject = z.ZodObject<z.ZodRawShape, z.core.$ZodObjectConfig>;

/** Schemas that tools/list writes as their type and a short text, not in full (see briefSchema). */
export const schemaBriefs = z.registry<{ brief: string }>();

/**
 * The same schema (arguments are still checked in full), written in tools/list as only its type and
 * `brief`: for a shape another tool already spells out, e.g. "a rule as `rule` takes it
 * for add", so tools/list says it once.
 */
export function briefSchema<T extends z.ZodType>(schema: T, brief: string): T {
  const copy = schema.clone() as T;
  schemaBriefs.add(copy, { brief });
  return copy;
}

interface ToolSpecBase<I extends AnyObject, N extends string = string, Ctx = unknown> {
  /** `inspector_*` for the host's own tools, `<pluginId>_*` for a plugin's; must match TOOL_NAME_PATTERN. */
  name: N;
  title: string;
  /** What the tool does and when to use it: an AI agent picks tools by this text. */
  description: string;
  input: I;
  annotations: ToolAnnotations;
  /**
   * Plugin tools that only read what the inspector stored (not the app itself) set this, so an
   * explicit `sessionId` of a disconnected app still reaches its data. Others need the app connected.
   */
  worksWhenDisconnected?: boolean;
  /**
   * What a call with these arguments will change, in words, for the person asked to allow it
   * (agent permissions). Without it the prompt says what the annotations say.
   */
  describeChange?(args: z.output<I>): string;
  /**
   * What an AI agent's call gets while the person set nothing for this tool: `ask` for tools that
   * run code in the app, dispatch to its state or overwrite its data. Default `allow`.
   */
  defaultPermission?: 'allow' | 'ask';
  /**
   * Calls that ask the person although the tool is allowed (by default): the app's destructive
   * actions, say. Consulted once the call is routed to its session, and only while the person set
   * nothing for the tool (their own allow or ask wins).
   */
  askWhen?: {
    /** Which calls, in words, for the permissions table: "destructive actions". */
    what: string;
    /** This call's reason to ask, shown in the prompt (`runs "resetDb", which the app marks destructive`), or undefined. */
    check(args: z.output<I>, ctx: Ctx): string | undefined;
  };
  /** Tools with `output`: content blocks after the JSON text, e.g. a resource_link to a file the answer names. */
  links?(structured: Record<string, unknown>): ToolContent[];
  /**
   * An entry tool, where an agent starts: listed with `_meta["anthropic/alwaysLoad"]` so clients that
   * defer tools behind a search (Claude Code) load it at once. Two or three tools in all.
   */
  alwaysLoad?: boolean;
  /**
   * A tool whose explicit large answers are legitimate (a body, a bundle, a tree asked for in full):
   * `_meta["anthropic/maxResultSizeChars"]` tells clients not to cut it before this many characters.
   */
  maxResultSizeChars?: number;
}

/** The `_meta` keys tools/list carries for clients that read them (see ToolSpecBase). */
export const ALWAYS_LOAD_META = 'anthropic/alwaysLoad';
export const MAX_RESULT_SIZE_META = 'anthropic/maxResultSizeChars';

/** The field the framework adds to every structured answer (see summarizeAnswer). */
export const SUMMARY_KEY = 'summary';

export interface ToolSpec<I extends AnyObject, O extends AnyObject | undefined, Raw, Ctx, N extends string = string>
  extends ToolSpecBase<I, N, Ctx> {
  /** The fixed shape of the answer. The handler's value (after `mcpResult`) is parsed with it into structuredContent. */
  output?: O;
  /**
   * MCP callers only: maps the handler's raw value to the `output` shape (e.g. wraps an array in an
   * object). The window's tool runner gets the raw value. A throw becomes an isError result.
   */
  mcpResult?(raw: Raw): O extends AnyObject ? z.input<O> : never;
  /** One line saying what the answer holds and what to call next; without it the framework writes one (summarizeAnswer). */
  summarize?(structured: O extends AnyObject ? z.output<O> : never): string;
  /**
   * With `output`: returns the typed value. Without: returns a ToolResult (text/json/image/error) or a string.
   * Throw ToolError / ToolArgumentError for failures.
   */
  handler(args: z.output<I>, ctx: Ctx): Promise<Raw> | Raw;
}

/** What a handler returns: the output's value when the tool declares one, else a ToolResult or a string. */
export type ToolValue<O extends AnyObject | undefined> = O extends AnyObject ? z.input<O> : ToolResult | string;

/** A tool whose handler's raw value is projected by `mcpResult` for MCP callers. */
export interface MappedToolSpec<I extends AnyObject, O extends AnyObject, Raw, Ctx, N extends string>
  extends ToolSpecBase<I, N, Ctx> {
  output: O;
  mcpResult(raw: Raw): z.input<O>;
  summarize?(structured: z.output<O>): string;
  handler(args: z.output<I>, ctx: Ctx): Promise<Raw> | Raw;
}

/** A tool without a projection: with `output` the handler returns its value, else a ToolResult or a string. */
export interface PlainToolSpec<I extends AnyObject, O extends AnyObject | undefined, Ctx, N extends string>
  extends ToolSpecBase<I, N, Ctx> {
  output?: O;
  mcpResult?: undefined;
  summarize?(structured: O extends AnyObject ? z.output<O> : never): string;
  handler(args: z.output<I>, ctx: Ctx): Promise<ToolValue<O>> | ToolValue<O>;
}

/** The tool's name stays a literal type, so typed callers (porthole/client) can look tools up by name. */
export interface DefineTool<Ctx> {
  <N extends string, I extends AnyObject, O extends AnyObject, Raw>(
    spec: MappedToolSpec<I, O, Raw, Ctx, N>,
  ): ToolSpec<I, O, Raw, Ctx, N>;
  <N extends string, I extends AnyObject, O extends AnyObject | undefined = undefined>(
    spec: PlainToolSpec<I, O, Ctx, N>,
  ): ToolSpec<I, O, ToolValue<O>, Ctx, N>;
}

/** A defined tool, its types erased, as the registry and the runner hold it. */
// biome-ignore lint/suspicious/noExplicitAny: the raw value's type is private to each tool
export type ToolDefinition<Ctx = ToolCallContext> = ToolSpec<AnyObject, AnyObject | undefined, any, Ctx>;

function checkTool<T extends ToolSpecBase<AnyObject> & { output?: unknown; mcpResult?: unknown; handler: unknown }>(
  spec: T,
): T {
  if (typeof spec.name !== 'string' || !TOOL_NAME_PATTERN.test(spec.name)) {
    throw new Error(
      `tool name "${spec.name}" must match ${TOOL_NAME_PATTERN} (letters, digits, _ and -; at most 64 characters)`,
    );
  }
  if (!(spec.input instanceof z.ZodObject)) {
    throw new Error(`tool ${spec.name}: input must be a z.object(...) schema`);
  }
  if (spec.output !== undefined && !(spec.output instanceof z.ZodObject)) {
    throw new Error(
      `tool ${spec.name}: output must be a z.object(...) schema, because MCP structuredContent is always a JSON object; return the value inside an object, or keep the handler's value and wrap it with mcpResult`,
    );
  }
  if (spec.mcpResult !== undefined && spec.output === undefined) {
    throw new Error(
      `tool ${spec.name}: mcpResult needs an output schema to validate what it returns; add output: z.object(...)`,
    );
  }
  if (spec.mcpResult !== undefined && typeof spec.mcpResult !== 'function') {
    throw new Error(`tool ${spec.name}: mcpResult must be a function`);
  }
  if (typeof spec.handler !== 'function') throw new Error(`tool ${spec.name}: handler must be a function`);
  if (spec.output !== undefined && SUMMARY_KEY in (spec.output as AnyObject).shape) {
    throw new Error(
      `tool ${spec.name}: "${SUMMARY_KEY}" is added to every structured answer by the framework; use summarize() for it`,
    );
  }
  if (!spec.title || !spec.description) throw new Error(`tool ${spec.name}: title and description are required`);
  return spec;
}

/**
 * Defines a tool. Throws at definition time for a bad name, a non-object `output`, or an `mcpResult`
 * without `output`, so a broken tool never reaches tools/list.
 */
export const defineTool: DefineTool<ToolCallContext> = checkTool as never;

/** Defines a tool of a plugin: its handler receives the host-plugin instance of the routed session. */
export function definePluginTool<Instance>(): DefineTool<PluginToolContext<Instance>> {
  return checkTool as never;
}
