import { z } from 'zod';
import { SinceLoadSchema } from '../../shared/load-filter.js';
import { definePluginProtocol } from '../../shared/plugin-protocol.js';
import { SECRET_KEY_NAMES, SECRET_VALUE_PATTERNS } from '../../shared/redaction.js';
import { compileRegex } from '../../shared/safe-regex.js';
import { MAX_BODY_BYTES_LIMIT, NETWORK_PROTOCOL_ID, NETWORK_PROTOCOL_VERSION } from './constants.js';
import { HarSchema } from './har-schema.js';

export { compileRegex, globToRegExp } from '../../shared/safe-regex.js';
export * from './constants.js';

/** Added to the advice when a mock rule's regex cannot be run safely. */
export const MOCK_REGEX_HINT = 'or use kind "glob" or "contains"';

// The network plugin's one source of truth: what its agent part sends, what its host part keeps,
// what the MCP tools, the HAR export and the panel read. Everything here is plain JSON.

const MAX_URL = 65_536;
/** The initiator's stack as the agent sends it: a few frames. */
const MAX_CALL_STACK = 4096;
const id = z.string().min(1).max(128);

// ─── Captured traffic ────────────────────────────────────────────────────────

/** Headers as a list, so repeated headers (set-cookie) keep their order and count. */
export const HeaderSchema = z.object({ name: z.string().max(1024), value: z.string().max(65_536) });
export type Header = z.infer<typeof HeaderSchema>;
export const HeadersSchema = z.array(HeaderSchema).max(1000);

/**
 * A captured body. Text is kept as text; anything else as base64. `size` is the bytes captured,
 * `totalSize` the whole body's size when known; `truncated` says the capture stopped at the cap.
 */
export const BodySchema = z.object({
  encoding: z.enum(['text', 'base64']),
  data: z.string(),
  size: z.number().int().nonnegative(),
  totalSize: z.number().int().nonnegative().optional(),
  truncated: z.boolean(),
  contentType: z.string().max(1024).optional(),
  /** The bytes are still in this Content-Encoding (one the inspector could not undo), as base64. */
  coding: z.string().max(64).optional(),
});
export type Body = z.infer<typeof BodySchema>;

/**
 * What issued the request in the app: `fetch`, `xhr`, `http` (Node's http/https and every client
 * built on it), `undici` (undici's own request/stream/dispatch), `http2` (node:http2, gRPC),
 * `websocket` (a WebSocket: a page's, Node's own, the ws package's), `eventsource` (EventSource),
 * `beacon` (navigator.sendBeacon); `har` when a HAR file did not say.
 */
export const InitiatorSchema = z.enum([
  'fetch',
  'xhr',
  'http',
  'undici',
  'har',
  'http2',
  'websocket',
  'eventsource',
  'beacon',
]);
export type Initiator = z.infer<typeof InitiatorSchema>;

export const MockMarkSchema = z.object({ ruleId: id, ruleName: z.string().max(200).optional() });
export type MockMark = z.infer<typeof MockMarkSchema>;

/** agent → host: a request left the app (or was answered by a mock rule). */
export const TransactionStartedSchema = z.object({
  id,
  initiator: InitiatorSchema,
  method: z.string().min(1).max(32),
  url: z.string().min(1).max(MAX_URL),
  headers: HeadersSchema,
  body: BodySchema.optional(),
  /** The app's clock, ms since the epoch. */
  startedAt: z.number(),
  mock: MockMarkSchema.optional(),
  /** The inspector asked the app to send this request again: the id of the transaction it repeats. */
  replayOf: id.optional(),
  /** Not mocked, and sent before this run of the app had any mock rules (the live ones were on the way). */
  beforeRules: z.literal(true).optional(),
  /** Where the app made it: the top frames of its stack (V8 engines), one per line. */
  callStack: z.string().max(MAX_CALL_STACK).optional(),
});
export type TransactionStarted = z.infer<typeof TransactionStartedSchema>;

/**
 * agent → host, optional: the request as it went out, once it was sent whole. `headers` are the
 * headers on the wire where the runtime shows them (Node: host, connection, content-length, …) and
 * replace the ones `started` gave; `body` is the body the app wrote.
 */
export const RequestSentSchema = z.object({
  id,
  headers: HeadersSchema.optional(),
  body: BodySchema.optional(),
});
export type RequestSent = z.infer<typeof RequestSentSchema>;

const HttpVersion = z.string().max(16);
const RemoteAddress = z.string().max(64);

/** agent → host: the response's status line and headers arrived. */
export const ResponseStartedSchema = z.object({
  id,
  status: z.number().int().min(0).max(999),
  statusText: z.string().max(1024),
  headers: HeadersSchema,
  /** Time from the start of the request to the response headers, ms. */
  waitMs: z.number().nonnegative(),
  /** "1.1", "2", … when the runtime says. */
  httpVersion: HttpVersion.optional(),
  /** The server's IP address and port, where the runtime shows them (Node). */
  remoteAddress: RemoteAddress.optional(),
  remotePort: z.number().int().min(0).max(65_535).optional(),
  /** The browser followed redirects (its hops are invisible to JavaScript); `url` is the final URL. */
  redirected: z.boolean().optional(),
  url: z.string().max(MAX_URL).optional(),
  /** The request was answered by this mock rule. */
  mock: MockMarkSchema.optional(),
});
export type ResponseStarted = z.infer<typeof ResponseStartedSchema>;

/** How a WebSocket closed: its close code and reason, and whether the closing handshake completed. */
export const SocketCloseSchema = z.object({
  code: z.number().int().min(0).max(65_535),
  reason: z.string().max(1024),
  wasClean: z.boolean().optional(),
});
export type SocketClose = z.infer<typeof SocketCloseSchema>;

/** agent → host: the response body ended (or its capture stopped at the cap); a WebSocket closed. */
export const TransactionCompletedSchema = z.object({
  id,
  /** The body as the app's code got it: decoded from Content-Encoding (gzip, br, deflate). */
  body: BodySchema.optional(),
  /** Bytes of the body on the wire, before Content-Encoding was undone, where the runtime shows them. */
  encodedSize: z.number().int().nonnegative().optional(),
  /** Time from the start of the request to the end of the response, ms. */
  durationMs: z.number().nonnegative(),
  close: SocketCloseSchema.optional(),
  /** HTTP/2 trailers (gRPC: grpc-status, grpc-message). */
  trailers: HeadersSchema.optional(),
});
export type TransactionCompleted = z.infer<typeof TransactionCompletedSchema>;

/** agent → host: the request failed (connection refused, aborted, mocked network error, …). */
export const TransactionFailedSchema = z.object({
  id,
  message: z.string().max(4096),
  /** A system error code when there is one (ECONNREFUSED, ENOTFOUND, …). */
  code: z.string().max(64).optional(),
  durationMs: z.number().nonnegative(),
  /** The failure was a timeout (the app's, the client's or the runtime's). */
  timedOut: z.boolean().optional(),
  /** A mock rule answered with this network error. */
  mock: MockMarkSchema.optional(),
  /** The part of the response body read before it failed (the app cancelled it, the connection reset). */
  body: BodySchema.optional(),
  close: SocketCloseSchema.optional(),
  /** Not a failure: how it ended cannot be known (a beacon's answer); `message` says why. */
  unknown: z.boolean().optional(),
});
export type TransactionFailed = z.infer<typeof TransactionFailedSchema>;

const MAX_MESSAGE_CHARS = 2 * 1024 * 1024;

/**
 * One message of a WebSocket, or one event of an event stream (SSE), as the app sent or got it.
 * `size` is the whole message's bytes; `data` is what was kept of it (text, or base64 of binary).
 */
export const SocketMessageSchema = z.object({
  direction: z.enum(['sent', 'received']),
  /** The app's clock, ms since the epoch. */
  time: z.number(),
  /** The WebSocket opcode: 1 text, 2 binary, 9 ping, 10 pong. Absent for an event stream's events. */
  opcode: z.number().int().min(0).max(15).optional(),
  size: z.number().int().nonnegative(),
  encoding: z.enum(['text', 'base64']),
  data: z.string().max(MAX_MESSAGE_CHARS),
  /** `data` is the start of the message: the app's agent keeps at most `maxMessageBytes` of each. */
  truncated: z.boolean().optional(),
  /** An event stream's `event:` (absent: "message") and `id:`. */
  event: z.string().max(1024).optional(),
  eventId: z.string().max(1024).optional(),
});
export type SocketMessageIn = z.infer<typeof SocketMessageSchema>;

/** agent → host: messages of an open WebSocket (or EventSource), in the order the app saw them. */
export const MessagesSchema = z.object({ id, messages: z.array(SocketMessageSchema).max(1000) });
export type Messages = z.infer<typeof MessagesSchema>;

/**
 * agent → host: bytes of a response body that has not ended yet (a stream), as they arrived. The
 * inspector adds them to the body it shows and reads an event stream's events from them.
 */
export const BodyChunkSchema = z.object({
  id,
  /** The app's clock when they arrived, ms since the epoch. */
  time: z.number(),
  encoding: z.enum(['text', 'base64']),
  data: z.string().max(MAX_MESSAGE_CHARS),
  /** The bytes as they came over the wire, still Content-Encoded (Node): the inspector decodes them. */
  encoded: z.boolean().optional(),
});
export type BodyChunk = z.infer<typeof BodyChunkSchema>;

export const RedactionScopeSchema = z.enum(['all', 'mcp']);
export type RedactionScope = z.infer<typeof RedactionScopeSchema>;

/**
 * agent → host, on every connection: how the agent captures. With scope `mcp`, the agent sends
 * these headers' real values and the host hides them from MCP callers only.
 */
export const AgentInfoSchema = z.object({
  interceptors: z.array(InitiatorSchema).max(16),
  maxBodyBytes: z.number().int().positive(),
  /** What the agent keeps of each WebSocket message (the inspector keeps as much of each event). */
  maxMessageBytes: z.number().int().positive().optional(),
  redaction: z.object({ headers: z.array(z.string().max(200)).max(200), scope: RedactionScopeSchema }),
});
export type AgentInfo = z.infer<typeof AgentInfoSchema>;

/**
 * A GraphQL operation, read from the request (a POST's JSON, a GET's `query=`, a persisted query's
 * hash); `errors` counts the `errors` of an answer, which make the request a failure.
 */
export const GraphqlSchema = z.object({
  /** Absent for a persisted query POSTed by its hash alone (the text is on the server). */
  type: z.enum(['query', 'mutation', 'subscription']).optional(),
  /** The operation's name (`operationName`, or the document's); several, comma-separated, for a batch. */
  name: z.string().optional(),
  /** A persisted query's sha256 hash (extensions.persistedQuery). */
  hash: z.string().optional(),
  /** Operations in a batched request, when more than one. */
  batch: z.number().int().optional(),
  errors: z.number().int().optional(),
});
export type Graphql = z.infer<typeof GraphqlSchema>;

/**
 * Where a transaction stands: `pending` until it ends (a WebSocket or a stream while open),
 * `complete`, `failed` (no response, or it broke off), `unknown` (the app went away before it ended,
 * or the page cannot see how it ended, as for a beacon; `error.message` says which).
 */
/** A gRPC answer's status (grpc-status, grpc-message), from its trailers or a trailers-only answer's headers. */
export const GrpcSchema = z.object({ status: z.number().int(), message: z.string().optional() });
export type Grpc = z.infer<typeof GrpcSchema>;

export const TransactionStateSchema = z.enum(['pending', 'complete', 'failed', 'unknown']);

/** One request/response as the host keeps it, complete or not. */
export const TransactionSchema = z.object({
  id,
  /** The host's arrival order; cursors are built on it. */
  seq: z.number().int().nonnegative(),
  state: TransactionStateSchema,
  initiator: InitiatorSchema,
  request: z.object({
    method: z.string(),
    url: z.string(),
    headers: HeadersSchema,
    body: BodySchema.optional(),
  }),
  response: z
    .object({
      status: z.number().int(),
      statusText: z.string(),
      headers: HeadersSchema,
      body: BodySchema.optional(),
      httpVersion: z.string().optional(),
      /** Body bytes on the wire (before Content-Encoding was undone). */
      encodedSize: z.number().int().optional(),
      redirected: z.boolean().optional(),
      /** The final URL after redirects the runtime followed out of the agent's sight (browsers). */
      url: z.string().optional(),
      /** HTTP/2 trailers, after the body (gRPC: grpc-status, grpc-message). */
      trailers: HeadersSchema.optional(),
    })
    .optional(),
  error: z.object({ message: z.string(), code: z.string().optional(), timedOut: z.boolean().optional() }).optional(),
  /** The server's address, where the runtime shows it. */
  remoteAddress: z.string().optional(),
  remotePort: z.number().int().optional(),
  timing: z.object({
    startedAt: z.number(),
    waitMs: z.number().optional(),
    durationMs: z.number().optional(),
    /** Connection phases in ms (HAR timings), when known; -1 or absent when not. */
    phases: z
      .object({
        blocked: z.number().optional(),
        dns: z.number().optional(),
        connect: z.number().optional(),
        ssl: z.number().optional(),
        send: z.number().optional(),
      })
      .optional(),
  }),
  mock: MockMarkSchema.optional(),
  /** Header names whose values are hidden from MCP callers (redaction scope `mcp`). */
  sensitiveHeaders: z.array(z.string()).optional(),
  /** Set on transactions read from a HAR file rather than captured live. */
  imported: z.object({ source: z.string(), at: z.number() }).optional(),
  /** A replay (network_replay_request, the window's Replay): the id of the transaction it repeats. */
  replayOf: z.string().optional(),
  /** The app's load (page load, process start) it was sent in: the session's load number. */
  load: z.number().int().optional(),
  /** Sent before this load of the app had its mock rules while the inspector had rules on: maybe not mocked as it should. */
  beforeRules: z.literal(true).optional(),
  /** A WebSocket's or event stream's messages: how many each way, and how many were not kept. */
  messages: z.object({ sent: z.number().int(), received: z.number().int(), dropped: z.number().int() }).optional(),
  /** How a WebSocket closed. */
  close: SocketCloseSchema.optional(),
  graphql: GraphqlSchema.optional(),
  grpc: GrpcSchema.optional(),
  /** Where the app made it (the initiator's call stack, top frames), when the agent could tell. */
  callStack: z.string().optional(),
});
export type Transaction = z.infer<typeof TransactionSchema>;
export type TransactionState = z.infer<typeof TransactionStateSchema>;

/** What lists show: no headers, no bodies. */
export const TransactionSummarySchema = z.object({
  id,
  seq: z.number().int(),
  state: TransactionSchema.shape.state,
  initiator: InitiatorSchema,
  method: z.string(),
  url: z.string(),
  status: z.number().int().optional(),
  startedAt: z.number(),
  durationMs: z.number().optional(),
  requestSize: z.number().int().optional(),
  responseSize: z.number().int().optional(),
  responseType: z.string().optional(),
  mockRuleId: z.string().optional(),
  error: z.string().optional(),
  imported: z.boolean().optional(),
  httpVersion: z.string().optional(),
  remoteAddress: z.string().optional(),
  replayOf: z.string().optional(),
  load: z.number().int().optional(),
  beforeRules: z.literal(true).optional(),
  /** Messages of a WebSocket or event stream, both ways, kept or not. */
  messages: z.number().int().optional(),
  graphql: GraphqlSchema.optional(),
  grpc: GrpcSchema.optional(),
  /** The initiator's top frame, `function (file:line:col)` as the engine wrote it. */
  callSite: z.string().optional(),
});
export type TransactionSummary = z.infer<typeof TransactionSummarySchema>;

/**
 * What "failed" means in the window (is:failed), the tools (failedOnly) and the timeline: no response
 * or it broke off, an HTTP 4xx/5xx answer, a GraphQL answer with errors, or a gRPC status other than 0.
 */
export function isFailure(
  state: TransactionState,
  status: number | undefined,
  graphql?: Graphql,
  grpc?: Grpc,
): boolean {
  return (
    state === 'failed' ||
    (status !== undefined && status >= 400) ||
    (graphql?.errors ?? 0) > 0 ||
    (grpc !== undefined && grpc.status !== 0)
  );
}

/** Filters shared by the list tool, the HAR export and the panel. All optional; they combine with AND. */
export const TransactionFilterSchema = z.object({
  urlContains: z.string().max(4096).optional().describe('Only URLs containing this text (case-insensitive).'),
  method: z.string().max(32).optional().describe('Only this HTTP method, e.g. GET.'),
  status: z
    .union([
      z.number().int().min(0).max(999),
      z
        .object({ min: z.number().int().min(0).max(999), max: z.number().int().min(0).max(999) })
        .refine((r) => r.min <= r.max, 'min must not exceed max'),
    ])
    .optional()
    .describe('A status (404) or an inclusive range ({ min: 500, max: 599 }).'),
  failedOnly: z
    .boolean()
    .optional()
    .describe('Only failures: no response, HTTP 4xx/5xx, or a GraphQL answer with errors.'),
  graphql: z
    .string()
    .max(200)
    .optional()
    .describe('Only GraphQL operations with this name, or of this type (query, mutation, subscription).'),
  mockedOnly: z.boolean().optional().describe('Only requests answered by a mock rule.'),
  since: z.number().optional().describe('Started at or after (ms since the epoch).'),
  until: z.number().optional().describe('Started at or before (ms since the epoch).'),
  sinceLoad: SinceLoadSchema,
});
export type TransactionFilter = z.infer<typeof TransactionFilterSchema>;

// ─── What the agent sees ─────────────────────────────────────────────────────

const RuleName = z.string().trim().min(1).max(200);
const RedactionPatternSchema = z
  .string()
  .min(1)
  .max(1000)
  .superRefine((pattern, ctx) => {
    try {
      compileRegex(pattern);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: (e as Error).message });
    }
  });

/**
 * The window's redaction rules, per app: what MCP results and exports hide (the window shows
 * everything). Names compare as shared/redaction.ts compares them (ignoring case, `-`, `_` and
 * spaces). A body field is a key at any depth (`password`) or
 * a dotted path from the root (`user.credentials.token`); patterns are RE2 regexes (inline flags
 * such as `(?i)`) whose matches are replaced in URLs, header values and text bodies.
 */
export const RedactionRulesSchema = z.object({
  headers: z.array(RuleName).max(200),
  query: z.array(RuleName).max(200),
  bodyFields: z.array(RuleName).max(200),
  patterns: z.array(RedactionPatternSchema).max(100),
});
export type RedactionRules = z.infer<typeof RedactionRulesSchema>;
export type RedactionKind = keyof RedactionRules;

/** The inspector's one list of secret names and token shapes (shared/redaction.ts), as rules. */
export const DEFAULT_REDACTION_RULES: RedactionRules = {
  headers: [...SECRET_KEY_NAMES],
  query: [...SECRET_KEY_NAMES],
  bodyFields: [...SECRET_KEY_NAMES],
  patterns: SECRET_VALUE_PATTERNS.map((p) => p.pattern),
};

/** What `agentView` answers: the rules in force and network_get_transaction's structuredContent for an MCP client. */
export const AgentViewSchema = z.object({
  rules: RedactionRulesSchema,
  /** Exactly what an MCP client receives (the tool's own projection), kept whole. */
  result: z.record(z.string(), z.unknown()),
});
export type AgentView = z.infer<typeof AgentViewSchema>;

// ─── Mock rules ──────────────────────────────────────────────────────────────

const UrlMatchSchema = z
  .object({
    kind: z.enum(['contains', 'exact', 'regex', 'glob']).describe('How `value` is compared with the full URL.'),
    value: z.string().min(1).max(4096),
    /** Regex flags, e.g. "i". Only for kind `regex`. */
    flags: z
      .string()
      .regex(/^[dgimsuvy]*$/, 'flags are letters among d g i m s u v y')
      .refine((flags) => new Set(flags).size === flags.length, 'each flag at most once, e.g. "i" or "gi"')
      .max(8)
      .optional(),
  })
  .superRefine((m, ctx) => {
    if (m.kind !== 'regex') return;
    try {
      compileRegex(m.value, m.flags, MOCK_REGEX_HINT);
    } catch (e) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: (e as Error).message });
    }
  });

const NameValueConditionSchema = z
  .object({
    name: z.string().min(1).max(200),
    equals: z.string().max(4096).optional(),
    contains: z.string().max(4096).optional(),
  })
  .describe('Must be present; with equals or contains, its value must match.');

export const MockMatchSchema = z.object({
  method: z.string().min(1).max(32).optional().describe('HTTP method, case-insensitive; omitted or "*" for any.'),
  url: UrlMatchSchema,
  headers: z.array(NameValueConditionSchema).max(32).optional(),
  query: z.array(NameValueConditionSchema).max(32).optional(),
  bodyContains: z.string().max(4096).optional().describe('The request body (as text) must contain this.'),
  graphql: z.string().min(1).max(200).optional().describe('A GraphQL operation name (POST body or query=).'),
});
export type MockMatch = z.infer<typeof MockMatchSchema>;

export const MockBodySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('json'), json: z.unknown() }),
  z.object({
    type: z.literal('base64'),
    // A pattern, not z.base64(): JSON Schema validators in MCP clients do not know a "base64" format.
    base64: z.string().regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'must be base64'),
  }),
]);
export type MockBody = z.infer<typeof MockBodySchema>;

const delayMs = z.number().int().min(0).max(120_000).optional().describe('Wait this long before answering.');
const after = z.number().int().min(0).max(120_000).optional();

/** A scripted server message for a mocked WebSocket: text, or base64 of binary. */
export const MockSocketMessageSchema = z.object({
  data: z.string().max(1024 * 1024),
  base64: z.boolean().optional(),
  delayMs: after,
});
export type MockSocketMessage = z.infer<typeof MockSocketMessageSchema>;

export const MockActionSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('respond'),
    status: z.number().int().min(200).max(599),
    statusText: z.string().max(200).optional(),
    headers: z.record(z.string().min(1).max(200), z.string().max(8192)).optional(),
    body: MockBodySchema.optional(),
    trailers: z
      .record(z.string().min(1).max(200), z.string().max(8192))
      .optional()
      .describe('node:http2 only: sent after the body (gRPC: grpc-status, grpc-message).'),
    delayMs,
    bytesPerSecond: z.number().int().min(1).optional().describe('Send the body this slowly.'),
    cut: z
      .object({ afterBytes: z.number().int().min(0), end: z.enum(['stall', 'reset']) })
      .optional()
      .describe('Stop the body part-way, then hang or reset (ECONNRESET).'),
  }),
  z.object({
    type: z.literal('networkError'),
    message: z.string().max(1000).optional(),
    code: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]{0,31}$/)
      .optional()
      .describe('e.g. ECONNRESET, ETIMEDOUT'),
    delayMs,
  }),
  z
    .object({
      type: z.literal('websocket'),
      messages: z.array(MockSocketMessageSchema).max(1000).optional(),
      close: z
        .object({
          code: z.number().int().min(1000).max(4999).optional(),
          reason: z.string().max(123).optional(),
          delayMs: after,
        })
        .optional(),
      delayMs,
    })
    .describe('A ws(s) URL: open, send messages (delayMs after the last), then close.'),
]);
export type MockAction = z.infer<typeof MockActionSchema>;

/** A mock rule as a caller writes it; the host gives it its id. */
export const MockRuleInputSchema = z.object({
  name: z.string().max(200).optional(),
  enabled: z.boolean().default(true),
  match: MockMatchSchema,
  action: MockActionSchema,
});
export type MockRuleInput = z.input<typeof MockRuleInputSchema>;

export const MockRuleSchema = MockRuleInputSchema.extend({ id });
export type MockRule = z.infer<typeof MockRuleSchema>;

/** The whole mock configuration of an app, as persisted by the host and pushed to the agent. */
export const MockConfigSchema = z.object({
  /** Raised on every committed change. */
  revision: z.number().int().nonnegative(),
  enabled: z.boolean(),
  rules: z.array(MockRuleSchema).max(500),
});
export type MockConfig = z.infer<typeof MockConfigSchema>;

/** Where the debuggee stands with the host's mock config. */
export const MockSyncSchema = z.object({
  /** For the app's current load: `pending` while it is connected and has not acknowledged the rules yet. */
  state: z.enum(['applied', 'pending', 'failed', 'not-connected']),
  /** The revision the debuggee acknowledged last. */
  appliedRevision: z.number().int().optional(),
  error: z.string().optional(),
  /** The app's load (the session's load number) this state is about. */
  load: z.number().int().optional(),
  /** Requests of this load sent before the app had the rules, not mocked (marked `beforeRules`). */
  missed: z.number().int().optional(),
});
export type MockSync = z.infer<typeof MockSyncSchema>;

/** The mock config as tools and the panel see it: with hit counts (this session) and sync state. */
export const MockConfigViewSchema = MockConfigSchema.extend({
  hits: z.record(z.string(), z.number().int()),
  sync: MockSyncSchema,
  /** The saved rules were not all valid when this session read them: what was kept, dropped and why. */
  repaired: z
    .object({
      kept: z.number().int(),
      dropped: z.array(
        z.object({
          /** Position in the saved file (-1: the rules list itself). */
          index: z.number().int(),
          id: z.string().optional(),
          name: z.string().optional(),
          reason: z.string(),
        }),
      ),
      /** The invalid file, kept beside the repaired one. */
      backup: z.string().optional(),
    })
    .optional(),
});
export type MockConfigView = z.infer<typeof MockConfigViewSchema>;

// ─── What the host answers (MCP tools and the panel) ──────────────────────────

export const SortOrderSchema = z.enum(['newest', 'oldest']).describe('Which come first.');

export const PageQuerySchema = z.object({
  filter: TransactionFilterSchema.optional(),
  limit: z.number().int().min(1).max(5000).default(50),
  cursor: z.string().max(64).optional(),
  order: SortOrderSchema.default('newest'),
});

export const TransactionPageSchema = z.object({
  transactions: z.array(TransactionSummarySchema),
  /** Pass it back as `cursor` for the next page; absent on the last page. */
  nextCursor: z.string().optional(),
  /** Transactions matching the filter, over all pages. */
  total: z.number().int(),
  /** Matching transactions after this page (0 on the last page). */
  remaining: z.number().int(),
});
export type TransactionPage = z.infer<typeof TransactionPageSchema>;

export const StoreStatsSchema = z.object({
  count: z.number().int(),
  pending: z.number().int(),
  bodyChars: z.number().int(),
  /** Estimated bytes the session's transactions hold. */
  bytes: z.number().int(),
  /** Dropped to stay within the limits (the session's or the inspector's memory budget) since the session began. */
  dropped: z.number().int(),
  /** Estimated bytes of the dropped transactions. */
  droppedBytes: z.number().int(),
  /** Agent notifications about transactions the store does not have. */
  orphans: z.number().int(),
  limits: z.object({
    maxTransactions: z.number().int(),
    maxBodyChars: z.number().int(),
    maxBytes: z.number().int(),
  }),
});
export type StoreStats = z.infer<typeof StoreStatsSchema>;

export const MockRuleChangeSchema = z.object({ rule: MockRuleSchema, config: MockConfigViewSchema });
/** A mock rule in one line each for match and answer: what a change tool tells an MCP caller. */
export const MockRuleSummarySchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  enabled: z.boolean(),
  match: z.string().describe('e.g. GET glob https://host/api/* header x-a=1'),
  action: z.string().describe('e.g. respond 500 json after 100 ms'),
  hits: z.number().int().describe('Requests it answered in this session.'),
});
export type MockRuleSummary = z.infer<typeof MockRuleSummarySchema>;

/** What a mock change tool answers over MCP, besides what changed: where the config stands. */
export const MockStateSummarySchema = z.object({
  revision: z.number().int(),
  enabled: z.boolean().describe('Whether mocking is on.'),
  ruleCount: z.number().int(),
  sync: MockSyncSchema,
});
export type MockStateSummary = z.infer<typeof MockStateSummarySchema>;

export const MockRulePatchSchema = MockRuleInputSchema.partial().extend({ enabled: z.boolean().optional() });
export type MockRulePatch = z.input<typeof MockRulePatchSchema>;
/** A rule for setMockRules: its id is kept when given, made when not. */
export const MockRuleWithOptionalIdSchema = MockRuleInputSchema.extend({ id: id.optional() });
export type MockRuleWithOptionalId = z.input<typeof MockRuleWithOptionalIdSchema>;

export const SnippetsSchema = z.object({ curl: z.string(), fetch: z.string() });

/** One HAR 1.2 entry (what "Copy as HAR" puts on the clipboard). */
export const HarEntrySchema = HarSchema.shape.log.shape.entries.element;

/** Where a search hit is. */
export const SearchPlaceSchema = z.enum(['url', 'requestHeaders', 'requestBody', 'responseHeaders', 'responseBody']);
export type SearchPlace = z.infer<typeof SearchPlaceSchema>;

/** The panel's search in headers and bodies (request and response), run where the bodies are. */
export const SearchQuerySchema = z.object({
  text: z.string().min(1).max(1000),
  /** `text` is a regular expression (JavaScript syntax). */
  regex: z.boolean().default(false),
  caseSensitive: z.boolean().default(false),
});
export type SearchQuery = z.input<typeof SearchQuerySchema>;

export const SearchResultSchema = z.object({
  hits: z.array(z.object({ id, places: z.array(SearchPlaceSchema) })),
  /** Transactions looked at. */
  searched: z.number().int(),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;

// ─── Replay ──────────────────────────────────────────────────────────────────

/** Longest body text a replay may send: it travels to the app in one link frame. */
export const MAX_REPLAY_BODY_CHARS = MAX_BODY_BYTES_LIMIT;

/** A replay as a caller asks for it: the transaction to send again and, optionally, what to change. */
export const ReplayRequestSchema = z.object({
  id: id.describe('From network_list_transactions.'),
  method: z
    .string()
    .refine((m) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/.test(m), 'an HTTP method is one word such as GET or POST')
    .optional()
    .describe('Another method, e.g. PUT.'),
  url: z.string().min(1).max(MAX_URL).optional().describe('Another absolute http(s) URL.'),
  headers: z
    .record(z.string().min(1).max(1024), z.string().max(65_536).nullable())
    .optional()
    .describe('Headers to set (replacing that name) or, with null, remove; the rest go as captured.'),
  body: z.string().max(MAX_REPLAY_BODY_CHARS).optional().describe('The body text instead; "" sends none.'),
});
export type ReplayRequest = z.infer<typeof ReplayRequestSchema>;

/** host → agent: the request to send, built by the host from the stored transaction and the edits. */
export const ReplaySendSchema = z.object({
  replayOf: id,
  method: z.string().min(1).max(32),
  url: z.string().min(1).max(MAX_URL),
  headers: HeadersSchema,
  body: z.object({ encoding: z.enum(['text', 'base64']), data: z.string() }).optional(),
});
export type ReplaySend = z.infer<typeof ReplaySendSchema>;

/**
 * A header the app did not send: the runtime sets it itself (host, content-length, a browser's
 * cookie and origin, …), or its value was redacted in the app and never reached the inspector.
 */
export const SkippedHeaderSchema = z.object({
  name: z.string().max(1024),
  reason: z.enum(['set-by-runtime', 'redacted']),
});
export type SkippedHeader = z.infer<typeof SkippedHeaderSchema>;

/** agent → host: the replay went out (and what came back first). */
export const ReplaySentSchema = z.object({
  /** The new transaction; absent when the app does not capture that URL (its ignoreUrls). */
  id: id.optional(),
  status: z.number().int().min(0).max(999).optional(),
  /** The request failed in the app (refused, aborted, …). */
  error: z.string().max(4096).optional(),
  skippedHeaders: z.array(SkippedHeaderSchema).max(1000),
});
export type ReplaySent = z.infer<typeof ReplaySentSchema>;

/** What a replay answers: the new transaction as the inspector has it, and what was not sent. */
export const ReplayResultSchema = z.object({
  replayOf: id,
  transaction: TransactionSummarySchema.optional(),
  skippedHeaders: z.array(SkippedHeaderSchema),
  /** What to know about the outcome and what to do next (still running, not captured, failed). */
  note: z.string().optional(),
});
export type ReplayResult = z.infer<typeof ReplayResultSchema>;

// ─── Messages (WebSocket, event streams) ─────────────────────────────────────

/** A socket.io or engine.io frame read from a message's text (socketio.ts). */
export const SocketIoFrameSchema = z.object({
  engine: z.enum(['open', 'close', 'ping', 'pong', 'message', 'upgrade', 'noop']),
  socket: z.enum(['CONNECT', 'DISCONNECT', 'EVENT', 'ACK', 'CONNECT_ERROR', 'BINARY_EVENT', 'BINARY_ACK']).optional(),
  namespace: z.string().optional(),
  /** An acknowledgement's id. */
  ack: z.number().optional(),
  /** An event's name. */
  event: z.string().optional(),
  /** The packet's JSON: an event's arguments after its name, a handshake, … */
  data: z.unknown().optional(),
  /** Binary attachments, sent in the messages after it. */
  attachments: z.number().optional(),
});
export type SocketIoFrame = z.infer<typeof SocketIoFrameSchema>;

/**
 * A message as the inspector keeps it: `n` is its place in its connection (0 the first); on a
 * socket.io (engine.io) connection, `socketio` is its text's framing, decoded when read.
 */
export const MessageSchema = SocketMessageSchema.extend({
  n: z.number().int().nonnegative(),
  socketio: SocketIoFrameSchema.optional(),
});
export type Message = z.infer<typeof MessageSchema>;

/** Which messages of one connection to list. */
export const MessageQuerySchema = z.object({
  transactionId: id.describe('A WebSocket or event stream, from network_list_transactions.'),
  direction: z.enum(['sent', 'received']).optional().describe('One way only.'),
  since: z.number().optional().describe('At or after (ms since the epoch).'),
  text: z.string().min(1).max(1000).optional().describe('Only messages containing this (case-insensitive).'),
  limit: z.number().int().min(1).max(1000).default(50).describe('Per page.'),
  cursor: z.string().max(64).optional().describe('nextCursor of the previous page.'),
});
export type MessageQuery = z.input<typeof MessageQuerySchema>;

export const MessagePageSchema = z.object({
  messages: z.array(MessageSchema),
  nextCursor: z.string().optional(),
  /** Kept messages matching the query. */
  total: z.number().int(),
  remaining: z.number().int(),
  /** Messages of this connection not kept (the per-connection bound or the memory budget). */
  dropped: z.number().int(),
});
export type MessagePage = z.infer<typeof MessagePageSchema>;

/** A message to hand to the app as if its WebSocket's server had sent it. */
export const InjectMessageSchema = z.object({
  transactionId: id.describe('An open WebSocket, from network_list_transactions.'),
  data: z
    .string()
    .max(1024 * 1024)
    .describe('The message: text, or base64 with base64: true.'),
  base64: z.boolean().optional().describe('data is base64: sent as a binary message.'),
});
export type InjectMessage = z.infer<typeof InjectMessageSchema>;

// ─── Host → window events (ctx.emit) ─────────────────────────────────────────

/** Events the host part publishes for the window, by name. */
export const NetworkEventSchemas = {
  /** A transaction was added or changed (response, completion, failure). */
  transaction: z.object({ change: z.enum(['added', 'updated']), transaction: TransactionSummarySchema }),
  /** The session's transactions were cleared. */
  cleared: z.object({ cleared: z.number().int() }),
  /** The store dropped its oldest transactions to stay within bounds (its own or the memory budget). */
  dropped: z.object({
    count: z.number().int(),
    totalDropped: z.number().int(),
    /** Estimated bytes of all transactions dropped since the session began. */
    totalBytes: z.number().int().optional(),
  }),
  /** The mock config or its sync state changed. */
  'mock-config': MockConfigViewSchema,
  /** A push to the debuggee was refused or unanswered; `error` says why. */
  'mock-sync-failed': z.object({ revision: z.number().int(), error: z.string() }),
  /** Transactions were imported from a HAR file. */
  imported: z.object({ count: z.number().int() }),
  /** The app's redaction rules changed (in this window or another session of the same app). */
  'redaction-rules': RedactionRulesSchema,
} as const;
export type NetworkEventName = keyof typeof NetworkEventSchemas;
export type NetworkEvent<N extends NetworkEventName> = z.infer<(typeof NetworkEventSchemas)[N]>;

// ─── The wire protocol ───────────────────────────────────────────────────────

export const networkProtocol = definePluginProtocol({
  id: NETWORK_PROTOCOL_ID,
  version: NETWORK_PROTOCOL_VERSION,
  toAgent: {
    requests: {
      /** Replaces the agent's whole mock config. The agent acks with the revision it applied, or refuses. */
      setMockConfig: {
        params: MockConfigSchema,
        result: z.object({ revision: z.number().int().nonnegative() }),
      },
      /** Sends a request again from the app itself (its fetch: cookies, origin, network stack). */
      replay: { params: ReplaySendSchema, result: ReplaySentSchema },
      /** Hands a message to the app's open WebSocket as if its server had sent it. */
      inject: {
        params: z.object({ id, data: z.string().max(2 * 1024 * 1024), base64: z.boolean().optional() }),
        result: z.object({ delivered: z.boolean() }),
      },
    },
  },
  toHost: {
    notifications: {
      agentInfo: AgentInfoSchema,
      started: TransactionStartedSchema,
      requestSent: RequestSentSchema,
      response: ResponseStartedSchema,
      completed: TransactionCompletedSchema,
      failed: TransactionFailedSchema,
      messages: MessagesSchema,
      chunk: BodyChunkSchema,
    },
  },
  /** What the panel may ask the host instance of its session (UI plumbing, not MCP tool calls). */
  panel: {
    requests: {
      list: { params: PageQuerySchema, result: TransactionPageSchema },
      get: { params: z.object({ id }), result: z.object({ transaction: TransactionSchema.optional() }) },
      stats: { params: z.object({}), result: StoreStatsSchema },
      clear: { params: z.object({}), result: z.object({ cleared: z.number().int() }) },
      agentInfo: { params: z.object({}), result: z.object({ info: AgentInfoSchema.optional() }) },
      snippets: { params: z.object({ id }), result: SnippetsSchema },
      mockConfig: { params: z.object({}), result: MockConfigViewSchema },
      addMockRule: { params: MockRuleInputSchema, result: MockRuleChangeSchema },
      updateMockRule: { params: z.object({ id, patch: MockRulePatchSchema }), result: MockRuleChangeSchema },
      removeMockRule: { params: z.object({ id }), result: z.object({ config: MockConfigViewSchema }) },
      setMockRules: {
        params: z.object({ rules: z.array(MockRuleWithOptionalIdSchema).max(500) }),
        result: z.object({ config: MockConfigViewSchema }),
      },
      setMockingEnabled: {
        params: z.object({ enabled: z.boolean() }),
        result: z.object({ config: MockConfigViewSchema }),
      },
      exportHar: {
        params: z.object({
          filter: TransactionFilterSchema.optional(),
          /** Only these transactions (what the table shows), in this order. */
          ids: z.array(id).max(200_000).optional(),
        }),
        result: HarSchema,
      },
      /** One transaction as a HAR entry; header values hidden from MCP (redaction scope `mcp`) are redacted, as in exports. */
      harEntry: { params: z.object({ id }), result: HarEntrySchema },
      search: { params: SearchQuerySchema, result: SearchResultSchema },
      /** One transaction as network_get_transaction gives it to an MCP client (after redaction), and the rules. */
      agentView: { params: z.object({ id }), result: AgentViewSchema },
      redactionRules: { params: z.object({}), result: RedactionRulesSchema },
      /** Replaces the app's redaction rules (saved in the data dir); answers with them as saved. */
      setRedactionRules: { params: RedactionRulesSchema, result: RedactionRulesSchema },
      /** Sends a captured request again from the app, optionally edited (as network_replay_request). */
      replay: { params: ReplayRequestSchema, result: ReplayResultSchema },
      /** A page of one connection's messages (as network_list_messages). */
      messages: { params: MessageQuerySchema, result: MessagePageSchema },
      /** Hands a message to the app's open WebSocket (as network_inject_message). */
      inject: { params: InjectMessageSchema, result: z.object({ delivered: z.boolean() }) },
      /** `har` is the file's parsed JSON or its text. */
      importHar: {
        params: z.object({ har: z.unknown(), source: z.string().max(500).optional() }),
        result: z.object({ imported: z.number().int() }),
      },
    },
    events: NetworkEventSchemas,
  },
});
export type NetworkProtocol = typeof networkProtocol;
