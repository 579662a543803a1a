import { type Dropped, type RecordStore, type RecordsApi, standaloneRecords } from '../../../shared/records.js';
import { graphqlErrors, graphqlMatches, graphqlOf } from '../graphql.js';
import {
  type Body,
  type Graphql,
  isFailure,
  type RequestSent,
  type ResponseStarted,
  type Transaction,
  type TransactionCompleted,
  type TransactionFailed,
  type TransactionFilter,
  type TransactionStarted,
  type TransactionSummary,
} from '../protocol.js';
import { appended, transactionBytes } from './transaction-bytes.js';

export interface StoreLimits {
  /** Transactions kept; the oldest go first beyond it. */
  maxTransactions: number;
  /** Characters of body data kept (bodies are text or base64); the oldest transactions go first beyond it. */
  maxBodyChars: number;
  /** Estimated bytes of whole transactions kept (URL, headers, bodies); also bounded by the global budget. */
  maxBytes: number;
}

/**
 * 100,000 requests of a typical API (five headers each way, a 300-byte JSON body) are 272 MiB
 * estimated and about 207 MiB of heap (`npm run bench -- network-store`), so they fit; larger
 * bodies meet the byte bounds first. The
 * inspector's global budget (512 MiB, --memory-budget) bounds every session's stores together.
 */
export const DEFAULT_STORE_LIMITS: StoreLimits = {
  maxTransactions: 100_000,
  maxBodyChars: 128 * 1024 * 1024,
  maxBytes: 320 * 1024 * 1024,
};

export type SortOrder = 'newest' | 'oldest';

export interface PageQuery {
  filter?: TransactionFilter;
  limit: number;
  cursor?: string;
  order?: SortOrder;
  /** The URL `urlContains` is matched against (MCP callers: the redacted one, so a filter cannot probe a hidden value). */
  urlOf?: (url: string) => string;
}

export interface Page {
  transactions: TransactionSummary[];
  /** Pass it back as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
  /** Transactions matching the filter, on every page. */
  total: number;
  /** Matching transactions after this page. */
  remaining: number;
}

export class CursorError extends Error {
  constructor(cursor: string) {
    super(`invalid cursor "${cursor}": pass back the nextCursor of a previous page, or omit it to start over`);
    this.name = 'CursorError';
  }
}

/** What an ingest changed, so the caller can tell the window. */
export interface Change {
  transaction: Transaction;
  change: 'added' | 'updated';
  dropped: number;
}

/**
 * One session's transactions, in arrival order, bounded by count and by body size: beyond either
 * bound the oldest transactions are dropped and counted. Pending transactions are kept like any other.
 */
export class TransactionStore {
  private readonly byId: RecordStore<Transaction>;
  private seq = 0;
  private bodyChars = 0;

  /** Notifications about transactions this store does not have (dropped, or lost in the app's offline buffer). */
  orphans = 0;
  /** Called when transactions go without an ingest of this store (the global budget made room for another session). */
  onDropped: ((dropped: Dropped) => void) | undefined;
  /** Called with the id of every transaction that goes (dropped, cleared or replaced), for what is kept beside it. */
  onGone: ((id: string) => void) | undefined;
  private ingesting = false;
  private droppedNow = 0;

  readonly limits: StoreLimits;

  constructor(limits: Partial<StoreLimits> = {}, records: RecordsApi = standaloneRecords()) {
    this.limits = { ...DEFAULT_STORE_LIMITS, ...limits };
    this.byId = records.open<Transaction>('transactions', {
      maxCount: this.limits.maxTransactions,
      maxBytes: this.limits.maxBytes,
      sizeOf: transactionBytes,
      onDrop: (txs, dropped) => {
        for (const tx of txs) {
          this.bodyChars -= txBodyChars(tx);
          this.onGone?.(tx.id);
        }
        this.countDropped(dropped);
      },
      // Kept across inspector restarts with the session; the store opens with what the last run had.
      persist: true,
    });
    for (const tx of this.byId.values()) {
      this.seq = Math.max(this.seq, tx.seq);
      this.bodyChars += txBodyChars(tx);
    }
  }

  /**
   * Transactions dropped to stay within bounds (this store's or the global budget) since the session
   * began, kept across inspector restarts with the transactions.
   */
  get droppedTotal(): Dropped {
    return this.byId.dropped;
  }

  /** Transactions dropped to stay within bounds since the session began. */
  get dropped(): number {
    return this.droppedTotal.count;
  }

  get size(): number {
    return this.byId.size;
  }

  stats() {
    let pending = 0;
    for (const tx of this.byId.values()) if (tx.state === 'pending') pending++;
    return {
      count: this.byId.size,
      pending,
      bodyChars: this.bodyChars,
      bytes: this.byId.bytes,
      dropped: this.droppedTotal.count,
      droppedBytes: this.droppedTotal.bytes,
      orphans: this.orphans,
      limits: this.limits,
    };
  }

  started(n: TransactionStarted, sensitiveHeaders?: string[], load?: number): Change {
    const existing = this.byId.get(n.id);
    if (existing) this.remove(existing);
    return this.insert({ ...fresh(++this.seq, n, sensitiveHeaders), load });
  }

  requestSent(n: RequestSent): Change | undefined {
    return this.update(n.id, (tx) => applyRequestSent(tx, n));
  }

  response(n: ResponseStarted): Change | undefined {
    return this.update(n.id, (tx) => applyResponse(tx, n));
  }

  completed(n: TransactionCompleted): Change | undefined {
    return this.update(n.id, (tx) => applyCompleted(tx, n));
  }

  failed(n: TransactionFailed): Change | undefined {
    return this.update(n.id, (tx) => applyFailed(tx, n));
  }

  /** More of a body still arriving (live): appended to the response body, which stops at `cap` bytes. */
  appendBody(
    id: string,
    part: { text: string } | { bytes: Uint8Array; coding?: string },
    contentType: string | undefined,
    cap: number,
  ): Change | undefined {
    return this.update(id, (tx) => {
      if (!tx.response || tx.state !== 'pending') return;
      appendPart(tx.response, part, contentType, cap);
    });
  }

  /** Counts a connection's new messages (and the ones not kept) on its transaction. */
  countMessages(id: string, sent: number, received: number, dropped: number): Change | undefined {
    const tx = this.byId.get(id);
    if (!tx) {
      this.orphans++;
      return undefined;
    }
    const m = (tx.messages ??= { sent: 0, received: 0, dropped: 0 });
    m.sent += sent;
    m.received += received;
    m.dropped += dropped;
    // Messages of a connection closed as unknown (the link to the app dropped) show it is still open.
    if (tx.state === 'unknown' && sent + received > 0) {
      tx.state = 'pending';
      tx.error = undefined;
    }
    const dropsNow = this.ingest(tx, () => this.byId.remeasure(tx.id));
    return { transaction: tx, change: 'updated', dropped: dropsNow };
  }

  /** Transactions still open when the app went away: their outcome is unknown. */
  closeOpen(message: string): Change[] {
    const changes: Change[] = [];
    for (const tx of this.byId.values()) {
      if (tx.state !== 'pending') continue;
      tx.state = 'unknown';
      tx.error = { message };
      this.byId.remeasure(tx.id);
      changes.push({ transaction: tx, change: 'updated', dropped: 0 });
    }
    return changes;
  }

  /** Adds a finished transaction from elsewhere (a HAR import); it gets a fresh seq. */
  add(tx: Omit<Transaction, 'seq'>): Change {
    const existing = this.byId.get(tx.id);
    if (existing) this.remove(existing);
    const added: Transaction = { ...tx, seq: ++this.seq };
    if (!added.grpc) readGrpc(added);
    const op = added.graphql ?? readGraphql(added);
    const body = added.response?.body;
    if (op && op.errors === undefined && body?.encoding === 'text') {
      const errors = graphqlErrors(body.data);
      if (errors > 0) op.errors = errors;
    }
    return this.insert(added);
  }

  get(id: string): Transaction | undefined {
    return this.byId.get(id);
  }

  /** Every transaction matching the filter, oldest first. */
  all(filter: TransactionFilter = {}, urlOf?: (url: string) => string): Transaction[] {
    const out: Transaction[] = [];
    for (const tx of this.byId.values()) if (matches(tx, filter, urlOf)) out.push(tx);
    return out;
  }

  page({ filter = {}, limit, cursor, order = 'newest', urlOf }: PageQuery): Page {
    const after = cursor === undefined ? undefined : parseCursor(cursor, order);
    const all = [...this.byId.values()];
    if (order === 'newest') all.reverse();
    const transactions: TransactionSummary[] = [];
    let total = 0;
    let last: number | undefined;
    let remaining = 0;
    for (const tx of all) {
      if (!matches(tx, filter, urlOf)) continue;
      total++;
      const beyond = after === undefined || (order === 'newest' ? tx.seq < after : tx.seq > after);
      if (!beyond) continue;
      if (transactions.length < limit) {
        transactions.push(summarize(tx));
        last = tx.seq;
      } else remaining++;
    }
    return {
      transactions,
      total,
      remaining,
      nextCursor: remaining > 0 && last !== undefined ? `${order}:${last}` : undefined,
    };
  }

  clear(): number {
    const n = this.byId.clear();
    this.bodyChars = 0;
    return n;
  }

  /** Releases the store's records from the global budget. */
  close(): void {
    this.byId.close();
    this.bodyChars = 0;
  }

  private insert(tx: Transaction): Change {
    this.bodyChars += txBodyChars(tx);
    const dropped = this.ingest(tx, () => this.byId.set(tx.id, tx));
    return { transaction: tx, change: 'added', dropped };
  }

  /** Runs an ingest and enforces the body bound; returns how many transactions went meanwhile. */
  private ingest(keep: Transaction, run: () => void): number {
    this.ingesting = true;
    this.droppedNow = 0;
    try {
      run();
      this.enforceBodyChars(keep);
    } finally {
      this.ingesting = false;
    }
    return this.droppedNow;
  }

  private countDropped(dropped: Dropped): void {
    if (this.ingesting) this.droppedNow += dropped.count;
    else this.onDropped?.(dropped);
  }

  private update(id: string, mutate: (tx: Transaction) => void): Change | undefined {
    const tx = this.byId.get(id);
    if (!tx) {
      this.orphans++;
      return undefined;
    }
    // A late duplicate: the first ending wins. A transaction closed as unknown when the app went
    // away still takes the ending that a resumed app delivers from its offline buffer.
    if (tx.state !== 'pending' && tx.state !== 'unknown') return undefined;
    const before = txBodyChars(tx);
    mutate(tx);
    this.bodyChars += txBodyChars(tx) - before;
    const dropped = this.ingest(tx, () => this.byId.remeasure(tx.id));
    return { transaction: tx, change: 'updated', dropped };
  }

  /** Drops the oldest transactions (never `keep`) until the body bound holds. */
  private enforceBodyChars(keep: Transaction): void {
    while (this.bodyChars > this.limits.maxBodyChars) {
      const oldest = this.byId.values().next().value as Transaction | undefined;
      if (!oldest || oldest === keep) break;
      this.byId.drop(oldest.id); // onDrop takes its body characters off and counts it
    }
  }

  private remove(tx: Transaction): void {
    if (!this.byId.delete(tx.id)) return;
    this.bodyChars -= txBodyChars(tx);
    this.onGone?.(tx.id);
  }
}

const bodyChars = (body: Body | undefined) => body?.data.length ?? 0;
const txBodyChars = (tx: Transaction) => bodyChars(tx.request.body) + bodyChars(tx.response?.body);

function fresh(seq: number, n: TransactionStarted, sensitiveHeaders: string[] | undefined): Transaction {
  const tx: Transaction = {
    id: n.id,
    seq,
    state: 'pending',
    initiator: n.initiator,
    request: { method: n.method, url: n.url, headers: n.headers, body: n.body },
    timing: { startedAt: n.startedAt },
    mock: n.mock,
    sensitiveHeaders: sensitiveHeaders?.length ? sensitiveHeaders : undefined,
    replayOf: n.replayOf,
    beforeRules: n.beforeRules,
    callStack: n.callStack,
  };
  readGraphql(tx);
  return tx;
}

function applyRequestSent(tx: Transaction, n: Omit<RequestSent, 'id'>): void {
  if (n.headers) tx.request.headers = n.headers;
  if (n.body) tx.request.body = n.body;
  if (n.body && !tx.graphql) readGraphql(tx);
}

/** The GraphQL operation a request carries, read from its URL or its body, set on it. */
export function readGraphql(tx: Transaction): Graphql | undefined {
  const { method, url, headers, body } = tx.request;
  if (body?.encoding === 'base64') return undefined;
  const op = graphqlOf(method, url, body?.contentType ?? headerValue(headers, 'content-type'), body?.data);
  if (op) tx.graphql = op as Graphql;
  return tx.graphql;
}

function appendPart(
  response: NonNullable<Transaction['response']>,
  part: { text: string } | { bytes: Uint8Array; coding?: string },
  contentType: string | undefined,
  cap: number,
): void {
  const text = 'text' in part;
  let body = response.body;
  if (!body) {
    body = response.body = {
      encoding: text ? 'text' : 'base64',
      data: '',
      size: 0,
      truncated: false,
      contentType,
      ...('coding' in part && part.coding ? { coding: part.coding } : {}),
    };
  }
  if (body.truncated) return;
  if (text) {
    if (body.encoding !== 'text') return;
    const bytes = Buffer.byteLength(part.text);
    const room = cap - body.size;
    const added = bytes > room ? part.text.slice(0, Math.max(0, room)) : part.text;
    body.data += added;
    appended(body, added);
    if (bytes > room) {
      body.size = cap;
      body.truncated = true;
    } else {
      body.size += bytes;
    }
    return;
  }
  if (body.encoding !== 'base64') return;
  // Base64 appends in whole groups of 3 bytes; what is left waits for the next bytes.
  const held = pendingBytes.get(body) ?? new Uint8Array();
  let bytes: Uint8Array = Buffer.concat([held, part.bytes]);
  const room = cap - body.size - held.byteLength;
  if (part.bytes.byteLength > room) {
    bytes = bytes.subarray(0, held.byteLength + Math.max(0, room));
    body.truncated = true;
  }
  const whole = body.truncated ? bytes.byteLength : bytes.byteLength - (bytes.byteLength % 3);
  const added = Buffer.from(bytes.buffer, bytes.byteOffset, whole).toString('base64');
  body.data += added;
  appended(body, added);
  body.size += whole - held.byteLength;
  pendingBytes.set(body, bytes.subarray(whole));
}

/** Bytes of a live base64 body not yet in a whole base64 group (not stored: a finished body replaces it). */
const pendingBytes = new WeakMap<object, Uint8Array>();

function applyResponse(tx: Transaction, n: Omit<ResponseStarted, 'id'>): void {
  tx.response = {
    status: n.status,
    statusText: n.statusText,
    headers: n.headers,
    httpVersion: n.httpVersion,
    redirected: n.redirected,
    url: n.url,
  };
  tx.timing.waitMs = n.waitMs;
  if (n.remoteAddress) tx.remoteAddress = n.remoteAddress;
  if (n.remotePort !== undefined) tx.remotePort = n.remotePort;
  if (n.mock) tx.mock = n.mock;
}

function applyCompleted(tx: Transaction, n: Omit<TransactionCompleted, 'id'>): void {
  if (tx.response) {
    // A WebSocket's close carries no body: what it showed stays.
    if (n.body || !n.close) tx.response.body = n.body;
    if (n.encodedSize !== undefined) tx.response.encodedSize = n.encodedSize;
  }
  tx.state = 'complete';
  tx.error = undefined;
  tx.timing.durationMs = n.durationMs;
  if (n.close) tx.close = n.close;
  if (n.trailers && tx.response) tx.response.trailers = n.trailers;
  readGrpc(tx);
  if (tx.graphql && tx.response?.body?.encoding === 'text') {
    const errors = graphqlErrors(tx.response.body.data);
    if (errors > 0) tx.graphql.errors = errors;
  }
}

/** A gRPC answer's status: in its trailers, or in the headers of a trailers-only answer. */
function readGrpc(tx: Transaction): void {
  const response = tx.response;
  const status = headerValue(response?.trailers, 'grpc-status') ?? headerValue(response?.headers, 'grpc-status');
  if (status === undefined || !/^\d+$/.test(status.trim())) return;
  const from = headerValue(response?.trailers, 'grpc-status') !== undefined ? response?.trailers : response?.headers;
  const message = headerValue(from, 'grpc-message');
  tx.grpc = { status: Number(status), ...(message ? { message: decodeGrpcMessage(message) } : {}) };
}

/** grpc-message is percent-encoded (gRPC's spec); a bad escape is left as sent. */
function decodeGrpcMessage(message: string): string {
  try {
    return decodeURIComponent(message);
  } catch {
    return message;
  }
}

function applyFailed(tx: Transaction, n: Omit<TransactionFailed, 'id'>): void {
  tx.state = n.unknown ? 'unknown' : 'failed';
  tx.error = { message: n.message, code: n.code, timedOut: n.timedOut };
  tx.timing.durationMs = n.durationMs;
  if (n.mock) tx.mock = n.mock;
  if (n.close) tx.close = n.close;
  if (n.body && tx.response) tx.response.body = n.body;
}

function parseCursor(cursor: string, order: SortOrder): number {
  const match = /^(newest|oldest):(\d+)$/.exec(cursor);
  if (!match || match[1] !== order) throw new CursorError(cursor);
  return Number(match[2]);
}

export function matches(tx: Transaction, f: TransactionFilter, urlOf = (url: string) => url): boolean {
  if (f.urlContains && !urlOf(tx.request.url).toLowerCase().includes(f.urlContains.toLowerCase())) return false;
  if (f.method && tx.request.method.toUpperCase() !== f.method.toUpperCase()) return false;
  if (f.status !== undefined) {
    const status = tx.response?.status;
    if (status === undefined) return false;
    if (typeof f.status === 'number' ? status !== f.status : status < f.status.min || status > f.status.max)
      return false;
  }
  if (f.failedOnly && !isFailure(tx.state, tx.response?.status, tx.graphql, tx.grpc)) return false;
  if (f.graphql !== undefined && !graphqlMatches(tx.graphql, f.graphql)) return false;
  if (f.mockedOnly && !tx.mock) return false;
  if (f.since !== undefined && tx.timing.startedAt < f.since) return false;
  if (f.until !== undefined && tx.timing.startedAt > f.until) return false;
  // Resolved by the host to a load number (firstLoadOf) before it gets here.
  if (f.sinceLoad !== undefined && (tx.load ?? 0) < f.sinceLoad) return false;
  return true;
}

export function headerValue(headers: { name: string; value: string }[] | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const lower = name.toLowerCase();
  // Only a name as long can lower-case to an ASCII name (the ones asked for): the others are not
  // lower-cased, a string each.
  for (const h of headers) if (h.name.length === lower.length && h.name.toLowerCase() === lower) return h.value;
  return undefined;
}

export function summarize(tx: Transaction): TransactionSummary {
  return {
    id: tx.id,
    seq: tx.seq,
    state: tx.state,
    initiator: tx.initiator,
    method: tx.request.method,
    url: tx.request.url,
    status: tx.response?.status,
    startedAt: tx.timing.startedAt,
    durationMs: tx.timing.durationMs,
    requestSize: tx.request.body?.totalSize ?? tx.request.body?.size,
    responseSize: tx.response?.body?.totalSize ?? tx.response?.body?.size,
    responseType: tx.response?.body?.contentType ?? headerValue(tx.response?.headers, 'content-type'),
    mockRuleId: tx.mock?.ruleId,
    error: tx.error?.message,
    imported: tx.imported ? true : undefined,
    httpVersion: tx.response?.httpVersion,
    remoteAddress: tx.remoteAddress,
    replayOf: tx.replayOf,
    load: tx.load,
    beforeRules: tx.beforeRules,
    messages: tx.messages ? tx.messages.sent + tx.messages.received : undefined,
    graphql: tx.graphql,
    grpc: tx.grpc,
    callSite: topFrame(tx.callStack),
  };
}

/** The first frame of a call stack, without V8's `at `. */
function topFrame(stack: string | undefined): string | undefined {
  if (!stack) return undefined;
  const line = stack.split('\n', 1)[0]!.trim();
  return (line.startsWith('at ') ? line.slice(3) : line).slice(0, 500) || undefined;
}
