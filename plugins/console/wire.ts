import { z } from 'zod';
import { definePluginProtocol } from '../../shared/plugin-protocol.js';
import { CONSOLE_PROTOCOL_ID, CONSOLE_PROTOCOL_VERSION } from './constants.js';

export * from './constants.js';

/**
 * The console plugin's wire contract: what the agent sends (the whole contract, with what the host
 * keeps and its panel may ask, is protocol.ts). Apart so that apps bundle only this part.
 * The agent wraps the app's console and its uncaught-error hooks and
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

export type { SerializedValue } from '../../shared/serialized-value.js';

export const FrameSchema = z.object({
  /** Function name, when the stack names one. */
  fn: z.string().max(1000).optional(),
  file: z.string().max(4096),
  line: z.number().int(),
  column: z.number().int(),
});
export type Frame = z.infer<typeof FrameSchema>;

/** One message as the agent sends it (time is the app's clock, ms since the epoch). */
export const AgentMessageSchema = z.object({
  kind: KindSchema,
  time: z.number(),
  /** Serialized arguments (see SerializedValue); JSON by construction, read defensively by the host. */
  args: z.array(z.unknown()).max(1000),
  /**
   * Where a console call was made (V8: the caller's frame, taken without formatting a stack), or
   * its index in the batch's `sites` (a loop logs from one place many times).
   */
  site: z.union([FrameSchema, z.number().int().min(0)]).optional(),
  /** The stack of the console call, its caller first: for warn, error, trace and assert, or where `site` cannot be had. */
  callStack: z.string().max(50_000).optional(),
  /** For exceptions and rejections: the stack of the error. */
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
  /** Call sites the batch's messages refer to by index. */
  sites: z.array(FrameSchema).max(5000).optional(),
});
export type Batch = z.infer<typeof BatchSchema>;

/**
 * On the wire a batch's messages are not checked one by one by the agent (it made them); the host
 * checks each with AgentMessageSchema and counts those it refuses.
 */
export const BatchWireSchema = BatchSchema.extend({ messages: z.array(z.unknown()).max(5000) });

export const consoleWire = definePluginProtocol({
  id: CONSOLE_PROTOCOL_ID,
  version: CONSOLE_PROTOCOL_VERSION,
  toAgent: {},
  toHost: {
    notifications: { batch: BatchWireSchema },
  },
});
export type ConsoleWire = typeof consoleWire;
export type BatchWire = z.infer<typeof BatchWireSchema>;
