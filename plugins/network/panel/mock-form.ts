import { describeIssues } from '../../../shared/zod-issues.js';
import {
  type Message,
  type MockAction,
  type MockMatch,
  type MockRule,
  type MockRuleInput,
  MockRuleInputSchema,
  type Transaction,
} from '../protocol.js';

/** The rule editor's fields, as typed. */
export interface RuleDraft {
  name: string;
  enabled: boolean;
  /** Empty for any method. */
  method: string;
  urlKind: MockMatch['url']['kind'];
  urlValue: string;
  urlFlags: string;
  action: MockAction['type'];
  status: string;
  statusText: string;
  /** One `Name: value` per line. */
  headers: string;
  bodyType: 'none' | 'text' | 'json' | 'base64';
  body: string;
  /** Sent after the body (node:http2, gRPC's grpc-status): one `Name: value` per line. */
  trailers: string;
  delayMs: string;
  errorMessage: string;
  /** A GraphQL operation name the request must carry. */
  graphql: string;
  /** A network error's code (ECONNRESET, …). */
  errorCode: string;
  /** A response body's pace and cut. */
  bytesPerSecond: string;
  cutAfter: string;
  cutEnd: 'stall' | 'reset';
  /** A WebSocket's scripted messages: one per line, `+500 ` before one waits 500 ms first. */
  socketMessages: string;
  closeCode: string;
  closeReason: string;
}

export type DraftField = keyof RuleDraft;

export const EMPTY_DRAFT: RuleDraft = {
  name: '',
  enabled: true,
  method: '',
  urlKind: 'contains',
  urlValue: '',
  urlFlags: '',
  action: 'respond',
  status: '200',
  statusText: '',
  headers: 'content-type: application/json',
  bodyType: 'json',
  body: '{}',
  trailers: '',
  delayMs: '',
  errorMessage: '',
  graphql: '',
  errorCode: '',
  bytesPerSecond: '',
  cutAfter: '',
  cutEnd: 'stall',
  socketMessages: '',
  closeCode: '',
  closeReason: '',
};

export function draftFromRule(rule: MockRule): RuleDraft {
  const { match, action } = rule;
  const draft: RuleDraft = {
    ...EMPTY_DRAFT,
    name: rule.name ?? '',
    enabled: rule.enabled,
    method: match.method && match.method !== '*' ? match.method.toUpperCase() : '',
    urlKind: match.url.kind,
    urlValue: match.url.value,
    urlFlags: match.url.flags ?? '',
    action: action.type,
    delayMs: action.delayMs === undefined ? '' : String(action.delayMs),
    headers: '',
    bodyType: 'none',
    body: '',
    graphql: match.graphql ?? '',
  };
  if (action.type === 'networkError') {
    return { ...draft, errorMessage: action.message ?? '', errorCode: action.code ?? '' };
  }
  if (action.type === 'websocket') {
    return {
      ...draft,
      socketMessages: (action.messages ?? [])
        .map((m) => `${m.delayMs ? `+${m.delayMs} ` : ''}${m.base64 ? `base64:${m.data}` : m.data}`)
        .join('\n'),
      closeCode: action.close ? String(action.close.code ?? 1000) : '',
      closeReason: action.close?.reason ?? '',
    };
  }
  const body = action.body;
  return {
    ...draft,
    bytesPerSecond: action.bytesPerSecond === undefined ? '' : String(action.bytesPerSecond),
    cutAfter: action.cut ? String(action.cut.afterBytes) : '',
    cutEnd: action.cut?.end ?? 'stall',
    status: String(action.status),
    statusText: action.statusText ?? '',
    headers: linesOf(action.headers),
    trailers: linesOf(action.trailers),
    bodyType: body?.type ?? 'none',
    body:
      body?.type === 'json'
        ? JSON.stringify(body.json, null, 2)
        : body?.type === 'text'
          ? body.text
          : body?.type === 'base64'
            ? body.base64
            : '',
  };
}

const linesOf = (fields: Record<string, string> | undefined) =>
  Object.entries(fields ?? {})
    .map(([n, v]) => `${n}: ${v}`)
    .join('\n');

const KEPT_HEADERS = new Set(['content-type', 'cache-control', 'location', 'www-authenticate', 'retry-after']);

/**
 * "Mock this": a rule that answers this request the way it was answered (or with 200 and an empty
 * JSON body); for a WebSocket, one that plays the messages the app received, at their pace, then closes.
 */
export function draftFromTransaction(tx: Transaction, messages: readonly Message[] = []): RuleDraft {
  if (tx.initiator === 'websocket') {
    let last = tx.timing.startedAt + (tx.timing.waitMs ?? 0);
    const lines = messages
      .filter((m) => m.direction === 'received' && !m.truncated && m.opcode !== undefined)
      .slice(0, 1000)
      .map((m) => {
        const wait = Math.max(0, Math.round(m.time - last));
        last = m.time;
        const data = m.encoding === 'base64' ? `base64:${m.data}` : m.data.replace(/\n/g, ' ');
        return `${wait ? `+${wait} ` : ''}${data}`;
      });
    return {
      ...EMPTY_DRAFT,
      name: `WebSocket ${tx.request.url}`.slice(0, 200),
      urlKind: 'exact',
      urlValue: tx.request.url,
      action: 'websocket',
      socketMessages: lines.join('\n'),
      closeCode: tx.close ? String(tx.close.code) : '',
      closeReason: tx.close?.reason ?? '',
    };
  }
  let path = tx.request.url;
  try {
    const u = new URL(tx.request.url);
    path = u.pathname + u.search;
  } catch {
    // keep the whole URL
  }
  const response = tx.response;
  const body = response?.body;
  const headers = (response?.headers ?? []).filter((h) => KEPT_HEADERS.has(h.name.toLowerCase()));
  const draft: RuleDraft = {
    ...EMPTY_DRAFT,
    name: `${tx.request.method.toUpperCase()} ${path}`.slice(0, 200),
    method: tx.request.method.toUpperCase(),
    urlKind: 'exact',
    urlValue: tx.request.url,
    status: String(response && response.status >= 200 ? response.status : 200),
    statusText: response?.statusText ?? '',
    headers: headers.length ? headers.map((h) => `${h.name}: ${h.value}`).join('\n') : EMPTY_DRAFT.headers,
    trailers: (response?.trailers ?? []).map((h) => `${h.name}: ${h.value}`).join('\n'),
  };
  if (!body || body.truncated) return draft;
  if (body.encoding === 'base64') return { ...draft, bodyType: 'base64', body: body.data };
  try {
    return { ...draft, bodyType: 'json', body: JSON.stringify(JSON.parse(body.data), null, 2) };
  } catch {
    return { ...draft, bodyType: 'text', body: body.data };
  }
}

/** The rule the draft describes, or what is wrong with it, field by field. */
export function ruleFromDraft(draft: RuleDraft): { rule?: MockRuleInput; errors: Partial<Record<DraftField, string>> } {
  const errors: Partial<Record<DraftField, string>> = {};
  const num = (field: DraftField, text: string): number | undefined => {
    if (text.trim() === '') return undefined;
    const n = Number(text);
    if (!Number.isInteger(n)) errors[field] = 'a whole number';
    return n;
  };
  const fields = (field: 'headers' | 'trailers'): Record<string, string> | undefined => {
    const out: Record<string, string> = {};
    for (const line of draft[field].split('\n')) {
      if (!line.trim()) continue;
      const colon = line.indexOf(':');
      if (colon <= 0) {
        errors[field] = `"${line.trim()}" is not "Name: value"`;
        continue;
      }
      out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
    return Object.keys(out).length ? out : undefined;
  };
  const headers = fields('headers');
  const trailers = fields('trailers');
  let body: Extract<MockAction, { type: 'respond' }>['body'];
  if (draft.bodyType === 'json') {
    try {
      body = { type: 'json', json: JSON.parse(draft.body) };
    } catch (e) {
      errors.body = `not valid JSON: ${(e as Error).message}`;
    }
  } else if (draft.bodyType === 'text') body = { type: 'text', text: draft.body };
  else if (draft.bodyType === 'base64') body = { type: 'base64', base64: draft.body.replace(/\s+/g, '') };

  const delayMs = num('delayMs', draft.delayMs);
  const cutAfter = num('cutAfter', draft.cutAfter);
  const closeCode = num('closeCode', draft.closeCode);
  const action: MockAction =
    draft.action === 'networkError'
      ? {
          type: 'networkError',
          message: draft.errorMessage.trim() || undefined,
          code: draft.errorCode.trim() || undefined,
          delayMs,
        }
      : draft.action === 'websocket'
        ? {
            type: 'websocket',
            messages: socketMessagesOf(draft.socketMessages),
            close:
              closeCode !== undefined || draft.closeReason.trim()
                ? { code: closeCode, reason: draft.closeReason.trim() || undefined }
                : undefined,
            delayMs,
          }
        : {
            type: 'respond',
            status: num('status', draft.status) ?? Number.NaN,
            statusText: draft.statusText.trim() || undefined,
            headers,
            body,
            trailers,
            delayMs,
            bytesPerSecond: num('bytesPerSecond', draft.bytesPerSecond),
            cut: cutAfter === undefined ? undefined : { afterBytes: cutAfter, end: draft.cutEnd },
          };
  const candidate = {
    name: draft.name.trim() || undefined,
    enabled: draft.enabled,
    match: {
      method: draft.method.trim() || undefined,
      url: { kind: draft.urlKind, value: draft.urlValue, flags: draft.urlFlags.trim() || undefined },
      graphql: draft.graphql.trim() || undefined,
    },
    action,
  };
  const parsed = MockRuleInputSchema.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = FIELD_OF[issue.path.join('.')] ?? 'name';
      errors[field] ??= issue.message;
    }
    if (Object.keys(errors).length === 0) errors.name = describeIssues(parsed.error);
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { rule: candidate as MockRuleInput, errors };
}

/** The scripted messages' lines: `+<ms> ` waits first, `base64:` marks a binary message. */
function socketMessagesOf(text: string): Extract<MockAction, { type: 'websocket' }>['messages'] {
  const messages = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const wait = /^\+(\d+)\s/.exec(line);
      const rest = wait ? line.slice(wait[0].length) : line;
      const binary = rest.startsWith('base64:');
      return {
        data: binary ? rest.slice('base64:'.length).trim() : rest,
        ...(binary ? { base64: true } : {}),
        ...(wait ? { delayMs: Number(wait[1]) } : {}),
      };
    });
  return messages.length ? messages : undefined;
}

const FIELD_OF: Record<string, DraftField> = {
  name: 'name',
  'match.method': 'method',
  'match.url.value': 'urlValue',
  'match.url.flags': 'urlFlags',
  'match.url.kind': 'urlKind',
  'action.status': 'status',
  'action.statusText': 'statusText',
  'action.headers': 'headers',
  'action.trailers': 'trailers',
  'action.body.base64': 'body',
  'action.body.text': 'body',
  'action.body': 'body',
  'action.delayMs': 'delayMs',
  'action.message': 'errorMessage',
  'action.code': 'errorCode',
  'action.bytesPerSecond': 'bytesPerSecond',
  'action.cut.afterBytes': 'cutAfter',
  'action.close.code': 'closeCode',
  'action.close.reason': 'closeReason',
  'match.graphql': 'graphql',
};

// The Mocks tab and the permission prompt describe a rule in the same words.
export { describeAction, describeMatch } from '../mock-describe.js';
