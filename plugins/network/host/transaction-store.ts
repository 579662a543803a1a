import {
  type Dropped,
  estimateBytes,
  type RecordStore,
  type RecordsApi,
  standaloneRecords,
} from '../../../shared/records.js';
import type {
  Body,
  RequestSent,
  ResponseStarted,
  Transaction,
  TransactionCompleted,
  TransactionFailed,
  TransactionFilter,
  TransactionStarted,
  TransactionSummary,
} from '../protocol.js';

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
  private ingesting = false;
  private droppedNow = 0;

  readonly limits: StoreLimits;

  constructor(limits: Partial<StoreLimits> = {}, records: RecordsApi = standaloneRecords()) {
    this.limits = { ...DEFAULT_STORE_LIMITS, ...limits };
    this.byId = records.open<Transaction>('transactions', {
      maxCount: this.limits.maxTransactions,
      maxBytes: this.limits.maxBytes,
      sizeOf: (tx) => estimateBytes(tx),
      onDrop: (txs, dropped) => {
        for (const tx of txs) this.bodyChars -= txBodyChars(tx);
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

  started(n: TransactionStarted, sensitiveHeaders?: string[]): Change {
    const existing = this.byId.get(n.id);
    if (existing) this.remove(existing);
    return this.insert(fresh(++this.seq, n, sensitiveHeaders));
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

  /** Adds a finished transaction from elsewhere (a HAR import); it gets a fresh seq. */
  add(tx: Omit<Transaction, 'seq'>): Change {
    const existing = this.byId.get(tx.id);
    if (existing) this.remove(existing);
    return this.insert({ ...tx, seq: ++this.seq });
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
    if (tx.state !== 'pending') return undefined; // a late duplicate: the first ending wins
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
  }
}

const bodyChars = (body: Body | undefined) => body?.data.length ?? 0;
const txBodyChars = (tx: Transaction) => bodyChars(tx.request.body) + bodyChars(tx.response?.body);

function fresh(seq: number, n: TransactionStarted, sensitiveHeaders: string[] | undefined): Transaction {
  return {
    id: n.id,
    seq,
    state: 'pending',
    initiator: n.initiator,
    request: { method: n.method, url: n.url, headers: n.headers, body: n.body },
    timing: { startedAt: n.startedAt },
    mock: n.mock,
    sensitiveHeaders: sensitiveHeaders?.length ? sensitiveHeaders : undefined,
    replayOf: n.replayOf,
    callStack: n.callStack,
  };
}

function applyRequestSent(tx: Transaction, n: Omit<RequestSent, 'id'>): void {
  if (n.headers) tx.request.headers = n.headers;
  if (n.body) tx.request.body = n.body;
}

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
    tx.response.body = n.body;
    if (n.encodedSize !== undefined) tx.response.encodedSize = n.encodedSize;
  }
  tx.state = 'complete';
  tx.timing.durationMs = n.durationMs;
}

function applyFailed(tx: Transaction, n: Omit<TransactionFailed, 'id'>): void {
  tx.state = 'failed';
  tx.error = { message: n.message, code: n.code, timedOut: n.timedOut };
  tx.timing.durationMs = n.durationMs;
  if (n.mock) tx.mock = n.mock;
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
  if (f.failedOnly && tx.state !== 'failed') return false;
  if (f.mockedOnly && !tx.mock) return false;
  if (f.since !== undefined && tx.timing.startedAt < f.since) return false;
  if (f.until !== undefined && tx.timing.startedAt > f.until) return false;
  return true;
}

export function headerValue(headers: { name: string; value: string }[] | undefined, name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers?.find((h) => h.name.toLowerCase() === lower)?.value;
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
    callSite: topFrame(tx.callStack),
  };
}

/** The first frame of a call stack, without V8's `at `. */
function topFrame(stack: string | undefined): string | undefined {
  if (!stack) return undefined;
  const line = stack.split('\n', 1)[0]!.trim();
  return (line.startsWith('at ') ? line.slice(3) : line).slice(0, 500) || undefined;
}
