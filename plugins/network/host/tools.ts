import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import {
  briefSchema,
  definePluginTool,
  getsRawValue,
  type PluginToolContext,
  ToolArgumentError,
} from '../../../shared/tool.js';
import { ToolResult } from '../../../shared/tool-result.js';
import { HarSchema } from '../har-schema.js';
import { describeAction, describeMatch, describeRule } from '../mock-describe.js';
import {
  type Body,
  InjectMessageSchema,
  MessagePageSchema,
  MessageQuerySchema,
  MockActionSchema,
  type MockConfigView,
  MockConfigViewSchema,
  MockMatchSchema,
  type MockRule,
  type MockRuleInput,
  MockRulePatchSchema,
  MockRuleSummarySchema,
  MockRuleWithOptionalIdSchema,
  MockStateSummarySchema,
  SortOrderSchema,
  type Transaction,
  TransactionFilterSchema,
  TransactionPageSchema,
} from '../protocol.js';
import { withFrames } from '../socketio.js';
import { readHarFile } from './har-file.js';
import type { NetworkHost } from './host-api.js';
import { unknownTransaction } from './host-api.js';
import { summarizeRule, summarizeState } from './mock-summary.js';
import { redactMessage, redactSummary, redactUrl } from './redact.js';
import { toCurl, toFetch } from './snippets.js';
import { CursorError } from './transaction-store.js';

const tool = definePluginTool<NetworkHost>();
type Ctx = PluginToolContext<NetworkHost>;

const readOnly = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Every surface but the window gets transactions redacted (the app's hidden headers and the user's rules; redact.ts). */
export function forSurface(tx: Transaction, ctx: Pick<Ctx, 'surface' | 'instance'>): Transaction {
  return ctx.surface === 'ui' ? tx : ctx.instance.forAgent(tx);
}

/** What `urlContains` matches for this caller: the URL it is shown. */
function urlFor(ctx: Pick<Ctx, 'surface' | 'instance'>): ((url: string) => string) | undefined {
  if (ctx.surface === 'ui') return undefined;
  const rules = ctx.instance.redactionRules();
  return (url) => redactUrl(url, rules);
}

/** Cuts a body's data to `max` characters for an answer; `truncatedForOutput` says it was cut here. */
export function limitBody(body: Body | undefined, max: number): (Body & { truncatedForOutput?: boolean }) | undefined {
  if (!body || body.data.length <= max) return body;
  const keep = body.encoding === 'base64' ? max - (max % 4) : max;
  return { ...body, data: body.data.slice(0, keep), truncatedForOutput: true };
}

export const listTransactions = tool({
  name: 'network_list_transactions',
  worksWhenDisconnected: true,
  title: 'List network requests',
  description: `The HTTP requests the app made, newest first, as summaries; nextCursor pages on. network_get_transaction has one in full.`,
  input: TransactionFilterSchema.extend({
    limit: z.number().int().min(1).max(500).default(25).describe('Summaries per page.'),
    cursor: z.string().max(64).optional().describe('The nextCursor of the previous page.'),
    order: SortOrderSchema.default('newest'),
  }),
  output: TransactionPageSchema.extend({
    next: z.string().optional().describe('How to get the rest, when there is more.'),
    pending: z.number().int().describe('Requests still waiting for their response, in the whole session.'),
    dropped: z
      .object({ count: z.number().int(), bytes: z.number().int() })
      .describe(
        "Old requests dropped (and their estimated bytes) since the session began, to stay within the session's store limits or the inspector's memory budget (--memory-budget).",
      ),
  }),
  annotations: readOnly,
  handler({ limit, cursor, order, ...filter }, ctx) {
    const { instance, surface } = ctx;
    try {
      const page = instance.list({ filter, limit, cursor, order, urlOf: urlFor(ctx) });
      if (surface !== 'ui') {
        const rules = instance.redactionRules();
        page.transactions = page.transactions.map((s) => redactSummary(s, rules));
      }
      const stats = instance.stats();
      return {
        ...page,
        ...(page.nextCursor
          ? { next: `${page.remaining} more: call again with cursor "${page.nextCursor}" (and the same filters)` }
          : {}),
        pending: stats.pending,
        dropped: { count: stats.dropped, bytes: stats.droppedBytes },
      };
    } catch (e) {
      if (e instanceof CursorError) throw new ToolArgumentError(e.message);
      throw e;
    }
  },
});

export const listMessages = tool({
  name: 'network_list_messages',
  worksWhenDisconnected: true,
  title: 'List WebSocket and event-stream messages',
  description: `A WebSocket's or event stream's (SSE) messages, oldest first, socket.io framing decoded.`,
  input: MessageQuerySchema,
  output: MessagePageSchema.extend({ next: z.string().optional() }),
  annotations: readOnly,
  handler(query, { instance, surface }) {
    const page = instance.listMessages(query);
    if (surface !== 'ui') {
      const rules = instance.redactionRules();
      page.messages = page.messages.map((m) => redactMessage(m, rules));
    }
    // Framing is read from what the caller may see.
    page.messages = withFrames(page.messages, instance.get(query.transactionId)?.request.url);
    return {
      ...page,
      ...(page.nextCursor
        ? { next: `${page.remaining} more: call again with cursor "${page.nextCursor}" (and the same filters)` }
        : {}),
    };
  },
});

export const injectMessage = tool({
  name: 'network_inject_message',
  defaultPermission: 'ask',
  describeChange: ({ transactionId, data, base64 }) =>
    `Hands the app's open WebSocket ${transactionId} a message as if its server had sent it: ${
      base64
        ? `${Math.floor((data.length * 3) / 4)} bytes of binary`
        : JSON.stringify(data.length > 200 ? `${data.slice(0, 200)}…` : data)
    }.`,
  title: 'Inject a WebSocket message',
  description: `Hands an open WebSocket of the app a message as if its server had sent it (the server sees nothing), to reproduce a socket bug.`,
  input: InjectMessageSchema,
  output: z.object({ delivered: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (message, { instance, signal }) => instance.injectMessage(message, signal),
});

export const getTransaction = tool({
  name: 'network_get_transaction',
  worksWhenDisconnected: true,
  maxResultSizeChars: 500_000,
  title: 'Get a network request',
  description: `One request in full: headers, bodies (truncatedForOutput: cut to maxBodyChars; truncated: the app's cap), timing, failure, mock rule.`,
  input: z.object({
    id: z.string().min(1).describe('The transaction id from network_list_transactions.'),
    maxBodyChars: z.number().int().min(0).max(5_000_000).default(20_000).describe('Longest body text returned.'),
    responseBodyAsImage: z
      .boolean()
      .default(false)
      .describe('Return a PNG, JPEG, GIF or WebP response body as an image.'),
    includeSnippets: z.boolean().default(false).describe('Add cURL and fetch code that repeat the request.'),
  }),
  annotations: readOnly,
  handler({ id, maxBodyChars, responseBodyAsImage, includeSnippets }, ctx) {
    const found = ctx.instance.get(id);
    if (!found) throw unknownTransaction(id);
    const tx = forSurface(found, ctx);
    if (responseBodyAsImage) return imageOf(tx);
    const transaction = {
      ...tx,
      request: { ...tx.request, body: limitBody(tx.request.body, maxBodyChars) },
      response: tx.response && { ...tx.response, body: limitBody(tx.response.body, maxBodyChars) },
    };
    return ToolResult.json({
      transaction,
      ...(includeSnippets ? { snippets: { curl: toCurl(tx.request), fetch: toFetch(tx.request) } } : {}),
    });
  },
});

function imageOf(tx: Transaction): ToolResult {
  const body = tx.response?.body;
  const type = body?.contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (body?.encoding !== 'base64' || !IMAGE_TYPES.has(type)) {
    throw new ToolArgumentError(
      `the response of ${tx.id} is not a PNG, JPEG, GIF or WebP image (${body ? `content type "${body.contentType ?? 'unknown'}"` : 'no body'}); call again without responseBodyAsImage`,
    );
  }
  if (body.truncated) {
    throw new ToolArgumentError(
      `the image of ${tx.id} was cut at the app's capture cap (${body.size} bytes), so it cannot be shown; raise network({ maxBodyBytes }) in the app`,
    );
  }
  return ToolResult.image(body.data, type, `${tx.request.method} ${tx.request.url} → ${tx.response?.status}`);
}

export const clearTransactions = tool({
  name: 'network_clear_transactions',
  describeChange: () => "Forgets every captured request of the app's session (mock rules stay).",
  title: 'Clear network requests',
  description: `Forgets every captured request of the session (mock rules stay).`,
  input: z.object({}),
  output: z.object({ cleared: z.number().int() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: (_args, { instance }) => ({ cleared: instance.clear() }),
});

export const getMockConfig = tool({
  name: 'network_get_mock_config',
  worksWhenDisconnected: true,
  title: 'Get mock rules',
  description: `The app's mock rules in full (saved per app; first enabled match wins), whether mocking is on, hits per rule, and whether the app applied them.`,
  input: z.object({}),
  output: MockConfigViewSchema,
  annotations: readOnly,
  handler: (_args, { instance }) => instance.mockConfig(),
});

const MOCK_OPS = ['add', 'update', 'remove', 'replace', 'enable', 'disable'] as const;

// A rule's conditions and answers are checked in full; tools/list spells the answer and the
// name/value conditions out in one line each rather than as ~3 KB of nested JSON Schema.
const conditions = (of: string) =>
  briefSchema(
    MockMatchSchema.shape.headers,
    `${of} conditions: [{ name, equals? or contains? }]: present, and its value matching if given.`,
  );
const RuleArgumentSchema = MockRulePatchSchema.extend({
  match: MockMatchSchema.extend({ headers: conditions('Header'), query: conditions('Query') }).optional(),
  action: briefSchema(
    MockActionSchema,
    'One of: { type: "respond", status (200-599), statusText?, headers? ({ name: value }), body? ({ type: "text", text } | { type: "json", json } | { type: "base64", base64 }), trailers? ({ name: value }, HTTP/2 only), delayMs?, bytesPerSecond?, cut? ({ afterBytes, end: "stall" | "reset" }) }; { type: "networkError", message?, code? (e.g. ECONNRESET), delayMs? }; { type: "websocket" (ws(s) URLs), messages? ([{ data, base64?, delayMs? }]), close? ({ code?, reason?, delayMs? }), delayMs? }. delayMs: ms to wait first (≤ 120000).',
  ).optional(),
});

const MockChangeInputSchema = z.object({
  op: z
    .enum(MOCK_OPS)
    .describe(
      'add: rule, last. update: rule id, given fields replaced whole. remove: rule id. replace: rules become the list, in order ([] removes all). enable/disable: mocking on or off, rules kept.',
    ),
  id: z.string().min(1).optional().describe('update, remove: the rule id.'),
  rule: RuleArgumentSchema.optional().describe(
    'add: the rule (match and action required); update: the fields to change. Example: {"match":{"url":{"kind":"contains","value":"/api"}},"action":{"type":"respond","status":500}}.',
  ),
  rules: z
    .array(briefSchema(MockRuleWithOptionalIdSchema, 'A rule as `rule` takes it for add; an id keeps its id.'))
    .max(500)
    .optional()
    .describe('replace: the new list, each rule as network_set_mock_rules takes `rule`.'),
});
type MockChangeInput = z.infer<typeof MockChangeInputSchema>;

const needs = (what: string, op: string) =>
  new ToolArgumentError(`op "${op}" needs ${what}; network_get_mock_config lists the rules and their ids`);

function describeMockChange({ op, id, rule, rules }: MockChangeInput): string {
  switch (op) {
    case 'add':
      return `Adds a mock rule, so matching requests get this answer inside the app: ${rule?.match && rule.action ? describeRule(rule as MockRuleInput) : 'an incomplete rule'}.`;
    case 'update': {
      const parts = [
        rule?.name !== undefined && `name "${rule.name}"`,
        rule?.enabled !== undefined && (rule.enabled ? 'enabled' : 'disabled'),
        rule?.match && `matches ${describeMatch(rule.match)}`,
        rule?.action && `answers: ${describeAction(rule.action)}`,
      ].filter(Boolean);
      return `Changes the mock rule ${id}: ${parts.join('; ') || 'nothing'}.`;
    }
    case 'remove':
      return `Removes the mock rule ${id}; matching requests reach the network again.`;
    case 'replace':
      return !rules?.length
        ? 'Removes every mock rule of the app.'
        : `Replaces every mock rule of the app with ${rules.length}: ${rules.map((r) => describeRule(r)).join('; ')}.`;
    case 'enable':
      return 'Turns mocking on: the enabled mock rules answer again.';
    case 'disable':
      return 'Turns mocking off: the app gets real answers.';
  }
}

export const setMockRules = tool({
  name: 'network_set_mock_rules',
  describeChange: describeMockChange,
  title: 'Change mock rules',
  description: `Changes the mock rules: matching requests are answered inside the app, not by the network (first enabled match wins). Applied once the app acknowledges, else isError and nothing changes.`,
  input: MockChangeInputSchema,
  output: MockStateSummarySchema.extend({
    rule: MockRuleSummarySchema.optional().describe('add, update: the rule as it is now.'),
    removed: z.string().optional().describe('remove: its id.'),
    rules: z.array(MockRuleSummarySchema).optional().describe('replace: the new list.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler({ op, id, rule, rules }, { instance, signal }): Promise<MockChange> {
    switch (op) {
      case 'add':
        if (!rule) throw needs('rule', op);
        return { op, ...(await instance.addMockRule(rule as MockRuleInput, signal)) };
      case 'update':
        if (!id) throw needs('id', op);
        return { op, ...(await instance.updateMockRule(id, rule ?? {}, signal)) };
      case 'remove':
        if (!id) throw needs('id', op);
        return { op, config: await instance.removeMockRule(id, signal), removed: id };
      case 'replace':
        if (!rules) throw needs('rules (the whole new list; [] removes every rule)', op);
        return { op, config: await instance.setMockRules(rules, signal) };
      default:
        return { op, config: await instance.setMockingEnabled(op === 'enable', signal) };
    }
  },
  mcpResult: ({ op, config, rule, removed }) => ({
    ...(rule ? { rule: summarizeRule(rule, config) } : {}),
    ...(removed ? { removed } : {}),
    ...(op === 'replace' ? { rules: config.rules.map((r) => summarizeRule(r, config)) } : {}),
    ...summarizeState(config),
  }),
});

/** What network_set_mock_rules answers the window, the CLI and scripts: the whole config, and the rule changed. */
export interface MockChange {
  op: (typeof MOCK_OPS)[number];
  config: MockConfigView;
  rule?: MockRule;
  removed?: string;
}

/** Above this an MCP answer would crowd a client's context window: the HAR goes to a file instead. */
export const HAR_INLINE_LIMIT = 25_000;

const HarFileSchema = z.object({
  path: z.string().describe('The HAR file in the data dir (mode 0600).'),
  uri: z.string(),
  bytes: z.number().int(),
  entries: z.number().int(),
  next: z.string().describe('What to do with it.'),
});

/**
 * The filters again, listed by name and type only: the tool's description says they are
 * network_list_transactions', which spells them out (status, an object too, points there itself).
 */
const briefFilter = z.object(
  Object.fromEntries(
    Object.entries(TransactionFilterSchema.shape).map(([key, schema]) => [
      key,
      briefSchema(schema, key === 'status' ? 'As network_list_transactions.' : ''),
    ]),
  ) as typeof TransactionFilterSchema.shape,
);

export const exportHar = tool({
  name: 'network_export_har',
  worksWhenDisconnected: true,
  title: 'Export requests as HAR',
  description: `The requests matching network_list_transactions' filters as a HAR 1.2 log, oldest first; over 25 KB it goes to a file (toFile) and the answer links it.`,
  input: briefFilter.extend({
    maxEntries: z
      .number()
      .int()
      .min(1)
      .max(5000)
      .optional()
      .describe('Most entries, the newest kept. Default 5, or 5000 with toFile.'),
    maxBodyChars: z
      .number()
      .int()
      .min(0)
      .max(5_000_000)
      .optional()
      .describe('Longest body per entry. Default 500, or 5,000,000 with toFile.'),
    toFile: z.boolean().optional().describe('Write the HAR to a file and answer with its path.'),
  }),
  output: z.object({
    log: briefSchema(HarSchema.shape.log, 'A HAR 1.2 log: version, creator, entries (request, response, timings).')
      .optional()
      .describe('The HAR log, when answered inline.'),
    file: HarFileSchema.optional().describe('Where the HAR was written, instead of log.'),
  }),
  annotations: readOnly,
  handler({ maxEntries, maxBodyChars, toFile, ...filter }, ctx) {
    const whole = toFile === true;
    const bodyMax = maxBodyChars ?? (whole ? 5_000_000 : 500);
    const transactions = ctx.instance
      .transactions(filter, urlFor(ctx))
      .slice(-(maxEntries ?? (whole ? 5000 : 5)))
      .map((found) => {
        const tx = forSurface(found, ctx);
        const cut = (body: Body | undefined) => {
          const limited = limitBody(body, bodyMax);
          return limited?.truncatedForOutput ? { ...limited, truncated: true } : body;
        };
        return {
          ...tx,
          request: { ...tx.request, body: cut(tx.request.body) },
          response: tx.response && { ...tx.response, body: cut(tx.response.body) },
        };
      });
    const har = ctx.instance.exportHar(undefined, transactions);
    const text = JSON.stringify(har);
    // The window, the CLI and scripts get the log itself unless they ask for a file.
    const file = toFile ?? (!getsRawValue(ctx.surface) && text.length > HAR_INLINE_LIMIT);
    if (!file) return har as { log: z.input<typeof HarSchema>['log'] };
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const saved = ctx.instance.saveExport(`network-${ctx.session.id.slice(0, 8)}-${stamp}.har`, text);
    return {
      file: {
        path: saved.path,
        uri: pathToFileURL(saved.path).href,
        bytes: saved.bytes,
        entries: transactions.length,
        next: `Read it with your file tools, open it in a HAR viewer, or load it into a session with network_import_har { path }.${
          toFile === undefined
            ? ` Written to a file because it is over ${HAR_INLINE_LIMIT / 1000} KB; toFile: false answers inline.`
            : ''
        }`,
      },
    };
  },
  links: (answer) => {
    const file = answer.file as z.infer<typeof HarFileSchema> | undefined;
    if (!file) return [];
    return [
      {
        type: 'resource_link',
        uri: file.uri,
        name: basename(file.path),
        mimeType: 'application/json',
        description: `HAR 1.2, ${file.entries} entries`,
        size: file.bytes,
      },
    ];
  },
});

export const importHar = tool({
  name: 'network_import_har',
  describeChange: ({ source, path }) =>
    `Adds the requests of a HAR file${source ? ` (${source})` : path ? ` (${path})` : ''} to the session, marked as imported.`,
  title: 'Import a HAR file',
  description: `Adds the requests of a HAR 1.2 log (har, or a file's path) to the session, marked as imported, to list, read and export like captured ones.`,
  input: z.object({
    har: z
      .union([z.string(), z.record(z.string(), z.unknown())])
      .optional()
      .describe('The HAR: its JSON text or object.'),
    path: z.string().min(1).max(4096).optional().describe('Instead of har: the absolute path of a HAR file to read.'),
    source: z.string().max(500).optional().describe('Where it came from (a file name), shown beside the requests.'),
  }),
  output: z.object({ imported: z.number().int() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler({ har, path, source }, { instance }) {
    if (har === undefined && path === undefined)
      throw new ToolArgumentError('pass har (the HAR itself) or path (a HAR file on this machine)');
    if (har !== undefined && path !== undefined)
      throw new ToolArgumentError('pass either har (the HAR itself) or path (a HAR file on this machine), not both');
    const input = path === undefined ? har : await readHarFile(instance, path);
    try {
      return instance.importHar(input, source ?? (path === undefined ? undefined : basename(path)));
    } catch (e) {
      if ((e as Error).name === 'HarImportError') throw new ToolArgumentError((e as Error).message);
      throw e;
    }
  },
});

export const networkTools = [
  listTransactions,
  getTransaction,
  listMessages,
  injectMessage,
  clearTransactions,
  getMockConfig,
  setMockRules,
  exportHar,
  importHar,
] as const;
