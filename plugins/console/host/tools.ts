import { z } from 'zod';
import { SinceLoadSchema } from '../../../shared/load-filter.js';
import { definePluginTool, ToolArgumentError } from '../../../shared/tool.js';
import { ErrorGroupSchema, LevelSchema, MessageFilterSchema, MessageSchema, PageSchema } from '../protocol.js';
import type { ConsoleHost } from './host-api.js';
import { CursorError, fullMessage } from './store.js';

const tool = definePluginTool<ConsoleHost>();
const laterOf = (a: number | undefined, b: number | undefined) =>
  a === undefined ? b : b === undefined ? a : Math.max(a, b);
const readOnly = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;
export const listMessages = tool({
  name: 'console_list_messages',
  worksWhenDisconnected: true,
  title: 'List console messages',
  description: `What the app logged (console.*) and uncaught errors: newest page, oldest first, as summaries (text cut at 300 characters, repeats counted); console_get_message gives one in full.`,
  input: MessageFilterSchema.extend({
    limit: z.number().int().min(1).max(200).default(20).describe('Messages per page.'),
    cursor: z.string().max(32).optional().describe('The olderCursor or newerCursor of a previous answer.'),
  }),
  output: PageSchema.extend({ next: z.string().optional().describe('How to get the rest, when there is more.') }),
  annotations: readOnly,
  async handler({ limit, cursor, sinceLoad, ...rest }, { instance }) {
    const filter = { ...rest, since: laterOf(rest.since, instance.sinceSeqOfLoad(sinceLoad)) };
    try {
      const first = await instance.store.page(filter, limit, cursor);
      await instance.settle(first.entries);
      const { entries: _entries, ...page } = await instance.store.page(filter, limit, cursor);
      const more = page.olderCursor ?? page.newerCursor;
      return more && page.remaining > 0
        ? { ...page, next: `${page.remaining} more: call again with cursor "${more}" (and the same filters)` }
        : page;
    } catch (e) {
      if (e instanceof CursorError) throw new ToolArgumentError(e.message);
      throw e;
    }
  },
});

export const getMessage = tool({
  name: 'console_get_message',
  worksWhenDisconnected: true,
  maxResultSizeChars: 500_000,
  title: 'Get a console message',
  description: `One console message in full: its arguments as serialized ({ $: kind } tags mark what JSON cannot hold) and its stack, printed and source-mapped.`,
  input: z.object({
    seq: z.number().int().min(1).describe('A seq from console_list_messages (any occurrence).'),
    maxArgsChars: z
      .number()
      .int()
      .min(100)
      .max(2_000_000)
      .default(20_000)
      .describe('Cut the arguments to about this many characters of JSON.'),
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
  alwaysLoad: true,
  title: 'List errors, grouped',
  description: `The app's errors (uncaught, unhandled rejections, console.error, failed asserts) grouped by message and top frame, newest first, with counts and lastSeq for console_get_message.`,
  input: z.object({
    since: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("Only occurrences after this seq (a previous answer's `latest`)."),
    sinceLoad: SinceLoadSchema,
    includeWarnings: z.boolean().default(false).describe('Also group warnings.'),
    limit: z.number().int().min(1).max(200).default(20).describe('Groups per answer.'),
  }),
  output: z.object({
    groups: z.array(ErrorGroupSchema),
    latest: z.number().int().describe('The newest seq now: pass it as since next time.'),
    remaining: z.number().int().describe('Groups beyond this answer; raise limit to see them.'),
    next: z.string().optional().describe('How to get the rest, when there is more.'),
  }),
  annotations: readOnly,
  async handler({ since: after, sinceLoad, includeWarnings, limit }, { instance }) {
    const since = laterOf(after, instance.sinceSeqOfLoad(sinceLoad));
    const levels = includeWarnings ? (['error', 'warn'] as const) : ([LevelSchema.enum.error] as const);
    await instance.settle(instance.store.errors(since, limit, levels).entries);
    const { entries: _entries, ...answer } = instance.store.errors(since, limit, levels);
    if (answer.remaining === 0) return answer;
    const next =
      limit + answer.remaining <= 200
        ? `call again with limit ${limit + answer.remaining}`
        : 'call again with limit 200, or with since to see only newer occurrences';
    return { ...answer, next: `${answer.remaining} more groups: ${next}` };
  },
});

export const clear = tool({
  name: 'console_clear',
  worksWhenDisconnected: true,
  describeChange: () => 'Forgets every console message and error group stored for the session.',
  title: 'Clear the console',
  description: `Forgets the session's stored console messages and error groups (the app is not touched).`,
  input: z.object({}),
  output: z.object({ cleared: z.number().int().describe('Messages removed.') }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: (_args, { instance }) => ({ cleared: instance.clear() }),
});

export const consoleTools = [listMessages, getMessage, listErrors, clear];
