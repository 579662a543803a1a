import { z } from 'zod';
import { definePluginProtocol } from '../../shared/plugin-protocol.js';
import { textFilterRegex } from '../../shared/safe-regex.js';
import { consoleWire, KindSchema, LevelSchema, SourceSchema } from './wire.js';

export * from './wire.js';

// Answers (tool outputs, panel results): plain numbers and unbounded strings keep their JSON
// Schemas short in tools/list; what the app sent was checked on the way in (wire.ts).

/** A place in a script: the function, file (URL or path), line and column (1-based). */
const PlaceSchema = z.object({ fn: z.string().optional(), file: z.string(), line: z.number(), column: z.number() });

// What the host keeps and shows --------------------------------------------------------------

export const StackFrameSchema = PlaceSchema.extend({
  /** The same frame in the app's original source, when a source map says where. */
  mapped: PlaceSchema.optional(),
});
export type StackFrame = z.infer<typeof StackFrameSchema>;

const seq = z.number().describe('Position in the session: increases by one per stored message.');

export const MessageSummarySchema = z.object({
  seq,
  time: z.number().describe("The app's clock at the (last) occurrence, ms since the epoch."),
  firstTime: z.number().optional().describe('With count > 1: the first occurrence.'),
  level: LevelSchema,
  kind: KindSchema,
  text: z.string().describe('The message as a console prints it (format specifiers applied), cut to 500 characters.'),
  textTruncated: z.boolean().optional(),
  count: z.number().describe('Identical consecutive messages are stored once, with their count.'),
  lastSeq: z.number().optional().describe('With count > 1: the seq of the latest occurrence.'),
  site: z
    .string()
    .optional()
    .describe('Where it was logged or thrown: file:line:column, in the original source when mapped.'),
  group: z.number().optional().describe('Nesting depth under console.group.'),
  hasStack: z.boolean().optional(),
});
export type MessageSummary = z.infer<typeof MessageSummarySchema>;

export const MessageSchema = MessageSummarySchema.extend({
  text: z.string(),
  args: z.array(z.unknown()).describe('Arguments as the agent serialized them ({ $: kind } tags for non-JSON values).'),
  label: z.string().optional(),
  value: z.number().optional(),
  fatal: z.boolean().optional(),
  stack: z.array(StackFrameSchema).optional().describe('The stack, each frame with its source-mapped place.'),
  stackText: z.string().optional().describe('The stack as the app printed it.'),
  callSite: StackFrameSchema.optional(),
});
export type Message = z.infer<typeof MessageSchema>;

export const ErrorGroupSchema = z.object({
  text: z.string().describe('Cut to 300 characters (textTruncated); console_get_message with lastSeq has it all.'),
  textTruncated: z.boolean().optional(),
  kind: KindSchema,
  site: z.string().optional(),
  count: z.number().describe('Occurrences (within `since` when given).'),
  totalCount: z.number().describe('Occurrences in the whole session.'),
  firstSeen: z.number(),
  lastSeen: z.number(),
  lastSeq: seq,
});
export type ErrorGroup = z.infer<typeof ErrorGroupSchema>;

export const MessageFilterSchema = z.object({
  level: z
    .union([LevelSchema, z.array(LevelSchema).min(1).max(4)])
    .optional()
    .describe('Only these levels.'),
  text: z
    .string()
    .max(1000)
    .optional()
    .describe(
      'Text the message contains (case-insensitive), or a /regex/ such as /timeout|refused/i (RE2: no backreferences or lookaround).',
    )
    .superRefine((value, ctx) => {
      const problem = regexProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  source: z
    .union([SourceSchema, z.array(SourceSchema).min(1).max(4)])
    .optional()
    .describe('console (console.* calls), exception (uncaught), rejection (unhandled promise rejection), inspector.'),
  since: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("Only messages after this seq: a previous answer's `latest` gives what is new."),
});
export type MessageFilter = z.infer<typeof MessageFilterSchema>;

/** Added to the advice when a `/regex/` filter cannot be run safely. */
export const TEXT_REGEX_HINT = 'or drop the slashes to look for the text itself';

/** A `/pattern/flags` text filter: undefined for plain text or a regex RE2 runs, else what is wrong. */
export function regexProblem(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    textFilterRegex(value, TEXT_REGEX_HINT);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

export const PageSchema = z.object({
  messages: z.array(MessageSummarySchema),
  latest: z.number().describe('The newest seq in the session now: pass it as `since` next time.'),
  remaining: z.number().describe('Matching messages beyond this page, in the direction of its cursor.'),
  olderCursor: z.string().optional().describe('More matching messages before this page: pass as cursor.'),
  newerCursor: z.string().optional().describe('More matching messages after this page: pass as cursor.'),
});
export type Page = z.infer<typeof PageSchema>;

export const StatsSchema = z.object({
  stored: z.number(),
  bytes: z.number(),
  /** Old messages the host dropped to stay within its byte budget. */
  evicted: z.number(),
  /** Messages the app dropped (its queue was full) or lost while the inspector was away. */
  droppedByApp: z.number(),
  errors: z.number(),
  warnings: z.number(),
  /** Messages the host refused (not the shape of the protocol); `lastRefusal` says why. */
  refused: z.number(),
  lastRefusal: z.string().optional(),
});
export type Stats = z.infer<typeof StatsSchema>;

export const consoleProtocol = definePluginProtocol({
  ...consoleWire,
  panel: {
    requests: {
      list: {
        params: z.object({ afterSeq: z.number().int().optional(), limit: z.number().int().min(1).max(50_000) }),
        result: z.object({ messages: z.array(MessageSummarySchema), stats: StatsSchema, hasMore: z.boolean() }),
      },
      get: { params: z.object({ seq: z.number().int() }), result: MessageSchema.nullable() },
      clear: { params: z.object({}), result: z.object({ cleared: z.number().int() }) },
    },
    events: {
      /** New messages, and repeats of the last one (same seq, higher count). */
      messages: z.object({ messages: z.array(MessageSummarySchema), stats: StatsSchema }),
      cleared: z.object({}),
    },
  },
});
export type ConsoleProtocol = typeof consoleProtocol;
