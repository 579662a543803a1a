import type { Content, Cookie, Entry, Har, PostData, Timings } from 'har-format';
import { z } from 'zod';
import { HarSchema } from '../har-schema.js';
import {
  type Body,
  GraphqlSchema,
  type Header,
  InitiatorSchema,
  type Message,
  MockMarkSchema,
  REDACTED,
  SocketCloseSchema,
  type SocketMessageIn,
  type Transaction,
  TransactionSchema,
} from '../protocol.js';
import { headerValue } from './transaction-store.js';

// HAR 1.2 export and import. Porthole's own details ride in a `_porthole` field per entry
// (custom fields start with "_"), so an export read back loses nothing.

/** What Porthole adds to each entry, read back on import. */
const PortholeEntrySchema = z.object({
  initiator: InitiatorSchema.optional(),
  state: TransactionSchema.shape.state.optional(),
  mock: MockMarkSchema.optional(),
  error: z.object({ message: z.string(), code: z.string().optional(), timedOut: z.boolean().optional() }).optional(),
  redirected: z.boolean().optional(),
  finalUrl: z.string().optional(),
  remotePort: z.number().int().optional(),
  waitMs: z.number().optional(),
  durationMs: z.number().optional(),
  requestBody: z.object({ encoding: z.enum(['text', 'base64']), truncated: z.boolean(), size: z.number() }).optional(),
  responseBody: z.object({ truncated: z.boolean(), size: z.number() }).optional(),
  close: SocketCloseSchema.optional(),
  graphql: GraphqlSchema.optional(),
  /** A connection's message counts (dropped: not kept, so not in the file). */
  messages: TransactionSchema.shape.messages.optional(),
  /** An event stream's events (a WebSocket's messages are in Chrome's `_webSocketMessages`). */
  events: z
    .array(
      z.object({
        time: z.number(),
        data: z.string(),
        event: z.string().optional(),
        id: z.string().optional(),
        size: z.number().optional(),
      }),
    )
    .optional(),
});
type PortholeEntry = z.infer<typeof PortholeEntrySchema>;

export interface HarCreator {
  name: string;
  version: string;
}

/** A HAR 1.2 log of the given transactions, oldest first; `messagesOf` gives a connection's kept messages. */
export function toHar(
  transactions: readonly Transaction[],
  creator: HarCreator,
  comment?: string,
  messagesOf?: (id: string) => Message[],
): Har {
  return {
    log: {
      version: '1.2',
      creator,
      pages: [],
      entries: transactions.map((tx) =>
        toEntry(tx, tx.messages || tx.initiator === 'websocket' ? messagesOf?.(tx.id) : undefined),
      ),
      ...(comment ? { comment } : {}),
    },
  };
}

/** Chrome's `_webSocketMessages`: type, time in seconds, opcode, data (base64 for binary). */
interface HarSocketMessage {
  type: 'send' | 'receive';
  time: number;
  opcode: number;
  data: string;
}

function toEntry(tx: Transaction, messages: Message[] | undefined): Entry {
  const { request, response, timing } = tx;
  const wait = timing.waitMs ?? timing.durationMs ?? 0;
  const duration = timing.durationMs ?? wait;
  const phases = timing.phases ?? {};
  // `wait` is the time to the response headers; the phases before it (ssl is part of connect) come off it.
  const before = (phases.blocked ?? 0) + (phases.dns ?? 0) + (phases.connect ?? 0) + (phases.send ?? 0);
  const timings: Timings = {
    blocked: phases.blocked ?? -1,
    dns: phases.dns ?? -1,
    connect: phases.connect ?? -1,
    ssl: phases.ssl ?? -1,
    send: phases.send ?? 0,
    wait: Math.max(0, wait - before),
    receive: Math.max(0, duration - Math.max(wait, before)),
  };
  const porthole: PortholeEntry = {
    initiator: tx.initiator,
    state: tx.state,
    mock: tx.mock,
    error: tx.error,
    waitMs: timing.waitMs,
    durationMs: timing.durationMs,
    requestBody: request.body && {
      encoding: request.body.encoding,
      truncated: request.body.truncated,
      size: request.body.size,
    },
    responseBody: response?.body && { truncated: response.body.truncated, size: response.body.size },
    redirected: response?.redirected,
    finalUrl: response?.url,
    remotePort: tx.remotePort,
    close: tx.close,
    graphql: tx.graphql,
    messages: tx.messages,
    events:
      tx.initiator !== 'websocket' && messages?.length
        ? messages.map((m) => ({
            time: m.time,
            data: m.data,
            ...(m.event ? { event: m.event } : {}),
            ...(m.eventId !== undefined ? { id: m.eventId } : {}),
            size: m.size,
          }))
        : undefined,
  };
  const httpVersion = (v: string | undefined) => (v ? `HTTP/${v}` : '');
  const decodedSize = response?.body ? (response.body.totalSize ?? response.body.size) : 0;
  const wireSize = response?.encodedSize ?? (response?.body ? decodedSize : response ? 0 : -1);
  const entry: Entry = {
    startedDateTime: new Date(timing.startedAt).toISOString(),
    time: duration,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: httpVersion(response?.httpVersion),
      cookies: requestCookies(request.headers),
      headers: request.headers.map(({ name, value }) => ({ name, value })),
      queryString: queryString(request.url),
      postData: request.body && postData(request.body, request.headers),
      headersSize: -1,
      bodySize: request.body ? (request.body.totalSize ?? request.body.size) : 0,
    },
    response: {
      status: response?.status ?? 0,
      statusText: response?.statusText ?? '',
      httpVersion: httpVersion(response?.httpVersion),
      cookies: response ? responseCookies(response.headers) : [],
      headers: response?.headers.map(({ name, value }) => ({ name, value })) ?? [],
      content: {
        ...content(response?.body, response?.headers),
        ...(response?.encodedSize !== undefined && response.body && response.encodedSize < decodedSize
          ? { compression: decodedSize - response.encodedSize }
          : {}),
      },
      redirectURL: headerValue(response?.headers, 'location') ?? '',
      headersSize: -1,
      bodySize: wireSize,
      // HAR 1.2 has no trailers: HTTP/2's (gRPC's grpc-status) ride as a custom field, read back on import.
      ...(response?.trailers ? { _trailers: response.trailers.map(({ name, value }) => ({ name, value })) } : {}),
    },
    cache: {},
    timings,
    ...(tx.remoteAddress ? { serverIPAddress: tx.remoteAddress } : {}),
    ...(tx.remotePort !== undefined ? { connection: String(tx.remotePort) } : {}),
    _porthole: stripUndefined(porthole),
  };
  if (tx.error) entry._error = tx.error.message;
  if (tx.initiator === 'websocket') {
    entry._resourceType = 'websocket';
    entry._webSocketMessages = (messages ?? []).map(
      (m): HarSocketMessage => ({
        type: m.direction === 'sent' ? 'send' : 'receive',
        time: m.time / 1000,
        opcode: m.opcode ?? (m.encoding === 'base64' ? 2 : 1),
        data: m.data,
      }),
    );
  }
  return entry;
}

/** The messages a HAR entry carries (Chrome's `_webSocketMessages`, Porthole's events), as the app saw them. */
export const importedMessages = new WeakMap<object, SocketMessageIn[]>();

function messagesOfEntry(entry: Entry, p: PortholeEntry): SocketMessageIn[] | undefined {
  const raw = (entry as { _webSocketMessages?: unknown })._webSocketMessages;
  if (Array.isArray(raw)) {
    const out: SocketMessageIn[] = [];
    for (const m of raw.slice(0, 100_000) as Partial<HarSocketMessage>[]) {
      if (!m || typeof m.data !== 'string' || typeof m.time !== 'number') continue;
      const opcode = typeof m.opcode === 'number' && m.opcode >= 0 && m.opcode <= 15 ? m.opcode : 1;
      const encoding = opcode === 2 ? 'base64' : 'text';
      out.push({
        direction: m.type === 'send' ? 'sent' : 'received',
        time: m.time * 1000,
        opcode,
        size: byteLength(m.data, encoding),
        encoding,
        data: m.data,
      });
    }
    return out;
  }
  return p.events?.map((e) => ({
    direction: 'received' as const,
    time: e.time,
    size: e.size ?? byteLength(e.data, 'text'),
    encoding: 'text' as const,
    data: e.data,
    ...(e.event ? { event: e.event } : {}),
    ...(e.id !== undefined ? { eventId: e.id } : {}),
  }));
}

function postData(body: Body, headers: Header[]): PostData {
  const mimeType = body.contentType ?? headerValue(headers, 'content-type') ?? '';
  return { mimeType, text: body.data, ...(body.truncated ? { comment: 'truncated by the capture cap' } : {}) };
}

function content(body: Body | undefined, headers: Header[] | undefined): Content {
  const mimeType = body?.contentType ?? headerValue(headers, 'content-type') ?? '';
  if (!body) return { size: 0, mimeType };
  return {
    size: body.totalSize ?? body.size,
    mimeType,
    text: body.data,
    ...(body.encoding === 'base64' ? { encoding: 'base64' } : {}),
    ...(body.truncated ? { comment: 'truncated by the capture cap' } : {}),
  };
}

function queryString(url: string): { name: string; value: string }[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function requestCookies(headers: Header[]): Cookie[] {
  const header = headerValue(headers, 'cookie');
  if (!header || header === REDACTED) return [];
  return header.split(';').flatMap((part) => {
    const eq = part.indexOf('=');
    return eq > 0 ? [{ name: part.slice(0, eq).trim(), value: part.slice(eq + 1).trim() }] : [];
  });
}

/** A HAR response's `_trailers` ([{ name, value }]), the well-formed ones; undefined when none. */
function importTrailers(raw: unknown): Header[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const out = raw
    .slice(0, 1000)
    .filter(
      (h): h is Header =>
        typeof h?.name === 'string' &&
        typeof h?.value === 'string' &&
        h.name.length <= 1024 &&
        h.value.length <= 65_536,
    )
    .map(({ name, value }) => ({ name, value }));
  return out.length ? out : undefined;
}

function responseCookies(headers: Header[]): Cookie[] {
  return headers
    .filter((h) => h.name.toLowerCase() === 'set-cookie' && h.value !== REDACTED)
    .flatMap(({ value }) => {
      const [pair = '', ...attributes] = value.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) return [];
      const cookie: Cookie = { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim() };
      for (const attribute of attributes) {
        const [key = '', ...rest] = attribute.split('=');
        const v = rest.join('=').trim();
        const k = key.trim().toLowerCase();
        if (k === 'path') cookie.path = v;
        else if (k === 'domain') cookie.domain = v;
        else if (k === 'expires') cookie.expires = v;
        else if (k === 'httponly') cookie.httpOnly = true;
        else if (k === 'secure') cookie.secure = true;
      }
      return [cookie];
    });
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export class HarImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HarImportError';
  }
}

/**
 * Reads a HAR file (a parsed object or its JSON text) into transactions ready for a session's
 * store. Throws HarImportError saying what is wrong when it is not HAR 1.2.
 */
export function fromHar(input: unknown, source: string, now = Date.now()): Omit<Transaction, 'seq'>[] {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (e) {
      throw new HarImportError(`the HAR file is not JSON (${whereJsonFailed(input, e as Error)}); pass a HAR 1.2 file`);
    }
  }
  // What is not a HAR at all is described by its shape only: its content (a token file, the
  // environment of a process) never shows in the error, nor in the call history that keeps it.
  const log = (value as { log?: { entries?: unknown } } | null)?.log;
  if (typeof value !== 'object' || value === null || !Array.isArray(log?.entries)) {
    throw new HarImportError(
      'not a HAR 1.2 file: a HAR is a JSON object with log.version, log.creator and log.entries (a list of requests)',
    );
  }
  const parsed = HarSchema.safeParse(value);
  if (!parsed.success) throw new HarImportError(harProblems(value, parsed.error));
  const batch = now.toString(36);
  return parsed.data.log.entries.map((entry, i) =>
    fromEntry(entry as unknown as Entry, `har-${batch}-${i + 1}`, source, now),
  );
}

/** What is wrong with a HAR, where, and what was there (a few issues), then what to do. */
function harProblems(value: unknown, error: z.ZodError): string {
  const shown = error.issues.slice(0, 5).map((issue) => {
    const at = issue.path.reduce<unknown>((v, key) => (v as Record<PropertyKey, unknown> | undefined)?.[key], value);
    const got = at === undefined ? 'missing' : `got ${shape(at)}`;
    const expected = 'expected' in issue && issue.expected ? `expected ${issue.expected}` : issue.message;
    return `${issue.path.join('.') || '(root)'}: ${expected}, ${got}`;
  });
  const more = error.issues.length > shown.length ? `; and ${error.issues.length - shown.length} more problems` : '';
  return `not a HAR 1.2 file: ${shown.join('; ')}${more}. Fix those fields (a status is a number, e.g. 500; times are numbers of ms) and import again, or export the HAR again from the browser's DevTools (Network, "Save all as HAR")`;
}

/** What was there, without showing content: the type, and a short scalar's value (a status, a time). */
function shape(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return value.length <= 12 ? `the string ${JSON.stringify(value)}` : 'a string';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function fromEntry(entry: Entry, id: string, source: string, now: number): Omit<Transaction, 'seq'> {
  const extra = PortholeEntrySchema.safeParse(entry._porthole);
  const p: PortholeEntry = extra.success ? extra.data : {};
  const { request, response } = entry;
  const responded = response.status > 0;
  const sum = (...values: (number | undefined)[]) => values.reduce<number>((a, v) => a + (v && v > 0 ? v : 0), 0);
  const t = entry.timings;
  // ssl is part of connect (HAR 1.2): counting it again made the phases add up to more than the total.
  const waitMs = p.waitMs ?? (responded ? sum(t.blocked, t.dns, t.connect, t.send, t.wait) : undefined);
  const errorText = typeof entry._error === 'string' ? entry._error : undefined;
  const state = p.state ?? (responded ? 'complete' : 'failed');
  const requestBody =
    request.postData?.text !== undefined ? importRequestBody(request.postData, request.bodySize, p) : undefined;
  const version = (v: string | undefined) => (v ? v.replace(/^HTTP\//i, '') || undefined : undefined);
  const phase = (v: number | undefined) => (v !== undefined && v >= 0 ? v : undefined);
  const phases = stripUndefined({
    blocked: phase(t.blocked),
    dns: phase(t.dns),
    connect: phase(t.connect),
    ssl: phase(t.ssl),
    send: phase(t.send),
  });
  const compressed = (response.content.compression ?? 0) > 0 || response.bodySize !== response.content.size;
  const socket = entry._resourceType === 'websocket' || /^wss?:/i.test(request.url);
  const messages = messagesOfEntry(entry, p);
  const imported: Omit<Transaction, 'seq'> = {
    id,
    state,
    initiator: p.initiator ?? (entry._resourceType === 'xhr' ? 'xhr' : socket ? 'websocket' : 'har'),
    remoteAddress: entry.serverIPAddress || undefined,
    remotePort: p.remotePort,
    request: {
      method: request.method,
      url: request.url,
      headers: request.headers.map(({ name, value }) => ({ name, value })),
      body: requestBody,
    },
    response: responded
      ? {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers.map(({ name, value }) => ({ name, value })),
          body: importResponseBody(response.content, p),
          httpVersion: version(response.httpVersion),
          encodedSize: compressed && response.bodySize >= 0 ? response.bodySize : undefined,
          redirected: p.redirected,
          url: p.finalUrl,
          trailers: importTrailers((response as { _trailers?: unknown })._trailers),
        }
      : undefined,
    error:
      p.error ?? (state === 'failed' ? { message: errorText ?? 'no response (status 0 in the HAR file)' } : undefined),
    timing: {
      startedAt: Date.parse(entry.startedDateTime),
      waitMs,
      durationMs: p.durationMs ?? (state === 'pending' ? undefined : entry.time),
      phases: Object.keys(phases).length ? phases : undefined,
    },
    mock: p.mock,
    imported: { source, at: now },
    ...(p.close ? { close: p.close } : {}),
    ...(p.graphql ? { graphql: p.graphql } : {}),
  };
  if (messages?.length) {
    importedMessages.set(imported, messages);
    imported.messages = { sent: 0, received: 0, dropped: p.messages?.dropped ?? 0 };
  }
  return imported;
}

function importRequestBody(postData: PostData, bodySize: number, p: PortholeEntry): Body {
  const data = postData.text ?? '';
  const encoding = p.requestBody?.encoding ?? 'text';
  const size = p.requestBody?.size ?? byteLength(data, encoding);
  const truncated = p.requestBody?.truncated ?? false;
  return {
    encoding,
    data,
    size,
    truncated,
    totalSize: bodySize >= 0 ? bodySize : size,
    contentType: postData.mimeType || undefined,
  };
}

function importResponseBody(content: Content, p: PortholeEntry): Body | undefined {
  if (content.text === undefined) return undefined;
  const encoding = content.encoding === 'base64' ? 'base64' : 'text';
  const size = p.responseBody?.size ?? byteLength(content.text, encoding);
  return {
    encoding,
    data: content.text,
    size,
    truncated: p.responseBody?.truncated ?? false,
    totalSize: content.size >= 0 ? content.size : size,
    contentType: content.mimeType || undefined,
  };
}

function byteLength(data: string, encoding: 'text' | 'base64'): number {
  if (encoding === 'base64')
    return Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
  return new TextEncoder().encode(data).byteLength;
}

/** Where JSON.parse stopped, as line and column, without the text around it (V8 quotes it). */
function whereJsonFailed(text: string, error: Error): string {
  const at = /position (\d+)/.exec(error.message);
  if (!at) return /end of JSON input/.test(error.message) ? 'it ends early' : 'it does not parse';
  const position = Number(at[1]);
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  return `it does not parse at line ${line}, column ${position - before.lastIndexOf('\n')}`;
}
