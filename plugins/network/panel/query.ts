import { compileRegex } from '../../../shared/safe-regex.js';
import { graphqlMatches } from '../graphql.js';
import { isFailure, type TransactionSummary } from '../protocol.js';
import { shortType } from './format.js';

// The filter box's query language, as DevTools users type it: free text and /regex/ over the URL,
// `-` to negate, and key:value terms (status:5xx, method:POST, domain:, type:json, larger-than:100k,
// is:failed, …). Terms combine with AND. Parsed once into a predicate over the table's summaries.

/** A summary with its URL lowercased once (the model keeps both). */
export interface Row {
  tx: TransactionSummary;
  lowerUrl: string;
}

export type Test = (row: Row) => boolean;

export interface Term {
  /** The term as typed, `-` included: what the "remove it" hint names. */
  text: string;
  negated: boolean;
  test: Test;
}

export interface Query {
  /** The text this was parsed from. */
  source: string;
  terms: Term[];
  /** Terms that could not be read (a bad regex, an unknown is: value); they are left out of the predicate. */
  errors: string[];
  /** True for a query that lets everything through. */
  empty: boolean;
  matches(row: Row): boolean;
}

export interface KeySpec {
  key: string;
  /** What it does, for the suggestion list. */
  help: string;
  /** Example values offered after `key:`, beside the ones seen in the data. */
  values: string[];
}

export const KEYS: KeySpec[] = [
  { key: 'status', help: 'status code or class: 404, 5xx, 4xx,5xx', values: ['2xx', '3xx', '4xx', '5xx', '4xx,5xx'] },
  { key: 'method', help: 'HTTP method: GET, POST, …', values: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
  { key: 'domain', help: 'host name; *.example.com for subdomains', values: [] },
  {
    key: 'type',
    help: 'response type: json, html, js, css, image, text',
    values: ['json', 'html', 'js', 'image', 'text'],
  },
  { key: 'larger-than', help: 'response larger than a size: 500, 100k, 1M', values: ['1k', '10k', '100k', '1M'] },
  {
    key: 'is',
    help: 'failed (network error, HTTP ≥ 400 or GraphQL errors), mocked, pending, imported, replay, graphql',
    values: ['failed', 'mocked', 'pending', 'imported', 'replay', 'graphql'],
  },
  {
    key: 'initiator',
    help: 'what issued it: fetch, xhr, http, websocket, eventsource, har',
    values: ['fetch', 'xhr', 'http', 'websocket', 'eventsource'],
  },
  {
    key: 'gql',
    help: 'GraphQL operation: its name (GetCart) or type (query, mutation, subscription)',
    values: ['query', 'mutation', 'subscription'],
  },
  { key: 'scheme', help: 'URL scheme: http, https', values: ['http', 'https'] },
];

const IS: Record<string, Test> = {
  failed: ({ tx }) => isFailure(tx.state, tx.status, tx.graphql, tx.grpc),
  mocked: ({ tx }) => tx.mockRuleId !== undefined,
  pending: ({ tx }) => tx.state === 'pending',
  running: ({ tx }) => tx.state === 'pending',
  imported: ({ tx }) => tx.imported === true,
  replay: ({ tx }) => tx.replayOf !== undefined,
  graphql: ({ tx }) => tx.graphql !== undefined,
};

const ALIASES: Record<string, string> = {
  graphql: 'gql',
  'status-code': 'status',
  'resource-type': 'type',
  'mime-type': 'type',
};

/** Splits on spaces outside double quotes; a quote pair is removed (`domain:"a b"` → `domain:a b`). */
export function tokenize(source: string): { text: string; start: number; end: number }[] {
  const tokens: { text: string; start: number; end: number }[] = [];
  let i = 0;
  while (i < source.length) {
    while (i < source.length && /\s/.test(source[i]!)) i++;
    if (i >= source.length) break;
    const start = i;
    let text = '';
    let quoted = false;
    // A /regex/ keeps its spaces and quotes up to the closing slash.
    const regex = /^-?\//.test(source.slice(i)) ? /^-?\/(?:\\.|[^/\\])+\/[a-z]*(?=\s|$)/.exec(source.slice(i)) : null;
    if (regex) {
      text = regex[0];
      i += text.length;
    } else {
      while (i < source.length && (quoted || !/\s/.test(source[i]!))) {
        if (source[i] === '"') quoted = !quoted;
        else text += source[i];
        i++;
      }
    }
    tokens.push({ text, start, end: i });
  }
  return tokens;
}

/** Parses the filter box once; `matches` then runs over every row. */
export function parseQuery(source: string): Query {
  const terms: Term[] = [];
  const errors: string[] = [];
  for (const { text } of tokenize(source)) {
    const negated = text.startsWith('-') && text.length > 1;
    const body = negated ? text.slice(1) : text;
    if (body === '') continue;
    try {
      const test = termTest(body);
      terms.push({ text, negated, test: negated ? (row) => !test(row) : test });
    } catch (e) {
      errors.push((e as Error).message);
    }
  }
  const tests = terms.map((t) => t.test);
  const matches =
    tests.length === 0
      ? () => true
      : tests.length === 1
        ? tests[0]!
        : (row: Row) => {
            for (const test of tests) if (!test(row)) return false;
            return true;
          };
  return { source, terms, errors, empty: terms.length === 0, matches };
}

function termTest(body: string): Test {
  const regex = /^\/(.+)\/([a-z]*)$/.exec(body);
  if (regex) {
    const re = compileRegex(regex[1]!, `${regex[2]}i`, 'or drop the slashes to look for the text itself');
    return ({ tx }) => re.test(tx.url);
  }
  const colon = body.indexOf(':');
  const rawKey = colon > 0 ? body.slice(0, colon).toLowerCase() : '';
  const key = ALIASES[rawKey] ?? rawKey;
  const value = colon > 0 ? body.slice(colon + 1) : '';
  if (!key || !KEYS.some((k) => k.key === key)) {
    // Free text (and unknown keys, like DevTools: "foo:bar" is looked for in the URL).
    const needle = body.toLowerCase();
    return ({ lowerUrl }) => lowerUrl.includes(needle);
  }
  if (value === '')
    throw new Error(`${body} needs a value, e.g. ${key}:${KEYS.find((k) => k.key === key)!.values[0] ?? '…'}`);
  switch (key) {
    case 'status':
      return anyOf(value.split(',').filter(Boolean).map(statusTest));
    case 'method': {
      const methods = new Set(value.toUpperCase().split(','));
      return ({ tx }) => methods.has(tx.method.toUpperCase());
    }
    case 'domain':
      return anyOf(value.toLowerCase().split(',').filter(Boolean).map(domainTest));
    case 'type': {
      const types = new Set(value.toLowerCase().split(','));
      return ({ tx }) => typeMatches(tx.responseType, types);
    }
    case 'larger-than': {
      const size = parseSize(value);
      if (size === undefined)
        throw new Error(`${body}: the size is a number with an optional k or M, e.g. larger-than:100k`);
      return ({ tx }) => (tx.responseSize ?? 0) > size;
    }
    case 'is': {
      const tests = value
        .toLowerCase()
        .split(',')
        .map((v) => {
          const test = IS[v];
          if (!test)
            throw new Error(
              `is:${v} is not known; use is:failed, is:mocked, is:pending, is:imported, is:replay or is:graphql`,
            );
          return test;
        });
      return anyOf(tests);
    }
    case 'initiator': {
      const initiators = new Set(value.toLowerCase().split(','));
      return ({ tx }) => initiators.has(tx.initiator);
    }
    case 'gql': {
      const names = value.split(',').filter(Boolean);
      return ({ tx }) => names.some((name) => graphqlMatches(tx.graphql, name));
    }
    case 'scheme': {
      const prefixes = value
        .toLowerCase()
        .split(',')
        .map((s) => `${s}:`);
      return ({ lowerUrl }) => prefixes.some((p) => lowerUrl.startsWith(p));
    }
  }
  throw new Error(`unhandled key ${key}`);
}

function anyOf(tests: Test[]): Test {
  return tests.length === 1 ? tests[0]! : (row) => tests.some((t) => t(row));
}

function statusTest(value: string): Test {
  const v = value.toLowerCase();
  if (v === 'pending') return IS.pending!;
  if (v === 'failed') return ({ tx }) => tx.state === 'failed';
  const cls = /^([1-5])xx$/.exec(v);
  if (cls) {
    const low = Number(cls[1]) * 100;
    return ({ tx }) => tx.status !== undefined && tx.status >= low && tx.status <= low + 99;
  }
  const range = /^(\d{3})-(\d{3})$/.exec(v);
  if (range) {
    const [low, high] = [Number(range[1]), Number(range[2])];
    return ({ tx }) => tx.status !== undefined && tx.status >= low && tx.status <= high;
  }
  if (/^\d{1,3}$/.test(v)) {
    const code = Number(v);
    return ({ tx }) => tx.status === code;
  }
  throw new Error(
    `status:${value} is not a status; use a code (404), a class (5xx), a range (400-499) or a list (4xx,5xx)`,
  );
}

function domainTest(value: string): Test {
  const wildcard = value.startsWith('*.');
  const suffix = wildcard ? value.slice(1) : value;
  return ({ lowerUrl }) => {
    const host = hostOf(lowerUrl);
    return wildcard ? host.endsWith(suffix) || host === suffix.slice(1) : host === value;
  };
}

/** The host of a lowercased URL without building a URL object (100,000 rows per keystroke). */
export function hostOf(lowerUrl: string): string {
  const scheme = lowerUrl.indexOf('://');
  if (scheme < 0) return '';
  const start = scheme + 3;
  let end = start;
  while (end < lowerUrl.length && !'/?#'.includes(lowerUrl[end]!)) end++;
  const authority = lowerUrl.slice(start, end);
  const at = authority.lastIndexOf('@');
  const hostPort = at >= 0 ? authority.slice(at + 1) : authority;
  if (hostPort.startsWith('[')) return hostPort.slice(0, hostPort.indexOf(']') + 1);
  const colon = hostPort.indexOf(':');
  return colon >= 0 ? hostPort.slice(0, colon) : hostPort;
}

const CATEGORY: Record<string, (short: string, mime: string) => boolean> = {
  image: (_s, mime) => mime.startsWith('image/'),
  img: (_s, mime) => mime.startsWith('image/'),
  font: (_s, mime) => mime.startsWith('font/') || mime.includes('font'),
  media: (_s, mime) => mime.startsWith('audio/') || mime.startsWith('video/'),
  doc: (s) => s === 'html',
  document: (s) => s === 'html',
  script: (s) => s === 'js',
  stylesheet: (s) => s === 'css',
};

function typeMatches(contentType: string | undefined, types: Set<string>): boolean {
  if (!contentType) return types.has('none');
  const short = shortType(contentType);
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  for (const t of types) {
    if (t === short || t === mime || CATEGORY[t]?.(short, mime)) return true;
  }
  return false;
}

/** "500", "100k", "1.5M" (DevTools: k is 1,000, M is 1,000,000) → bytes. */
export function parseSize(value: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(k|kb|m|mb)?$/i.exec(value.trim());
  if (!m) return undefined;
  const unit = m[2]?.toLowerCase()[0];
  return Number(m[1]) * (unit === 'k' ? 1000 : unit === 'm' ? 1_000_000 : 1);
}

/** Why nothing matched and how to widen it: for each term, how many rows match without it. */
export function explainEmpty(query: Query, rows: readonly Row[]): { term: string; without: number }[] {
  return query.terms
    .map((term, i) => {
      const others = query.terms.filter((_, j) => j !== i).map((t) => t.test);
      let without = 0;
      for (const row of rows) if (others.every((t) => t(row))) without++;
      return { term: term.text, without };
    })
    .filter((e) => e.without > 0)
    .sort((a, b) => b.without - a.without);
}

/** The query without one of its terms (by the text it was typed as). */
export function removeTerm(source: string, term: string): string {
  const token = tokenize(source).find((t) => t.text === term || source.slice(t.start, t.end) === term);
  if (!token) return source;
  return `${source.slice(0, token.start)}${source.slice(token.end)}`.replace(/\s{2,}/g, ' ').trim();
}
