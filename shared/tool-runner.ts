import type { z } from 'zod';
import { RequestError } from './protocol/messenger.js';
import { type AnyObject, getsRawValue, type ToolCallContext, type ToolDefinition, ToolError } from './tool.js';
import { isToolResult, ToolResult } from './tool-result.js';
import { describeIssues } from './zod-issues.js';

/** How a finished call ended. */
export type CallOutcomeStatus = 'succeeded' | 'failed' | 'cancelled';

export interface ToolOutcome {
  status: CallOutcomeStatus;
  /** What an MCP client receives (and the window renders). */
  result: ToolResult;
  /** Raw-value surfaces only (window, CLI, scripts): the handler's own value, before any `mcpResult` projection (tools with `output`). */
  value?: unknown;
}

export type ParsedArguments = { ok: true; args: Record<string, unknown> } | { ok: false; message: string };

/** Validates a caller's arguments; the message names every problem and points at the input schema. */
export function parseToolArguments(toolName: string, schema: AnyObject, args: unknown): ParsedArguments {
  const unknown = unknownKeys(schema, args);
  if (unknown) return { ok: false, message: `invalid arguments for ${toolName}: ${unknown}` };
  const parsed = schema.safeParse(args ?? {});
  if (parsed.success) return { ok: true, args: parsed.data as Record<string, unknown> };
  return {
    ok: false,
    message: `invalid arguments for ${toolName}: ${describeIssues(parsed.error as z.ZodError)}. Check the tool's inputSchema and call it again.`,
  };
}

/** Unknown keys named in a refusal; the rest are counted. */
const MAX_NAMED_KEYS = 5;

/** Names argument keys the tool does not take (a few), the closest allowed key, and all allowed keys. */
function unknownKeys(schema: AnyObject, args: unknown): string | undefined {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
  const allowed = Object.keys(schema.shape);
  const known = new Set(allowed);
  const extra: string[] = [];
  let more = 0;
  for (const key in args) {
    if (!Object.hasOwn(args, key) || known.has(key)) continue;
    if (extra.length < MAX_NAMED_KEYS) extra.push(key);
    else more++;
  }
  if (extra.length === 0) return undefined;
  const named = extra
    .map((key) => {
      const near = closestName(key, allowed);
      return `${quoteName(key)}${near ? ` (did you mean "${near}"?)` : ''}`;
    })
    .join(', ');
  const list = allowed.length ? allowed.map((k) => `"${k}"`).join(', ') : 'none';
  return `unknown argument${extra.length + more > 1 ? 's' : ''} ${named}${more ? ` and ${more} more` : ''}; the allowed keys are ${list}. Call it again with those.`;
}

/** Names (tool names, argument keys) longer than this are quoted cut, and never compared. */
export const MAX_QUOTED_NAME_CHARS = 64;

/** A name quoted in a message: a long one cut, with its length (and `note`, e.g. the bound it broke). */
export function quoteName(name: string, note?: string): string {
  if (name.length <= MAX_QUOTED_NAME_CHARS) return `"${name}"`;
  return `"${name.slice(0, MAX_QUOTED_NAME_CHARS)}…" (${name.length} characters${note ? `; ${note}` : ''})`;
}

/**
 * The allowed name nearest to `key` (case, `_` and `-` ignored), if it is near enough to be a slip.
 * Bounded whatever the input: a key longer than any name could be is no slip, and candidates
 * whose length alone puts them too far are skipped.
 */
export function closestName(key: string, allowed: readonly string[]): string | undefined {
  if (key.length > MAX_QUOTED_NAME_CHARS * 2) return undefined;
  const norm = (k: string) => k.toLowerCase().replace(/[_-]/g, '');
  const wanted = norm(key);
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  let best: { key: string; distance: number } | undefined;
  for (const candidate of allowed) {
    const form = norm(candidate);
    if (Math.abs(form.length - wanted.length) > limit) continue;
    const distance = editDistance(wanted, form);
    if (!best || distance < best.distance) best = { key: candidate, distance };
  }
  return best && best.distance <= limit ? best.key : undefined;
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}

/** Validates the arguments, then executes. Never throws: every failure is an isError outcome. */
export async function runTool<Ctx extends ToolCallContext>(
  tool: ToolDefinition<Ctx>,
  args: unknown,
  ctx: Ctx,
): Promise<ToolOutcome> {
  const parsed = parseToolArguments(tool.name, tool.input, args);
  if (!parsed.ok) return failed(parsed.message);
  return executeTool(tool, parsed.args, ctx);
}

/**
 * Calls the handler with already validated arguments and turns what it returns or throws into a
 * ToolResult. For MCP surfaces a typed value goes through `mcpResult` and is parsed with `output`
 * into structuredContent; the window, CLI and script surfaces get the raw value. Cancellation through
 * `ctx.signal` ends the call at once, whatever the handler does.
 */
export async function executeTool<Ctx extends ToolCallContext>(
  tool: ToolDefinition<Ctx>,
  args: Record<string, unknown>,
  ctx: Ctx,
): Promise<ToolOutcome> {
  if (ctx.signal.aborted) return cancelled();
  let raw: unknown;
  const abort = abortion(ctx.signal);
  try {
    const running = Promise.resolve().then(() => tool.handler(args, ctx));
    running.catch(() => {}); // a handler that fails after the call was cancelled is no longer anyone's business
    raw = await Promise.race([running, abort.promise]);
  } catch (e) {
    if (ctx.signal.aborted || (e instanceof RequestError && e.code === 'cancelled')) return cancelled();
    return failed(describeToolFailure(tool.name, e, (ctx as { session?: { id?: string } }).session?.id));
  } finally {
    abort.dispose();
  }
  if (ctx.signal.aborted) return cancelled();
  return shape(tool, raw, ctx);
}

function shape<Ctx extends ToolCallContext>(tool: ToolDefinition<Ctx>, raw: unknown, ctx: Ctx): ToolOutcome {
  if (!tool.output) {
    if (isToolResult(raw)) return { status: raw.isError ? 'failed' : 'succeeded', result: raw };
    if (typeof raw === 'string') return { status: 'succeeded', result: ToolResult.text(raw) };
    return failed(
      `${tool.name} returned ${describeValue(raw)} instead of a ToolResult or a string; this is a bug in the tool`,
    );
  }
  const ui = getsRawValue(ctx.surface);
  if (ui && tool.mcpResult) {
    // The window, the CLI and scripts want the handler's own value; the MCP envelope is not built for it.
    return { status: 'succeeded', result: ToolResult.text(safeStringify(raw)), value: raw };
  }
  let projected = raw;
  if (tool.mcpResult) {
    try {
      projected = tool.mcpResult(raw);
    } catch (e) {
      return failed(`${tool.name} could not shape its answer for MCP: ${messageOf(e)}; this is a bug in the tool`);
    }
  }
  const parsed = tool.output.safeParse(projected);
  if (!parsed.success) {
    return failed(
      `${tool.name} produced an answer that does not match its output schema (${describeIssues(parsed.error as z.ZodError)}); this is a bug in the tool`,
    );
  }
  const structured = parsed.data as Record<string, unknown>;
  const result = ToolResult.json(structured).with(...(tool.links?.(structured) ?? []));
  return ui ? { status: 'succeeded', result, value: raw } : { status: 'succeeded', result };
}

/** The message a caller reads for a thrown failure: what went wrong and what to do next. */
export function describeToolFailure(toolName: string, error: unknown, sessionId?: string): string {
  if (error instanceof ToolError) return error.message;
  if (error instanceof RequestError) return describeRequestError(error, sessionId);
  return `${toolName} failed unexpectedly: ${messageOf(error)}`;
}

/** A failed request to the app, with what to do next (`sessionId`: the session it went to). */
export function describeRequestError(error: RequestError, sessionId?: string): string {
  switch (error.code) {
    case 'timeout':
      return `${error.message}: the debuggee did not answer in time; check that the app is running and not blocked (paused at a breakpoint, a busy loop), then retry`;
    case 'plugin-not-active':
      return `${error.message}; the app must pass this plugin to connect({ plugins })`;
    case 'peer-gone':
      return `${error.message}: the app closed or crashed during the call. Start it again (or wait for it to reconnect) and retry${
        sessionId ? `; what it sent before stays readable with sessionId "${sessionId}"` : ''
      }`;
    case 'too-many-requests':
      return error.message;
    default:
      return `the debuggee could not do it (${error.code}): ${error.message}`;
  }
}

function failed(message: string): ToolOutcome {
  return { status: 'failed', result: ToolResult.error(message) };
}

function cancelled(): ToolOutcome {
  return { status: 'cancelled', result: ToolResult.error('the call was cancelled by the caller') };
}

function abortion(signal: AbortSignal): { promise: Promise<never>; dispose(): void } {
  let onAbort = () => {};
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(new RequestError('cancelled', 'the call was cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'a plain object' : typeof value;
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
