import type { HostPluginContext } from '../../../shared/host-plugin.js';
import { RequestError } from '../../../shared/protocol/messenger.js';
import { ToolArgumentError, ToolError } from '../../../shared/tool.js';
import type {
  Header,
  NetworkProtocol,
  ReplayRequest,
  ReplayResult,
  ReplaySend,
  ReplaySent,
  SkippedHeader,
  Transaction,
} from '../protocol.js';
import { unknownTransaction } from './host-api.js';
import { headerValue, summarize } from './transaction-store.js';

// A replay, host side: the request to send is built from the stored transaction and the caller's
// edits, the app sends it (agent/replay.ts), and the answer is the new transaction once it ended.

/** How long the app may take to send a replay and get its response headers. */
export const REPLAY_SEND_TIMEOUT_MS = 30_000;
/** How long the answer waits for the new transaction to end before saying it is still running. */
export const REPLAY_SETTLE_MS = 10_000;

/** fetch refuses these methods outright. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
/** fetch upper-cases these; others are sent as written. */
const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH']);

export type ReplayEdits = Omit<ReplayRequest, 'id'>;

/** The request the app is to send: the captured one with `edits` applied. Throws ToolArgumentError when it cannot be sent. */
export function buildReplay(tx: Transaction, edits: ReplayEdits = {}): ReplaySend {
  if (tx.imported) {
    throw new ToolArgumentError(
      `${tx.id} was read from a HAR file (${tx.imported.source}), not captured from a running app, so no app can send it again; replay a request the connected app made (network_list_transactions lists them)`,
    );
  }
  const method = methodOf(edits.method ?? tx.request.method);
  const url = urlOf(edits.url ?? tx.request.url, edits.url !== undefined);
  const headers = editHeaders(tx.request.headers, edits.headers);
  const noBody = method === 'GET' || method === 'HEAD';
  const send: ReplaySend = { replayOf: tx.id, method, url, headers };

  if (edits.body !== undefined) {
    if (edits.body !== '' && noBody) {
      throw new ToolArgumentError(
        `a ${method} request cannot carry a body (fetch refuses it); pass method (e.g. "POST") with the body, or leave body out`,
      );
    }
    if (edits.body !== '') send.body = { encoding: 'text', data: edits.body };
    return send;
  }
  const body = tx.request.body;
  if (body?.truncated) {
    throw new ToolArgumentError(
      `the captured body of ${tx.id} was cut at the app's capture cap (${body.size} of ${body.totalSize ?? 'more'} bytes kept), so it cannot be sent again as it was; pass body with the text to send, or raise network({ maxBodyBytes }) in the app and capture the request again`,
    );
  }
  if (body && body.size > 0) {
    if (noBody) {
      throw new ToolArgumentError(
        `${tx.id} has a body, and a ${method} request cannot carry one (fetch refuses it); pass body: "" to send none, or keep a method that takes a body`,
      );
    }
    send.body = { encoding: body.encoding, data: body.data };
    return send;
  }
  const declared = Number(headerValue(tx.request.headers, 'content-length'));
  if (declared > 0 || (!body && headerValue(tx.request.headers, 'transfer-encoding'))) {
    throw new ToolArgumentError(
      `the app's capture did not keep the body of ${tx.id} (a stream, a FormData or a Blob it could not read), so it cannot be sent again as it was; pass body with the text to send`,
    );
  }
  return send;
}

function methodOf(given: string): string {
  const upper = given.toUpperCase();
  if (FORBIDDEN_METHODS.has(upper)) {
    throw new ToolArgumentError(`fetch cannot send ${upper} requests; pass another method (GET, POST, PUT, …)`);
  }
  return NORMALIZED_METHODS.has(upper) ? upper : given;
}

function urlOf(given: string, edited: boolean): string {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new ToolArgumentError(
      `"${given.slice(0, 200)}" is not an absolute URL; pass url with the scheme and host, e.g. "http://localhost:3000/api/users"`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolArgumentError(
      edited
        ? `only http and https URLs can be replayed, not ${url.protocol}; pass an http(s) url`
        : `${url.protocol} requests cannot be replayed (only http and https); pass url with an http(s) address to send it there`,
    );
  }
  return url.href.split('#')[0]!;
}

/** The captured headers with each edited name replaced (or removed, for null); new names come last. */
export function editHeaders(captured: readonly Header[], edits: ReplayEdits['headers']): Header[] {
  if (!edits) return [...captured];
  const lower = new Map(Object.entries(edits).map(([name, value]) => [name.toLowerCase(), { name, value }]));
  const out: Header[] = [];
  const placed = new Set<string>();
  for (const header of captured) {
    const key = header.name.toLowerCase();
    const edit = lower.get(key);
    if (!edit) out.push(header);
    else if (!placed.has(key)) {
      placed.add(key);
      if (edit.value !== null) out.push({ name: header.name, value: edit.value });
    }
  }
  for (const [key, { name, value }] of lower) if (!placed.has(key) && value !== null) out.push({ name, value });
  return out;
}

/** Resolves waiters when a transaction leaves `pending`. */
export class Settling {
  private readonly waiting = new Map<string, Set<() => void>>();

  changed(tx: Transaction): void {
    if (tx.state === 'pending') return;
    for (const resolve of this.waiting.get(tx.id) ?? []) resolve();
  }

  /** Resolves once `settled()` is true (checked on every change of `id`), after `ms`, or on abort. */
  wait(id: string, settled: () => boolean, ms: number, signal?: AbortSignal): Promise<void> {
    if (settled() || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const set = this.waiting.get(id) ?? new Set();
      this.waiting.set(id, set);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        set.delete(done);
        if (set.size === 0) this.waiting.delete(id);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done);
      set.add(done);
    });
  }
}

export interface ReplayHost {
  ctx: HostPluginContext<NetworkProtocol>;
  get(id: string): Transaction | undefined;
  settling: Settling;
}

/** Sends `request` again from the app and answers with the new transaction (once it ended, or after REPLAY_SETTLE_MS). */
export async function replayTransaction(
  host: ReplayHost,
  request: ReplayRequest,
  signal?: AbortSignal,
  settleMs = REPLAY_SETTLE_MS,
): Promise<ReplayResult> {
  const { id, ...edits } = request;
  const session = host.ctx.session();
  if (session.offline) {
    throw new ToolError(
      `session ${session.id} was read from a file (${session.offline.source}); no app is behind it to send a request again. Connect the app, make the request there, and replay that capture`,
    );
  }
  const tx = host.get(id);
  if (!tx) throw unknownTransaction(id);
  const send = buildReplay(tx, edits);
  if (!host.ctx.active) {
    throw new ToolError(
      `the app of session ${session.id} (${session.app.name}) is not connected, so it cannot send ${id} again; reconnect the app (its captured requests stay listed) and replay then`,
    );
  }
  let sent: ReplaySent;
  try {
    sent = await host.ctx.request('replay', send, { timeoutMs: REPLAY_SEND_TIMEOUT_MS, signal });
  } catch (e) {
    throw replayFailure(e);
  }
  const newId = sent.id;
  if (newId) {
    await host.settling.wait(
      newId,
      () => {
        const now = host.get(newId);
        return !!now && now.state !== 'pending';
      },
      settleMs,
      signal,
    );
  }
  const now = newId ? host.get(newId) : undefined;
  return {
    replayOf: id,
    transaction: now && summarize(now),
    skippedHeaders: sent.skippedHeaders,
    note: noteOf(sent, now, settleMs),
  };
}

function replayFailure(e: unknown): ToolError {
  const message = (e as Error).message;
  if (e instanceof RequestError) {
    if (e.code === 'no-handler') {
      return new ToolError(
        "the app's Porthole agent is too old to replay requests; update porthole in the app and restart it",
      );
    }
    if (e.code === 'timeout') {
      return new ToolError(
        `the app did not say within ${REPLAY_SEND_TIMEOUT_MS / 1000} s whether the replay got an answer; it may still be running: network_list_transactions shows it when it is captured`,
      );
    }
    if (e.code === 'peer-gone' || e.code === 'plugin-not-active') {
      return new ToolError(`the app went away before it sent the replay (${message}); reconnect it and replay again`);
    }
  }
  return new ToolError(`the app could not send the replay: ${message}`);
}

const REASONS: Record<SkippedHeader['reason'], string> = {
  'set-by-runtime': 'set by the runtime itself',
  redacted: 'redacted in the app, its value never reached the inspector; pass it in headers to send one',
};

function noteOf(sent: ReplaySent, tx: Transaction | undefined, settleMs: number): string | undefined {
  const notes: string[] = [];
  if (sent.error && !sent.id) notes.push(`The app could not send it: ${sent.error}.`);
  else if (sent.error) notes.push(`The request failed in the app: ${sent.error}.`);
  if (!sent.id) {
    if (!sent.error)
      notes.push(
        `The app sent it${sent.status !== undefined ? ` (status ${sent.status})` : ''} but did not capture it: its URL matches the app's network({ ignoreUrls }).`,
      );
  } else if (!tx) {
    notes.push(`The new request ${sent.id} is no longer kept (cleared or dropped as the oldest).`);
  } else if (tx.state === 'pending') {
    notes.push(
      `Still running after ${settleMs / 1000} s; network_get_transaction with id "${tx.id}" shows it when it ends.`,
    );
  }
  const redacted = sent.skippedHeaders.filter((h) => h.reason === 'redacted').map((h) => h.name);
  const runtime = sent.skippedHeaders.filter((h) => h.reason === 'set-by-runtime').map((h) => h.name);
  if (redacted.length) notes.push(`Not sent: ${redacted.join(', ')} (${REASONS.redacted}).`);
  if (runtime.length) notes.push(`Left to the app's runtime: ${runtime.join(', ')} (${REASONS['set-by-runtime']}).`);
  return notes.length ? notes.join(' ') : undefined;
}
