import { REDACTED } from '../constants.js';
import type { ReplaySend, ReplaySent, SkippedHeader } from '../protocol.js';
import { isNode } from './node-builtins.js';

// A replay, sent from inside the app: through the app's own fetch (in a page, the wrapped one, so
// the page's cookies, origin and network stack apply and the capture sees it like any request).
// Loaded only when the inspector asks for a replay; the params are checked here by hand (the app's
// bundle carries no zod).

/** Set by the runtime on every request; a value from the capture would be wrong or refused. */
const RUNTIME_SET = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'proxy-connection',
]);

/** What a page may not set: the browser sends its own (its cookies, its origin). */
const BROWSER_SET = new Set([
  'accept-charset',
  'accept-encoding',
  'access-control-request-headers',
  'access-control-request-method',
  'cookie',
  'cookie2',
  'date',
  'dnt',
  'origin',
  'referer',
  'user-agent',
  'via',
]);

function setByRuntime(name: string): boolean {
  if (RUNTIME_SET.has(name) || name.startsWith(':')) return true;
  return !isNode && (BROWSER_SET.has(name) || name.startsWith('sec-') || name.startsWith('proxy-'));
}

/** The agent's side: which header names it redacts, and how a replay's capture is marked. */
export interface ReplayHooks {
  readonly redacted: ReadonlySet<string>;
  /** The next request seen with this method and URL is the replay of `replayOf`; `id` is set once it is seen. */
  expect(method: string, url: string, replayOf: string): { readonly id?: string; done(): void };
}

export async function sendReplay(params: ReplaySend, hooks: ReplayHooks): Promise<ReplaySent> {
  const { replayOf, method, url, headers: given, body } = params;
  if (
    typeof replayOf !== 'string' ||
    typeof method !== 'string' ||
    typeof url !== 'string' ||
    !Array.isArray(given) ||
    (body !== undefined && (typeof body?.data !== 'string' || (body.encoding !== 'text' && body.encoding !== 'base64')))
  ) {
    throw new Error('invalid replay params: expected { replayOf, method, url, headers[], body? }');
  }
  const send = (globalThis as { fetch?: typeof fetch }).fetch;
  if (typeof send !== 'function') {
    throw new Error('this runtime has no fetch, so the app cannot send a replay; run it where fetch exists (Node 18+)');
  }
  const skipped: SkippedHeader[] = [];
  const headers = new Headers();
  for (const { name, value } of given) {
    const lower = String(name).toLowerCase();
    const reason = setByRuntime(lower)
      ? 'set-by-runtime'
      : value === REDACTED && hooks.redacted.has(lower)
        ? 'redacted'
        : undefined;
    if (!reason) headers.append(name, String(value));
    else if (!skipped.some((s) => s.name === lower)) skipped.push({ name: lower, reason });
  }
  const payload = body && (body.encoding === 'text' ? body.data : bytesOf(body.data));
  const claim = hooks.expect(method, url, replayOf);
  try {
    const response = await send(url, { method, headers, body: payload });
    drain(response);
    return { id: claim.id, status: response.status, skippedHeaders: skipped };
  } catch (e) {
    const error = e as Error & { cause?: { message?: string } };
    const cause = error.cause?.message;
    const message = `${error.message || String(e)}${cause && cause !== error.message ? `: ${cause}` : ''}`;
    return { id: claim.id, error: message.slice(0, 4096), skippedHeaders: skipped };
  } finally {
    claim.done();
  }
}

function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Reads the answer to its end (the capture follows it there) and keeps none of it. */
function drain(response: Response): void {
  const reader = response.body?.getReader();
  if (!reader) return;
  const next = (): Promise<void> => reader.read().then(({ done }) => (done ? undefined : next()));
  next().catch(() => {});
}
