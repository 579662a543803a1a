import { keyForm } from '../../../shared/redaction.js';
import { compileRegex } from '../../../shared/safe-regex.js';
import {
  type Body,
  type Header,
  REDACTED,
  type RedactionRules,
  type Transaction,
  type TransactionSummary,
} from '../protocol.js';

// The one place that decides what leaves the inspector: every MCP result carrying request data, the
// HAR exports and the window's "Agent view" go through `redactForAgent` (the window keeps all).

interface Compiled {
  headers: Set<string>;
  query: Set<string>;
  fieldNames: Set<string>;
  fieldPaths: Set<string>;
  patterns: ((text: string, replacement: string) => string)[];
}

const compiledRules = new WeakMap<RedactionRules, Compiled>();

function compile(rules: RedactionRules): Compiled {
  let compiled = compiledRules.get(rules);
  if (compiled) return compiled;
  const lower = (names: string[]) => new Set(names.map(keyForm));
  const fields = rules.bodyFields.map((f) => f.split('.').map(keyForm).join('.'));
  compiled = {
    headers: lower(rules.headers),
    query: lower(rules.query),
    fieldNames: new Set(fields.filter((f) => !f.includes('.'))),
    fieldPaths: new Set(fields.filter((f) => f.includes('.'))),
    patterns: rules.patterns.map((p) => {
      const re = compileRegex(p);
      return (text: string, replacement: string) => re.replaceAll(text, replacement);
    }),
  };
  compiledRules.set(rules, compiled);
  return compiled;
}

/**
 * The transaction as an agent may see it: header values the app hid from MCP (redaction scope
 * `mcp`) and those the rules name, query parameters and JSON or form body fields the rules name, and
 * every match of the rules' patterns in URLs, header values and text bodies, replaced by `[redacted]`.
 */
export function redactForAgent(tx: Transaction, rules: RedactionRules): Transaction {
  const c = compile(rules);
  const hidden = new Set([...c.headers, ...(tx.sensitiveHeaders ?? []).map(keyForm)]);
  const headers = (list: Header[]) =>
    list.map((h) =>
      hidden.has(keyForm(h.name))
        ? { name: h.name, value: REDACTED }
        : { name: h.name, value: applyPatterns(h.value, c) },
    );
  return {
    ...tx,
    request: {
      ...tx.request,
      url: redactUrlWith(tx.request.url, c),
      headers: headers(tx.request.headers),
      body: redactBody(tx.request.body, c),
    },
    response: tx.response && {
      ...tx.response,
      ...(tx.response.url !== undefined ? { url: redactUrlWith(tx.response.url, c) } : {}),
      headers: headers(tx.response.headers),
      ...(tx.response.trailers ? { trailers: headers(tx.response.trailers) } : {}),
      body: redactBody(tx.response.body, c),
    },
    ...(tx.error ? { error: { ...tx.error, message: applyPatterns(tx.error.message, c) } } : {}),
  };
}

/** A list entry as an agent may see it: its URL redacted as in `redactForAgent`. */
export function redactSummary(summary: TransactionSummary, rules: RedactionRules): TransactionSummary {
  const c = compile(rules);
  return {
    ...summary,
    url: redactUrlWith(summary.url, c),
    ...(summary.error !== undefined ? { error: applyPatterns(summary.error, c) } : {}),
  };
}

/** A WebSocket message or event as an agent may see it: its text redacted as a JSON or text body is. */
export function redactMessage<M extends { encoding: 'text' | 'base64'; data: string }>(m: M, rules: RedactionRules): M {
  if (m.encoding !== 'text') return m;
  const body = redactBody({ encoding: 'text', data: m.data, size: 0, truncated: false }, compile(rules));
  return !body || body.data === m.data ? m : { ...m, data: body.data };
}

export function redactUrl(url: string, rules: RedactionRules): string {
  return redactUrlWith(url, compile(rules));
}

function applyPatterns(text: string, c: Compiled): string {
  let out = text;
  for (const replace of c.patterns) out = replace(out, REDACTED);
  return out;
}

function redactUrlWith(url: string, c: Compiled): string {
  const q = url.indexOf('?');
  if (q < 0 || c.query.size === 0) return applyPatterns(url, c);
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const rest = hash < 0 ? '' : url.slice(hash);
  return applyPatterns(`${url.slice(0, q + 1)}${redactPairs(query, c.query)}${rest}`, c);
}

/** `a=1&b=2` with the values of the named parameters replaced; everything else byte for byte. */
function redactPairs(pairs: string, names: Set<string>): string {
  return pairs
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      return eq >= 0 && names.has(keyForm(decodeName(rawName))) ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
}

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

function redactBody(body: Body | undefined, c: Compiled): Body | undefined {
  if (body?.encoding !== 'text') return body;
  let data = body.data;
  const type = body.contentType?.toLowerCase() ?? '';
  const fieldCount = c.fieldNames.size + c.fieldPaths.size;
  if (fieldCount > 0) {
    if (type.includes('application/x-www-form-urlencoded')) {
      data = redactPairs(data, new Set([...c.fieldNames, ...c.query]));
    } else if (type.includes('json') || /^\s*[[{]/.test(data)) {
      data = redactJson(data, c);
    }
  }
  data = applyPatterns(data, c);
  return data === body.data ? body : { ...body, data };
}

function redactJson(text: string, c: Compiled): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return redactJsonText(text, c.fieldNames);
  }
  let changed = false;
  const walk = (value: unknown, path: string[]): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, path));
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const at = [...path, keyForm(key)];
      if (c.fieldNames.has(at[at.length - 1] as string) || c.fieldPaths.has(at.join('.'))) {
        out[key] = REDACTED;
        changed = true;
      } else out[key] = walk(v, at);
    }
    return out;
  };
  const redacted = walk(parsed, []);
  if (!changed) return text;
  return JSON.stringify(redacted, null, /\n\s/.test(text) ? 2 : undefined);
}

/** A body cut at the capture cap is no longer JSON: the named fields' string and plain values are replaced where they appear. */
function redactJsonText(text: string, names: Set<string>): string {
  if (names.size === 0) return text;
  return text.replace(/"((?:[^"\\]|\\.){1,200})"(\s*:\s*)("(?:[^"\\]|\\.)*"?|[^,}\]\s]+)/g, (whole, key, colon) =>
    names.has(keyForm(String(key))) ? `"${key}"${colon}"${REDACTED}"` : whole,
  );
}
