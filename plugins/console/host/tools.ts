import { z } from 'zod';
import { definePluginTool, ToolArgumentError } from '../../../shared/tool.js';
import { ErrorGroupSchema, LevelSchema, MessageFilterSchema, MessageSchema, PageSchema } from '../protocol.js';
import type { ConsoleHost } from './host-api.js';
import { CursorError, fullMessage } from './store.js';

const tool = definePluginTool<ConsoleHost>();
const readOnly = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;
const sessionNote = 'Acts on the one connected app with the console plugin unless sessionId says which.';

export const listMessages = tool({
  name: 'console_list_messages',
  worksWhenDisconnected: true,
  title: 'List console messages',
  description: `Lists what the app logged (console.log/info/warn/error/debug/trace/assert/table/group/count/time) and the errors nobody caught, oldest first, as summaries: seq, level, kind, text (format specifiers applied, cut to 300 characters), count (identical consecutive messages are stored once), site (file:line:column, source-mapped). Without arguments: the newest 20. Filter by level, text (a substring, or a /regex/ such as /timeout|refused/i), source. To get only what is new since a previous call, pass its \`latest\` as since. Page with olderCursor / newerCursor; \`remaining\` says how many more match. Use console_get_message for full arguments and the stack. ${sessionNote}`,
  input: MessageFilterSchema.extend({
    limit: z.number().int().min(1).max(200).default(20).describe('Messages per page (1-200, default 20).'),
    cursor: z.string().max(32).optional().describe('The olderCursor or newerCursor of a previous answer.'),
  }),
  output: PageSchema,
  annotations: readOnly,
  async handler({ limit, cursor, ...filter }, { instance }) {
    try {
      const first = instance.store.page(filter, limit, cursor);
      await instance.settle(first.entries);
      const { entries: _entries, ...page } = instance.store.page(filter, limit, cursor);
      return page;
    } catch (e) {
      if (e instanceof CursorError) throw new ToolArgumentError(e.message);
      throw e;
    }
  },
});

export const getMessage = tool({
  name: 'console_get_message',
  worksWhenDisconnected: true,
  title: 'Get a console message',
  description: `One console message in full: every argument as serialized in the app ({ $: kind } tags mark undefined, BigInt, Map, Set, Error, DOM nodes, circular references, getters, and cut values), the stack as the app printed it and as frames, each with its source-mapped place. Arguments over maxArgsChars are cut (argsTruncated). ${sessionNote}`,
  input: z.object({
    seq: z.number().int().min(1).describe('The seq of a message from console_list_messages (any of its occurrences).'),
    maxArgsChars: z
      .number()
      .int()
      .min(100)
      .max(2_000_000)
      .default(20_000)
      .describe('Cut the arguments to about this many characters of JSON (default 20,000).'),
  }),
  output: MessageSchema.extend({
    argsTruncated: z.boolean().optional().describe('Some arguments were cut to fit maxArgsChars.'),
  }),
  annotations: readOnly,
  async handler({ seq, maxArgsChars }, { instance }) {
    const entry = instance.store.get(seq);
    if (!entry) {
      const latest = instance.store.latest;
      throw new ToolArgumentError(
        seq > latest
          ? `no console message ${seq}: the newest is ${latest}`
          : `console message ${seq} is no longer stored (cleared, or dropped to stay within the store's budget); list the messages with console_list_messages`,
      );
    }
    await instance.settle([entry]);
    const message = fullMessage(entry);
    let left = maxArgsChars;
    let cut = false;
    message.args = message.args.map((arg) => {
      const size = JSON.stringify(arg).length;
      if (size <= left) {
        left -= size;
        return arg;
      }
      cut = true;
      return { $: 'cut', why: 'bytes' };
    });
    return cut ? { ...message, argsTruncated: true } : message;
  },
});

export const listErrors = tool({
  name: 'console_list_errors',
  worksWhenDisconnected: true,
  title: 'List errors, grouped',
  description: `The app's errors grouped by message and top stack frame, most recent first: uncaught exceptions, unhandled rejections, console.error and failed console.assert. Each group has its count, first and last seen (the app's clock), site (source-mapped) and lastSeq (pass it to console_get_message for the stack). To ask "which errors happened since my last call", pass that answer's \`latest\` as since: groups then count only newer occurrences. includeWarnings adds console.warn. ${sessionNote}`,
  input: z.object({
    since: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Only occurrences after this seq (the `latest` of a previous answer).'),
    includeWarnings: z.boolean().default(false).describe('Also group warnings.'),
    limit: z.number().int().min(1).max(200).default(20).describe('Groups per answer (default 20).'),
  }),
  output: z.object({
    groups: z.array(ErrorGroupSchema),
    latest: z.number().int().describe('The newest seq now: pass it as since next time.'),
    remaining: z.number().int().describe('Groups beyond this answer; raise limit to see them.'),
  }),
  annotations: readOnly,
  async handler({ since, includeWarnings, limit }, { instance }) {
    const levels = includeWarnings ? (['error', 'warn'] as const) : ([LevelSchema.enum.error] as const);
    await instance.settle(instance.store.errors(since, limit, levels).entries);
    const { entries: _entries, ...answer } = instance.store.errors(since, limit, levels);
    return answer;
  },
});

export const clear = tool({
  name: 'console_clear',
  worksWhenDisconnected: true,
  describeChange: () => 'Forgets every console message and error group stored for the session.',
  title: 'Clear the console',
  description: `Forgets every console message and error group stored for the session (the app itself is not touched). ${sessionNote}`,
  input: z.object({}),
  output: z.object({ cleared: z.number().int().describe('Messages removed.') }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: (_args, { instance }) => ({ cleared: instance.clear() }),
});

export const consoleTools = [listMessages, getMessage, listErrors, clear];
