import { z } from 'zod';
import { definePluginTool, type PluginToolContext, ToolArgumentError } from '../../../shared/tool.js';
import { ToolResult } from '../../../shared/tool-result.js';
import { HarSchema } from '../har-schema.js';
import { describeAction, describeMatch, describeRule } from '../mock-describe.js';
import {
  type Body,
  MockConfigViewSchema,
  MockRuleChangeSchema,
  MockRuleInputSchema,
  MockRulePatchSchema,
  MockRuleWithOptionalIdSchema,
  SortOrderSchema,
  type Transaction,
  TransactionFilterSchema,
  TransactionPageSchema,
} from '../protocol.js';
import type { NetworkHost } from './host-api.js';
import { unknownTransaction } from './host-api.js';
import { redactSensitive } from './redact.js';
import { toCurl, toFetch } from './snippets.js';
import { CursorError } from './transaction-store.js';

const tool = definePluginTool<NetworkHost>();
type Ctx = PluginToolContext<NetworkHost>;

const readOnly = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Header values the app marked as hidden from MCP (redaction scope `mcp`) are redacted for MCP callers. */
export function forSurface(tx: Transaction, ctx: Pick<Ctx, 'surface'>): Transaction {
  return ctx.surface === 'ui' ? tx : redactSensitive(tx);
}

/** Cuts a body's data to `max` characters for an answer; `truncatedForOutput` says it was cut here. */
export function limitBody(body: Body | undefined, max: number): (Body & { truncatedForOutput?: boolean }) | undefined {
  if (!body || body.data.length <= max) return body;
  const keep = body.encoding === 'base64' ? max - (max % 4) : max;
  return { ...body, data: body.data.slice(0, keep), truncatedForOutput: true };
}

const sessionNote = 'Acts on the one connected app with the network plugin unless sessionId says which.';

export const listTransactions = tool({
  name: 'network_list_transactions',
  worksWhenDisconnected: true,
  title: 'List network requests',
  description: `Lists the HTTP requests the app made (fetch, XMLHttpRequest, http/https), newest first, as summaries: id, method, URL, status, state (pending/complete/failed), duration, sizes, mock rule. Filter by URL text, method, status or status range, failures, mocked requests, time. Pages with cursor (default 25, at most 500 per page; pass nextCursor back as cursor while one is given). Use network_get_transaction for headers and bodies. ${sessionNote}`,
  input: TransactionFilterSchema.extend({
    limit: z.number().int().min(1).max(500).default(25).describe('Summaries per page (1-500, default 25).'),
    cursor: z.string().max(64).optional().describe('The nextCursor of the previous page.'),
    order: SortOrderSchema.default('newest').describe('newest (default) or oldest first.'),
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
  handler({ limit, cursor, order, ...filter }, { instance }) {
    try {
      const page = instance.list({ filter, limit, cursor, order });
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
  description: `One request in full: request and response headers and bodies, timing, failure, mock rule. Bodies are text or base64 (binary), cut to maxBodyChars (truncatedForOutput marks a cut; truncated marks a body the app's capture cap cut). With responseBodyAsImage, an image response (PNG, JPEG, GIF, WebP) comes back as an image. includeSnippets adds cURL and fetch code that repeat the request. ${sessionNote}`,
  input: z.object({
    id: z.string().min(1).describe('The transaction id from network_list_transactions.'),
    maxBodyChars: z
      .number()
      .int()
      .min(0)
      .max(5_000_000)
      .default(20_000)
      .describe('Longest body text returned (default 20000).'),
    responseBodyAsImage: z.boolean().default(false).describe('Return an image response body as image content.'),
    includeSnippets: z.boolean().default(false).describe('Add cURL and fetch snippets for the request.'),
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
  description: `Forgets every captured request of the session (mock rules stay). ${sessionNote}`,
  input: z.object({}),
  output: z.object({ cleared: z.number().int() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: (_args, { instance }) => ({ cleared: instance.clear() }),
});

export const getMockConfig = tool({
  name: 'network_get_mock_config',
  worksWhenDisconnected: true,
  title: 'Get mock rules',
  description: `The app's mock rules (saved per app, applied inside the app: the first enabled match wins), whether mocking is on, how often each rule fired in this session (hits), and whether the app has applied the current rules (sync). ${sessionNote}`,
  input: z.object({}),
  output: MockConfigViewSchema,
  annotations: readOnly,
  handler: (_args, { instance }) => instance.mockConfig(),
});

const mockNote =
  'The rules are pushed to the app and saved only when it acknowledges; if it refuses or does not answer, the call fails with "failed to apply on the debuggee" and nothing changes.';

export const addMockRule = tool({
  name: 'network_add_mock_rule',
  describeChange: (rule) =>
    `Adds a mock rule, so matching requests get this answer inside the app: ${describeRule(rule)}.`,
  title: 'Add a mock rule',
  description: `Adds a rule (last in order) that answers matching requests inside the app instead of the network: match on method, URL (contains, exact, regex, glob with * and ?), and optionally headers, query parameters and body text; answer with status, headers, body (text, json or base64) and an optional delay, or fail with a network error. Example: {"match":{"method":"GET","url":{"kind":"contains","value":"/api/user"}},"action":{"type":"respond","status":500,"body":{"type":"json","json":{"error":"boom"}}}}. ${mockNote} ${sessionNote}`,
  input: MockRuleInputSchema,
  output: MockRuleChangeSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (rule, { instance, signal }) => instance.addMockRule(rule, signal),
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
  description: `Changes the given fields of a rule (name, enabled, match, action); a field given replaces it whole. ${mockNote} ${sessionNote}`,
  input: MockRulePatchSchema.extend({ id: z.string().min(1).describe('The rule id from network_get_mock_config.') }),
  output: MockRuleChangeSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: ({ id, ...patch }, { instance, signal }) => instance.updateMockRule(id, patch, signal),
});

export const removeMockRule = tool({
  name: 'network_remove_mock_rule',
  describeChange: ({ id }) => `Removes the mock rule ${id}; matching requests reach the network again.`,
  title: 'Remove a mock rule',
  description: `Removes a rule. ${mockNote} ${sessionNote}`,
  input: z.object({ id: z.string().min(1).describe('The rule id from network_get_mock_config.') }),
  output: z.object({ config: MockConfigViewSchema }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  handler: async ({ id }, { instance, signal }) => ({ config: await instance.removeMockRule(id, signal) }),
});

export const setMockRules = tool({
  name: 'network_set_mock_rules',
  describeChange: ({ rules }) =>
    rules.length === 0
      ? 'Removes every mock rule of the app.'
      : `Replaces every mock rule of the app with ${rules.length}: ${rules.map((r) => describeRule(r)).join('; ')}.`,
  title: 'Replace all mock rules',
  description: `Replaces the whole rule list, in order (the first enabled match wins); rules keep a given id or get a new one. An empty list removes every rule. ${mockNote} ${sessionNote}`,
  input: z.object({ rules: z.array(MockRuleWithOptionalIdSchema).max(500) }),
  output: z.object({ config: MockConfigViewSchema }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: async ({ rules }, { instance, signal }) => ({ config: await instance.setMockRules(rules, signal) }),
});

export const setMockingEnabled = tool({
  name: 'network_set_mocking_enabled',
  describeChange: ({ enabled }) =>
    enabled
      ? 'Turns mocking on: the enabled mock rules answer again.'
      : 'Turns mocking off: the app gets real answers.',
  title: 'Turn mocking on or off',
  description: `Turns all mock rules on or off at once, keeping them; off, the app gets real answers again. ${mockNote} ${sessionNote}`,
  input: z.object({ enabled: z.boolean() }),
  output: z.object({ config: MockConfigViewSchema }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ enabled }, { instance, signal }) => ({
    config: await instance.setMockingEnabled(enabled, signal),
  }),
});

export const exportHar = tool({
  name: 'network_export_har',
  worksWhenDisconnected: true,
  title: 'Export requests as HAR',
  description: `The session's requests as a HAR 1.2 log (oldest first), those matching the filters, for other tools (browser devtools, HAR viewers). maxEntries keeps the newest (default 5, so an answer fits a context window); bodies are cut to maxBodyChars (default 500). Narrow with the filters, or raise both for a whole-session export. ${sessionNote}`,
  input: TransactionFilterSchema.extend({
    maxEntries: z.number().int().min(1).max(5000).default(5).describe('Most entries (the newest are kept; default 5).'),
    maxBodyChars: z
      .number()
      .int()
      .min(0)
      .max(5_000_000)
      .default(500)
      .describe('Longest body kept per entry (default 500).'),
  }),
  output: HarSchema,
  annotations: readOnly,
  handler({ maxEntries, maxBodyChars, ...filter }, ctx) {
    const transactions = ctx.instance
      .transactions(filter)
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
  description: `Adds the requests of a HAR 1.2 log (as JSON text or an object) to the session, marked as imported, so they can be listed, read and exported like captured ones. ${sessionNote}`,
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
