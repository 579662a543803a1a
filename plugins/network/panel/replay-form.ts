import {
  type Header,
  REDACTED,
  type ReplayRequest,
  ReplayRequestSchema,
  type ReplayResult,
  type Transaction,
} from '../protocol.js';

// "Edit and resend": the form's fields as typed, prefilled from the captured request, and the
// replay request they make. Only what the person changed is sent as an edit; the rest goes as
// captured (so a redacted header left alone stays the app's to leave out).

export interface ReplayDraft {
  method: string;
  url: string;
  /** One `Name: value` per line. */
  headers: string;
  body: string;
}

export type ReplayField = keyof ReplayDraft;

/** The captured body cannot be shown as text: what the form says instead of prefilling it. */
export function keptBodyNote(tx: Transaction): string | undefined {
  const body = tx.request.body;
  if (!body) return undefined;
  if (body.truncated) {
    return `The captured body was cut at the app's capture cap (${body.size} bytes kept), so it cannot be sent as it was: type the body to send.`;
  }
  if (body.encoding === 'base64') {
    return `The body is binary (${body.size} bytes) and is sent as captured unless you type a text body here.`;
  }
  return undefined;
}

const headerLines = (headers: readonly Header[]) => headers.map((h) => `${h.name}: ${h.value}`).join('\n');

export function draftFromTransaction(tx: Transaction): ReplayDraft {
  const body = tx.request.body;
  return {
    method: tx.request.method.toUpperCase(),
    url: tx.request.url,
    headers: headerLines(tx.request.headers),
    body: body && body.encoding === 'text' && !body.truncated ? body.data : '',
  };
}

/** `Name: value` lines as headers; blank lines are skipped. */
export function parseHeaderLines(text: string): { headers: Header[]; error?: string } {
  const headers: Header[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':', line.startsWith(':') ? 1 : 0);
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!/^:?[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      return { headers, error: `"${line.trim().slice(0, 80)}" is not "Name: value"` };
    }
    headers.push({ name, value: line.slice(colon + 1).trim() });
  }
  return { headers };
}

/** What changed between the captured headers and the typed ones, by name: a new value, or null for gone. */
export function headerEdits(
  captured: readonly Header[],
  typed: readonly Header[],
): Record<string, string | null> | undefined {
  const group = (headers: readonly Header[]) => {
    const out = new Map<string, { name: string; values: string[] }>();
    for (const h of headers) {
      const key = h.name.toLowerCase();
      const entry = out.get(key) ?? { name: h.name, values: [] };
      entry.values.push(h.value);
      out.set(key, entry);
    }
    return out;
  };
  const before = group(captured);
  const after = group(typed);
  const edits: Record<string, string | null> = {};
  for (const [key, { name, values }] of after) {
    const old = before.get(key)?.values;
    if (old && old.length === values.length && old.every((v, i) => v === values[i])) continue;
    // A redacted value left as it was typed in stays redacted: the app leaves that header out.
    if (values.length === 1 && values[0] === REDACTED && old) continue;
    edits[name] = values.join(', ');
  }
  for (const [key, { name }] of before) if (!after.has(key)) edits[name] = null;
  return Object.keys(edits).length ? edits : undefined;
}

/** The replay the form asks for, or what is wrong with it, field by field. */
export function requestFromDraft(
  tx: Transaction,
  draft: ReplayDraft,
): { request?: ReplayRequest; errors: Partial<Record<ReplayField, string>> } {
  const errors: Partial<Record<ReplayField, string>> = {};
  const original = draftFromTransaction(tx);
  const method = draft.method.trim().toUpperCase();
  const url = draft.url.trim();
  const request: ReplayRequest = { id: tx.id };
  if (!method) errors.method = 'a method, e.g. GET or POST';
  else if (method !== original.method) request.method = method;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') errors.url = 'an http or https URL';
  } catch {
    errors.url = 'an absolute URL, e.g. http://localhost:3000/api';
  }
  if (url !== original.url) request.url = url;
  const { headers, error } = parseHeaderLines(draft.headers);
  if (error) errors.headers = error;
  else request.headers = headerEdits(tx.request.headers, headers);
  const kept = keptBodyNote(tx) !== undefined;
  if (kept ? draft.body !== '' : draft.body !== original.body) request.body = draft.body;
  const sendsBody = request.body !== undefined ? request.body !== '' : !!tx.request.body?.size;
  if (sendsBody && (method === 'GET' || method === 'HEAD')) {
    errors.body = `a ${method} request cannot carry a body: choose POST (or another method) or empty the body`;
  }
  if (Object.keys(errors).length === 0) {
    const parsed = ReplayRequestSchema.safeParse(request);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = (issue.path[0] as ReplayField | undefined) ?? 'url';
        errors[field in original ? field : 'url'] ??= issue.message;
      }
    }
  }
  if (Object.keys(errors).length > 0) return { errors };
  if (!request.headers) delete request.headers;
  return { request, errors };
}

/** What the window says once a replay went out. */
export function describeReplay(result: ReplayResult): string {
  const tx = result.transaction;
  const outcome = !tx
    ? 'Replay sent.'
    : tx.state === 'failed'
      ? `Replay of ${tx.method} ${tx.url} failed${tx.error && !result.note ? `: ${tx.error}` : ''}.`
      : tx.state === 'pending'
        ? `Replaying ${tx.method} ${tx.url}…`
        : `Replayed ${tx.method} ${tx.url}: ${tx.status}.`;
  return result.note ? `${outcome} ${result.note}` : outcome;
}
