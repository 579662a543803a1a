import { z } from 'zod';
import type { SessionInfo } from './session.js';
import type { ToolResult } from './tool-result.js';

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

export const CallSurfaceSchema = z.enum(['mcp-http', 'mcp-stdio', 'ui']);
export type CallSurface = z.infer<typeof CallSurfaceSchema>;

export interface ToolCallContext {
  surface: CallSurface;
  /** Aborted when the caller cancels; pass it on to debuggee requests. */
  signal: AbortSignal;
  client?: { name: string; version: string };
}

/** What a plugin tool's handler gets besides its arguments: the host-plugin instance of the routed session. */
export interface PluginToolContext<Instance> extends ToolCallContext {
  instance: Instance;
  session: SessionInfo;
}

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface ToolSpec<I extends AnyObject, O extends AnyObject | undefined, Raw, Ctx> {
  name: string;
  title: string;
  description: string;
  input: I;
  /** The fixed shape of the answer. The handler's value (after `mcpResult`) is parsed with it into structuredContent. */
  output?: O;
  /** MCP callers only: maps the handler's raw value to the `output` shape (e.g. wraps an array in an object). */
  mcpResult?: O extends AnyObject ? (raw: Raw) => z.input<O> : never;
  annotations: ToolAnnotations;
  /**
   * With `output`: returns the typed value. Without: returns a ToolResult (text/json/image/error) or a string.
   * Throw ToolError / ToolArgumentError for failures.
   */
  handler: (args: z.output<I>, ctx: Ctx) => Promise<Raw> | Raw;
}

export type ToolDefinition<Ctx = ToolCallContext> = ToolSpec<AnyObject, AnyObject | undefined, unknown, Ctx>;

/**
 * Defines a tool. Throws at definition time for a bad name, a non-object `output`, or an `mcpResult`
 * without `output`, so a broken tool never reaches tools/list.
 */
export function defineTool<
  I extends AnyObject,
  O extends AnyObject | undefined = undefined,
  Raw = O extends AnyObject ? z.input<O> : ToolResult | string,
  Ctx = ToolCallContext,
>(spec: ToolSpec<I, O, Raw, Ctx>): ToolSpec<I, O, Raw, Ctx> {
  if (!TOOL_NAME_PATTERN.test(spec.name)) {
    throw new Error(`tool name "${spec.name}" must match ${TOOL_NAME_PATTERN} (letters, digits, _ and -; at most 64)`);
  }
  if (!(spec.input instanceof z.ZodObject)) {
    throw new Error(`tool ${spec.name}: input must be a z.object(...) schema`);
  }
  if (spec.output !== undefined && !(spec.output instanceof z.ZodObject)) {
    throw new Error(
      `tool ${spec.name}: output must be a z.object(...) schema, because MCP structuredContent is always a JSON object; wrap other values with mcpResult`,
    );
  }
  if (spec.mcpResult !== undefined && spec.output === undefined) {
    throw new Error(`tool ${spec.name}: mcpResult needs an output schema to validate what it returns`);
  }
  return spec;
}

/** Defines a tool of a plugin: its handler receives the host-plugin instance of the routed session. */
export function definePluginTool<Instance>() {
  return <
    I extends AnyObject,
    O extends AnyObject | undefined = undefined,
    Raw = O extends AnyObject ? z.input<O> : ToolResult | string,
  >(
    spec: ToolSpec<I, O, Raw, PluginToolContext<Instance>>,
  ) => defineTool<I, O, Raw, PluginToolContext<Instance>>(spec);
}
