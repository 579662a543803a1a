import { z } from 'zod';
import { definePluginProtocol } from '../../shared/plugin-protocol.js';

/**
 * The console plugin's contract. The agent wraps the app's console and its uncaught-error hooks and
 * sends what it saw in batches; the host keeps it per session, groups repeats, maps stacks to the
 * app's sources and answers MCP tools and the panel.
 *
 * Argument values travel as JSON: strings, finite numbers, booleans and null as themselves,
 * everything else as a tagged object `{ $: kind, ... }` (see `SerializedValue`). A value the agent
 * cut (depth, size, count) says so: `{ $: 'cut' }`, `length`/`size` above the items sent, `more`.
 */

/** DevTools' four levels: console.debug → debug; log, info, table, trace, … → info; warn → warn; error, assert, uncaught → error. */
export const LevelSchema = z.enum(['debug', 'info', 'warn', 'error']);
export type Level = z.infer<typeof LevelSchema>;
export const LEVELS = LevelSchema.options;

/** What made the message: a console method, or an error nobody caught. */
export const KindSchema = z.enum([
  'log',
  'info',
  'warn',
  'error',
  'debug',
  'trace',
  'assert',
  'table',
  'dir',
  'group',
  'groupCollapsed',
  'groupEnd',
  'count',
  'timeLog',
  'timeEnd',
  /** An exception nobody caught (window error, Node uncaughtException, React Native ErrorUtils). */
  'exception',
  /** A promise rejection nobody handled. */
  'rejection',
  /** Not from the app: the host's marker that the app (re)connected, e.g. a page reload. */
  'connected',
]);
export type Kind = z.infer<typeof KindSchema>;

/** The console methods the agent wraps. */
export const CONSOLE_METHODS = [
  'log',
  'info',
  'warn',
  'error',
  'debug',
  'trace',
  'assert',
  'table',
  'dir',
  'group',
  'groupCollapsed',
  'groupEnd',
  'count',
  'countReset',
  'time',
  'timeLog',
  'timeEnd',
] as const;

/** `source` filter of the tools: console calls, or errors nobody caught. */
export const SourceSchema = z.enum(['console', 'exception', 'rejection', 'inspector']);
export type Source = z.infer<typeof SourceSchema>;

export function sourceOf(kind: Kind): Source {
  return kind === 'exception' || kind === 'rejection' ? kind : kind === 'connected' ? 'inspector' : 'console';
}

export function levelOf(kind: Kind): Level {
  switch (kind) {
    case 'debug':
      return 'debug';
    case 'warn':
      return 'warn';
    case 'error':
    case 'assert':
    case 'exception':
    case 'rejection':
      return 'error';
    default:
      return 'info';
  }
}

/**
 * One argument as the agent serialized it. TypeScript view of the tagged JSON (the wire schema is
 * `z.json()`: the host and panel read it defensively, since an app may send anything).
 */
export type SerializedValue =
  | string
  | number
  | boolean
  | null
  | { $: 'undefined' }
  | { $: 'number'; v: 'NaN' | 'Infinity' | '-Infinity' | '-0' }
  | { $: 'bigint'; v: string }
  | { $: 'symbol'; v: string }
  | { $: 'string'; v: string; length: number } // cut: v is the start
  | { $: 'function'; name: string }
  | { $: 'array'; cls?: string; items: SerializedValue[]; length: number }
  | { $: 'object'; cls?: string; props: Record<string, SerializedValue>; more?: number }
  | { $: 'map'; cls?: string; entries: [SerializedValue, SerializedValue][]; size: number }
  | { $: 'set'; cls?: string; items: SerializedValue[]; size: number }
  | { $: 'typed'; cls: string; items?: (number | string)[]; length: number }
  | { $: 'date'; v: string }
  | { $: 'regexp'; v: string }
  | {
      $: 'error';
      name: string;
      message: string;
      stack?: string;
      cause?: SerializedValue;
      errors?: SerializedValue[];
      props?: Record<string, SerializedValue>;
    }
  | { $: 'node'; v: string; nodeType: number }
  | { $: 'circular' }
  | { $: 'getter' }
  | { $: 'cut'; why: 'depth' | 'bytes'; cls?: string }
  | { $: 'thrown'; message: string };

const json = z.json();

/** One message as the agent sends it (time is the app's clock, ms since the epoch). */
export const AgentMessageSchema = z.object({
  kind: KindSchema,
  time: z.number(),
  args: z.array(json).max(1000),
  /** Where a console call was made: a stack captured inside the agent's wrapper (its first frame is the wrapper's). */
  callStack: z.string().max(20_000).optional(),
  /** For exceptions, rejections, console.trace and failed asserts: the stack to show. */
  stack: z.string().max(50_000).optional(),
  /** The label of count, time*, group*; the counter of count, the duration of timeLog/timeEnd. */
  label: z.string().max(1000).optional(),
  value: z.number().optional(),
  /** An uncaught exception that ends the process (Node without an uncaughtException listener, RN isFatal). */
  fatal: z.boolean().optional(),
  /** Where the browser says an uncaught error happened (ErrorEvent filename:lineno:colno). */
  location: z.object({ url: z.string().max(4096), line: z.number().int(), column: z.number().int() }).optional(),
});
export type AgentMessage = z.infer<typeof AgentMessageSchema>;

export const BatchSchema = z.object({
  messages: z.array(AgentMessageSchema).max(5000),
  /** Messages the agent dropped since the previous batch (its queue was full). */
  dropped: z.number().int().min(0).default(0),
  /** Where the app runs, to tell the host where source maps are: its page URL (browser) or working directory (Node). */
  origin: z.string().max(4096).optional(),
});
export type Batch = z.infer<typeof BatchSchema>;

// What the host keeps and shows --------------------------------------------------------------

export const FrameSchema = z.object({
  /** Function name, when the stack names one. */
  fn: z.string().optional(),
  file: z.string(),
  line: z.number().int(),
  column: z.number().int(),
});
export type Frame = z.infer<typeof FrameSchema>;

export const StackFrameSchema = FrameSchema.extend({
  /** The same frame in the app's original source, when a source map says where. */
  mapped: FrameSchema.optional(),
});
export type StackFrame = z.infer<typeof StackFrameSchema>;

const seq = z.number().int().describe('Position in the session: increases by one per stored message.');

export const MessageSummarySchema = z.object({
  seq,
  time: z.number().describe("The app's clock at the (last) occurrence, ms since the epoch."),
  firstTime: z.number().optional().describe('With count > 1: the first occurrence.'),
  level: LevelSchema,
  kind: KindSchema,
  text: z.string().describe('The message as a console prints it (format specifiers applied), cut to 500 characters.'),
  textTruncated: z.boolean().optional(),
  count: z.number().int().describe('Identical consecutive messages are stored once, with their count.'),
  lastSeq: z.number().int().optional().describe('With count > 1: the seq of the latest occurrence.'),
  site: z
    .string()
    .optional()
    .describe('Where it was logged or thrown: file:line:column, in the original source when mapped.'),
  group: z.number().int().optional().describe('Nesting depth under console.group.'),
  hasStack: z.boolean().optional(),
});
export type MessageSummary = z.infer<typeof MessageSummarySchema>;

export const MessageSchema = MessageSummarySchema.extend({
  text: z.string(),
  args: z.array(json).describe('Arguments as the agent serialized them ({ $: kind } tags for non-JSON values).'),
  label: z.string().optional(),
  value: z.number().optional(),
  fatal: z.boolean().optional(),
  stack: z.array(StackFrameSchema).optional().describe('The stack, each frame with its source-mapped place.'),
  stackText: z.string().optional().describe('The stack as the app printed it.'),
  callSite: StackFrameSchema.optional(),
});
export type Message = z.infer<typeof MessageSchema>;

export const ErrorGroupSchema = z.object({
  key: z.string().describe('Message text + top frame: what makes errors the same.'),
  text: z.string(),
  kind: KindSchema,
  site: z.string().optional(),
  count: z.number().int().describe('Occurrences (within `since` when given).'),
  totalCount: z.number().int().describe('Occurrences in the whole session.'),
  firstSeen: z.number(),
  lastSeen: z.number(),
  lastSeq: seq,
});
export type ErrorGroup = z.infer<typeof ErrorGroupSchema>;

export const MessageFilterSchema = z.object({
  level: z
    .union([LevelSchema, z.array(LevelSchema).min(1).max(4)])
    .optional()
    .describe('Only these levels (debug, info, warn, error).'),
  text: z
    .string()
    .max(1000)
    .optional()
    .describe('Text the message contains (case-insensitive), or /regex/flags.')
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
    .describe('Only messages after this seq: pass the `latest` of a previous answer to get what is new.'),
});
export type MessageFilter = z.infer<typeof MessageFilterSchema>;

/** A `/pattern/flags` text filter: undefined for plain text or a valid regex, else what is wrong. */
export function regexProblem(value: string | undefined): string | undefined {
  const m = value && /^\/(.*)\/([a-z]*)$/s.exec(value);
  if (!m) return undefined;
  try {
    new RegExp(m[1]!, m[2]);
    return undefined;
  } catch (e) {
    return `invalid regex ${value}: ${(e as Error).message}`;
  }
}

export const PageSchema = z.object({
  messages: z.array(MessageSummarySchema),
  latest: z.number().int().describe('The newest seq in the session now: pass it as `since` next time.'),
  remaining: z.number().int().describe('Matching messages beyond this page, in the direction of its cursor.'),
  olderCursor: z.string().optional().describe('More matching messages before this page: pass as cursor.'),
  newerCursor: z.string().optional().describe('More matching messages after this page: pass as cursor.'),
});
export type Page = z.infer<typeof PageSchema>;

export const StatsSchema = z.object({
  stored: z.number().int(),
  bytes: z.number().int(),
  /** Old messages the host dropped to stay within its byte budget. */
  evicted: z.number().int(),
  /** Messages the app dropped (its queue was full) or lost while the inspector was away. */
  droppedByApp: z.number().int(),
  errors: z.number().int(),
  warnings: z.number().int(),
});
export type Stats = z.infer<typeof StatsSchema>;

export const consoleProtocol = definePluginProtocol({
  id: 'console',
  version: '1.0.0',
  toAgent: {},
  toHost: {
    notifications: { batch: BatchSchema },
  },
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
