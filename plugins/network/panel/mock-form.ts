import { describeIssues } from '../../../shared/zod-issues.js';
import {
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
  delayMs: string;
  errorMessage: string;
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
  delayMs: '',
  errorMessage: '',
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
  };
  if (action.type === 'networkError') return { ...draft, errorMessage: action.message ?? '' };
  const body = action.body;
  return {
    ...draft,
    status: String(action.status),
    statusText: action.statusText ?? '',
    headers: Object.entries(action.headers ?? {})
      .map(([n, v]) => `${n}: ${v}`)
      .join('\n'),
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

const KEPT_HEADERS = new Set(['content-type', 'cache-control', 'location', 'www-authenticate', 'retry-after']);

/** "Mock this": a rule that answers this request the way it was answered (or with 200 and an empty JSON body). */
export function draftFromTransaction(tx: Transaction): RuleDraft {
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
  const headers: Record<string, string> = {};
  for (const line of draft.headers.split('\n')) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) {
      errors.headers = `"${line.trim()}" is not "Name: value"`;
      continue;
    }
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
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
  const action: MockAction =
    draft.action === 'networkError'
      ? { type: 'networkError', message: draft.errorMessage.trim() || undefined, delayMs }
      : {
          type: 'respond',
          status: num('status', draft.status) ?? Number.NaN,
          statusText: draft.statusText.trim() || undefined,
          headers: Object.keys(headers).length ? headers : undefined,
          body,
          delayMs,
        };
  const candidate = {
    name: draft.name.trim() || undefined,
    enabled: draft.enabled,
    match: {
      method: draft.method.trim() || undefined,
      url: { kind: draft.urlKind, value: draft.urlValue, flags: draft.urlFlags.trim() || undefined },
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

const FIELD_OF: Record<string, DraftField> = {
  name: 'name',
  'match.method': 'method',
  'match.url.value': 'urlValue',
  'match.url.flags': 'urlFlags',
  'match.url.kind': 'urlKind',
  'action.status': 'status',
  'action.statusText': 'statusText',
  'action.headers': 'headers',
  'action.body.base64': 'body',
  'action.body.text': 'body',
  'action.body': 'body',
  'action.delayMs': 'delayMs',
  'action.message': 'errorMessage',
};

// The Mocks tab and the permission prompt describe a rule in the same words.
export { describeAction, describeMatch } from '../mock-describe.js';
