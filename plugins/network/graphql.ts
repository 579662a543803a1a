// GraphQL operations read from HTTP requests, for the inspector's column and filters and for mock
// rules in the app (so no zod here): a POST's JSON (`query`, `operationName`, a batch of them), a
// POST of `application/graphql`, a GET's `query=`/`operationName=`, and persisted queries (Apollo's
// `extensions.persistedQuery.sha256Hash`) sent without their text.

export type GraphqlType = 'query' | 'mutation' | 'subscription';

export interface GraphqlOperation {
  /** Absent for a persisted query sent by hash alone in a POST (its text is on the server). */
  type?: GraphqlType;
  /** The operation's name; several, comma-separated, for a batch. */
  name?: string;
  /** A persisted query's sha256 hash. */
  hash?: string;
  /** Operations in the request, when more than one. */
  batch?: number;
}

interface Payload {
  query?: unknown;
  operationName?: unknown;
  extensions?: unknown;
}

/** The operation of a request, or undefined when it is not GraphQL. Reads at most 1 MB of body. */
export function graphqlOf(
  method: string,
  url: string,
  contentType: string | undefined,
  body: string | undefined,
): GraphqlOperation | undefined {
  if (method.toUpperCase() === 'GET') {
    let params: URLSearchParams;
    try {
      params = new URL(url).searchParams;
    } catch {
      return undefined;
    }
    const extensions = params.get('extensions');
    return operationOf(
      {
        query: params.get('query') ?? undefined,
        operationName: params.get('operationName') ?? undefined,
        extensions: extensions ? parseJson(extensions) : undefined,
      },
      'query',
    );
  }
  if (!body || body.length > 1_000_000) return undefined;
  const type = contentType?.toLowerCase() ?? '';
  if (type.includes('application/graphql')) return operationOf({ query: body });
  const start = body.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  const parsed = parseJson(body);
  if (Array.isArray(parsed)) {
    const ops = parsed.slice(0, 100).map((p) => operationOf((p ?? {}) as Payload));
    if (ops.length === 0 || ops.some((op) => !op)) return undefined;
    const names = ops.map((op) => op!.name).filter(Boolean);
    return {
      type: ops[0]!.type,
      ...(names.length ? { name: names.join(',') } : {}),
      ...(ops[0]!.hash ? { hash: ops[0]!.hash } : {}),
      ...(parsed.length > 1 ? { batch: parsed.length } : {}),
    };
  }
  return parsed && typeof parsed === 'object' ? operationOf(parsed as Payload) : undefined;
}

/** How many `errors` a GraphQL answer (or a batch of answers) carries; 0 when none or not GraphQL. */
export function graphqlErrors(body: string | undefined): number {
  if (!body || body.length > 10_000_000) return 0;
  const start = body.trimStart()[0];
  if (start !== '{' && start !== '[') return 0;
  const parsed = parseJson(body);
  const answers = Array.isArray(parsed) ? parsed : [parsed];
  let n = 0;
  for (const answer of answers) {
    const errors = (answer as { errors?: unknown } | null)?.errors;
    if (Array.isArray(errors)) n += errors.length;
  }
  return n;
}

/** A GraphQL filter (gql:, the list tool's graphql): the operation's type, or one of its names, case-insensitive. */
export function graphqlMatches(op: GraphqlOperation | undefined, wanted: string): boolean {
  if (!op) return false;
  const w = wanted.trim().toLowerCase();
  return op.type === w || (op.name?.toLowerCase().split(',').includes(w) ?? false);
}

function operationOf(p: Payload, hashType?: GraphqlType): GraphqlOperation | undefined {
  const name = typeof p.operationName === 'string' && p.operationName ? p.operationName : undefined;
  const persisted = (p.extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined)?.persistedQuery;
  const hash = typeof persisted?.sha256Hash === 'string' ? persisted.sha256Hash.slice(0, 128) : undefined;
  if (typeof p.query === 'string' && p.query.trim()) {
    const ops = definitions(p.query);
    if (!ops) return undefined;
    const op = (name && ops.find((o) => o.name === name)) || ops[0];
    if (!op) return undefined;
    return { type: op.type, ...(name || op.name ? { name: name ?? op.name } : {}), ...(hash ? { hash } : {}) };
  }
  if (!hash) return undefined;
  return { ...(hashType ? { type: hashType } : {}), ...(name ? { name } : {}), hash };
}

/**
 * The operations a GraphQL document defines, in order (fragments skipped); undefined when the text
 * does not read as a GraphQL document (a JSON `query` that is a search string, say).
 */
export function definitions(text: string): { type: GraphqlType; name?: string }[] | undefined {
  const tokens = tokenize(text.length > 200_000 ? text.slice(0, 200_000) : text);
  if (!DOCUMENT_STARTS.has(tokens[0] ?? '')) return undefined;
  const out: { type: GraphqlType; name?: string }[] = [];
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (depth === 0) {
      if (t === '{' && !isDefinitionKeyword(tokens, i)) out.push({ type: 'query' });
      else if (t === 'query' || t === 'mutation' || t === 'subscription') {
        const next = tokens[i + 1];
        out.push(next && /^[_A-Za-z]\w*$/.test(next) ? { type: t, name: next } : { type: t });
      }
    }
    if (t === '{' || t === '(') depth++;
    else if (t === '}' || t === ')') depth = Math.max(0, depth - 1);
  }
  return out.length ? out : undefined;
}

const DOCUMENT_STARTS = new Set(['{', 'query', 'mutation', 'subscription', 'fragment']);

/** A `{` at the top level that opens a named definition's selection (after `query Name (...)`, `fragment X on Y`). */
function isDefinitionKeyword(tokens: string[], at: number): boolean {
  for (let j = at - 1; j >= 0; j--) {
    const t = tokens[j]!;
    if (t === '}') return false;
    if (t === 'query' || t === 'mutation' || t === 'subscription' || t === 'fragment') return true;
  }
  return false;
}

/** Names, punctuation and nothing else: comments and strings (block strings too) are skipped. */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length && tokens.length < 100_000) {
    const c = text[i]!;
    if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '"') {
      if (text.startsWith('"""', i)) {
        const end = text.indexOf('"""', i + 3);
        i = end < 0 ? text.length : end + 3;
      } else {
        i++;
        while (i < text.length && text[i] !== '"' && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
        i++;
      }
    } else if (/[_A-Za-z]/.test(c)) {
      const start = i;
      while (i < text.length && /\w/.test(text[i]!)) i++;
      tokens.push(text.slice(start, i));
    } else {
      if ('{}()'.includes(c)) tokens.push(c);
      i++;
    }
  }
  return tokens;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
