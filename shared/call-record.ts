import { z } from 'zod';
import { CallDecisionSchema } from './permissions.js';
import { CallSurfaceSchema, type ClientInfo, ClientInfoSchema } from './tool.js';

/**
 * The call history's records: one per tool call from any surface (MCP over HTTP, MCP over stdio,
 * the window's tool runner), as the core keeps them and the window shows them.
 */
/** `refused`: the user's permissions stopped the call before the tool ran (not a failure of the tool). */
export const CallStatusSchema = z.enum(['running', 'succeeded', 'failed', 'cancelled', 'refused']);
export type CallStatus = z.infer<typeof CallStatusSchema>;

export { type ClientInfo, ClientInfoSchema };

export const CallSummarySchema = z.object({
  id: z.string(),
  tool: z.string(),
  /** Absent for the inspector's own `inspector_*` tools. */
  plugin: z.string().optional(),
  /** The session the call was routed to (or named, when routing failed). */
  sessionId: z.string().optional(),
  surface: CallSurfaceSchema,
  client: ClientInfoSchema.optional(),
  startedAt: z.number(),
  /** Absent while running. */
  durationMs: z.number().optional(),
  status: CallStatusSchema,
  /** For failed, cancelled and refused calls: the message the caller got. */
  error: z.string().optional(),
  /** How the permissions decided, when they did more than allow it silently. */
  decision: CallDecisionSchema.optional(),
});
export type CallSummary = z.infer<typeof CallSummarySchema>;

const ResourceLinkSchema = z.object({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  mimeType: z.string().optional(),
  description: z.string().optional(),
  size: z.number().optional(),
});

export const ToolResultContentSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string() }),
  ResourceLinkSchema,
]);

/** A tool's answer as plain JSON (what `ToolResult.toJSON()` gives). */
export const ToolResultJsonSchema = z.object({
  content: z.array(ToolResultContentSchema),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean(),
});
export type ToolResultJson = z.infer<typeof ToolResultJsonSchema>;

/** A call with its full arguments and its result (images included), for the detail view. */
export const CallDetailSchema = CallSummarySchema.extend({
  args: z.unknown(),
  result: ToolResultJsonSchema.optional(),
});
export type CallDetail = z.infer<typeof CallDetailSchema>;

// ---------------------------------------------------------------------------------------------
// How a result is stored: images by reference (kept once, by content hash), and the text block a
// json() result mirrors its payload into replaced by a marker, so the payload is stored once.

export const StoredContentSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), mimeType: z.string(), ref: z.string(), bytes: z.number().int() }),
  ResourceLinkSchema,
  /** Stands for `mirrorText(structuredContent)`. */
  z.object({ type: z.literal('mirror') }),
]);
export type StoredContent = z.infer<typeof StoredContentSchema>;

export const StoredResultSchema = z.object({
  content: z.array(StoredContentSchema),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean(),
});
export type StoredResult = z.infer<typeof StoredResultSchema>;
