import { z } from 'zod';
import { briefSchema, definePluginTool, type PluginToolContext, ToolArgumentError } from '../../../shared/tool.js';
import { ToolResult } from '../../../shared/tool-result.js';
import { HarSchema } from '../har-schema.js';
import { describeAction, describeMatch, describeRule } from '../mock-describe.js';
import {
  type Body,
  MockActionSchema,
  MockConfigViewSchema,
  MockMatchSchema,
  MockRuleChangeSummarySchema,
  MockRuleInputSchema,
  MockRulePatchSchema,
  MockRuleRemovedSummarySchema,
  MockRulesSummarySchema,
  MockRuleWithOptionalIdSchema,
  MockStateSummarySchema,
  SortOrderSchema,
  type Transaction,
  TransactionFilterSchema,
  TransactionPageSchema,
} from '../protocol.js';
import type { NetworkHost } from './host-api.js';
import { unknownTransaction } from './host-api.js';
import { summarizeRule, summarizeState } from './mock-summary.js';
import { redactSummary, redactUrl } from './redact.js';
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
  description: `The HTTP requests the app made (fetch, XHR, Node http/https, undici), newest first, as summaries. network_get_transaction has headers and bodies.`,
  input: TransactionFilterSchema.extend({
    limit: z.number().int().min(1).max(500).default(25).describe('Summaries per page.'),
    cursor: z.string().max(64).optional().describe('The nextCursor of the previous page.'),
    order: SortOrderSchema.default('newest'),
  }),
  output: TransactionPageSchema.extend({
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
      return { ...page, pending: stats.pending, dropped: { count: stats.dropped, bytes: stats.droppedBytes } };
    } catch (e) {
      if (e instanceof CursorError) throw new ToolArgumentError(e.message);
      throw e;
    }
  },
});

export const getTransaction = tool({
  name: 'network_get_transaction',
  worksWhenDisconnected: true,
  title: 'Get a network request',
  description: `One request in full: headers, bodies (text or base64; truncatedForOutput marks a cut to maxBodyChars, truncated the app's capture cap), timing, failure, mock rule.`,
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
  description: `The app's mock rules in full (saved per app, applied inside it: the first enabled match wins), whether mocking is on, hits per rule this session, and whether the app applied them (sync).`,
  input: z.object({}),
  output: MockConfigViewSchema,
  annotations: readOnly,
  handler: (_args, { instance }) => instance.mockConfig(),
});

const mockNote = 'Applied when the app acknowledges, else nothing changes.';

const change = { readOnlyHint: false, openWorldHint: false } as const;

export const addMockRule = tool({
  name: 'network_add_mock_rule',
  describeChange: (rule) =>
    `Adds a mock rule, so matching requests get this answer inside the app: ${describeRule(rule)}.`,
  title: 'Add a mock rule',
  description: `Adds a rule (last in order) that answers matching requests inside the app instead of the network (glob URLs take * and ?). Example: {"match":{"url":{"kind":"contains","value":"/api"}},"action":{"type":"respond","status":500}}. Applied when the app acknowledges, else isError and nothing changes. Answers with what changed (network_get_mock_config has all rules).`,
  input: MockRuleInputSchema,
  output: MockRuleChangeSummarySchema,
  annotations: { ...change, destructiveHint: false, idempotentHint: false },
  handler: (rule, { instance, signal }) => instance.addMockRule(rule, signal),
  mcpResult: ({ rule, config }) => ({ rule: summarizeRule(rule, config), ...summarizeState(config) }),
});

export const updateMockRule = tool({
  name: 'network_update_mock_rule',
  describeChange: ({ id, ...patch }) => {
    const parts = [
      patch.name !== undefined && `name "${patch.name}"`,
      patch.enabled !== undefined && (patch.enabled ? 'enabled' : 'disabled'),
      patch.match && `matches ${describeMatch(patch.match)}`,
      patch.action && `answers: ${describeAction(patch.action)}`,
    ].filter(Boolean);
    return `Changes the mock rule ${id}: ${parts.join('; ') || 'nothing'}.`;
  },
  title: 'Change a mock rule',
  description: `Changes the given fields of a rule; each replaces the old one whole. ${mockNote}`,
  input: MockRulePatchSchema.extend({
    id: z.string().min(1).describe('The rule id.'),
    match: briefSchema(MockMatchSchema, 'Replaces the match; as network_add_mock_rule takes it.').optional(),
    action: briefSchema(MockActionSchema, 'Replaces the action; as network_add_mock_rule takes it.').optional(),
  }),
  output: MockRuleChangeSummarySchema,
  annotations: { ...change, destructiveHint: true, idempotentHint: true },
  handler: ({ id, ...patch }, { instance, signal }) => instance.updateMockRule(id, patch, signal),
  mcpResult: ({ rule, config }) => ({ rule: summarizeRule(rule, config), ...summarizeState(config) }),
});

export const removeMockRule = tool({
  name: 'network_remove_mock_rule',
  describeChange: ({ id }) => `Removes the mock rule ${id}; matching requests reach the network again.`,
  title: 'Remove a mock rule',
  description: `Removes a rule. ${mockNote}`,
  input: z.object({ id: z.string().min(1).describe('The rule id.') }),
  output: MockRuleRemovedSummarySchema,
  annotations: { ...change, destructiveHint: true, idempotentHint: false },
  handler: async ({ id }, { instance, signal }) => ({ config: await instance.removeMockRule(id, signal), removed: id }),
  mcpResult: ({ config, removed }) => ({ removed, ...summarizeState(config) }),
});

export const setMockRules = tool({
  name: 'network_set_mock_rules',
  describeChange: ({ rules }) =>
    rules.length === 0
      ? 'Removes every mock rule of the app.'
      : `Replaces every mock rule of the app with ${rules.length}: ${rules.map((r) => describeRule(r)).join('; ')}.`,
  title: 'Replace all mock rules',
  description: `Replaces the whole rule list, in order (the first enabled match wins); [] removes every rule. ${mockNote}`,
  input: z.object({
    rules: z
      .array(briefSchema(MockRuleWithOptionalIdSchema, 'A rule as network_add_mock_rule takes it; an id keeps its id.'))
      .max(500),
  }),
  output: MockRulesSummarySchema,
  annotations: { ...change, destructiveHint: true, idempotentHint: true },
  handler: async ({ rules }, { instance, signal }) => ({ config: await instance.setMockRules(rules, signal) }),
  mcpResult: ({ config }) => ({ rules: config.rules.map((r) => summarizeRule(r, config)), ...summarizeState(config) }),
});

export const setMockingEnabled = tool({
  name: 'network_set_mocking_enabled',
  describeChange: ({ enabled }) =>
    enabled
      ? 'Turns mocking on: the enabled mock rules answer again.'
      : 'Turns mocking off: the app gets real answers.',
  title: 'Turn mocking on or off',
  description: `Turns all mock rules on or off, keeping them; off, the app gets real answers. ${mockNote}`,
  input: z.object({ enabled: z.boolean() }),
  output: MockStateSummarySchema,
  annotations: { ...change, destructiveHint: false, idempotentHint: true },
  handler: async ({ enabled }, { instance, signal }) => ({
    config: await instance.setMockingEnabled(enabled, signal),
  }),
  mcpResult: ({ config }) => summarizeState(config),
});

export const exportHar = tool({
  name: 'network_export_har',
  worksWhenDisconnected: true,
  title: 'Export requests as HAR',
  description: `The session's requests matching the filters as a HAR 1.2 log (oldest first) for browser devtools and HAR viewers. Raise maxEntries and maxBodyChars for a whole-session export.`,
  input: TransactionFilterSchema.extend({
    maxEntries: z.number().int().min(1).max(5000).default(5).describe('Most entries; the newest are kept.'),
    maxBodyChars: z.number().int().min(0).max(5_000_000).default(500).describe('Longest body kept per entry.'),
  }),
  output: HarSchema,
  annotations: readOnly,
  handler({ maxEntries, maxBodyChars, ...filter }, ctx) {
    const transactions = ctx.instance
      .transactions(filter, urlFor(ctx))
      .slice(-maxEntries)
      .map((found) => {
        const tx = forSurface(found, ctx);
        const cut = (body: Body | undefined) => {
          const limited = limitBody(body, maxBodyChars);
          return limited?.truncatedForOutput ? { ...limited, truncated: true } : body;
        };
        return {
          ...tx,
          request: { ...tx.request, body: cut(tx.request.body) },
          response: tx.response && { ...tx.response, body: cut(tx.response.body) },
        };
      });
    return ctx.instance.exportHar(undefined, transactions) as z.input<typeof HarSchema>;
  },
});

export const importHar = tool({
  name: 'network_import_har',
  describeChange: ({ source }) =>
    `Adds the requests of a HAR file${source ? ` (${source})` : ''} to the session, marked as imported.`,
  title: 'Import a HAR file',
  description: `Adds the requests of a HAR 1.2 log (as JSON text or an object) to the session, marked as imported, so they can be listed, read and exported like captured ones.`,
  input: z.object({
    har: z.union([z.string(), z.record(z.string(), z.unknown())]).describe('The HAR file: its JSON text or object.'),
    source: z.string().max(500).optional().describe('Where it came from (a file name), shown beside the requests.'),
  }),
  output: z.object({ imported: z.number().int() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler({ har, source }, { instance }) {
    try {
      return instance.importHar(har, source);
    } catch (e) {
      if ((e as Error).name === 'HarImportError') throw new ToolArgumentError((e as Error).message);
      throw e;
    }
  },
});

export const networkTools = [
  listTransactions,
  getTransaction,
  clearTransactions,
  getMockConfig,
  addMockRule,
  updateMockRule,
  removeMockRule,
  setMockRules,
  setMockingEnabled,
  exportHar,
  importHar,
] as const;
