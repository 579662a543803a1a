import { graphqlOf } from '../graphql.js';
import type { MockConfig, MockMatch, MockRule } from '../protocol.js';

/** What a rule is matched against: the request as the agent sees it. */
export interface MatchableRequest {
  method: string;
  url: string;
  /** Header lookup, case-insensitive (a Fetch `Headers` fits). */
  header(name: string): string | null;
  /** The request body as text (the captured part), or undefined when there is none. */
  bodyText: string | undefined;
}

type Test = (request: MatchableRequest) => boolean;

export interface CompiledRule {
  rule: MockRule;
  test: Test;
  /** False when the method and URL alone rule a request out (checked before its headers and body exist). */
  mayMatch(method: string, url: string): boolean;
}

/**
 * How URL patterns compile: RE2 in browsers and Node (shared/safe-regex.ts, loaded with the first
 * rule), a hand-written glob and no regex in React Native (url-glob.ts), where Metro would bundle RE2 whole.
 */
export interface UrlPatterns {
  compileRegex(pattern: string, flags?: string): { test(url: string): boolean };
  globToRegExp(glob: string): { test(url: string): boolean };
}

/** Compiles every rule once; throws with the rule's id when one cannot be compiled. */
export function compileMockConfig(config: MockConfig, urls: UrlPatterns): CompiledRule[] {
  return config.rules.map((rule) => {
    try {
      const early = compileEarly(rule.match, urls);
      return {
        rule,
        test: compileMatch(rule.match, early),
        mayMatch: (method, url) => early.every((t) => t({ method, url, header: () => null, bodyText: undefined })),
      };
    } catch (e) {
      throw new Error(`mock rule ${rule.id}${rule.name ? ` ("${rule.name}")` : ''}: ${(e as Error).message}`);
    }
  });
}

/**
 * The first enabled rule that matches, when mocking is on. A WebSocket is answered only by a
 * `websocket` or `networkError` rule; an HTTP request never by a `websocket` rule.
 */
export function findMatchingRule(
  enabled: boolean,
  rules: readonly CompiledRule[],
  request: MatchableRequest,
  socket = false,
): MockRule | undefined {
  if (!enabled) return undefined;
  for (const { rule, test } of rules) {
    const kind = rule.action.type;
    const fits = socket ? kind === 'websocket' || kind === 'networkError' : kind !== 'websocket';
    if (rule.enabled && fits && test(request)) return rule;
  }
  return undefined;
}

/** True when a rule needs the request body to decide. */
export function needsBody(rules: readonly CompiledRule[]): boolean {
  return rules.some(
    ({ rule }) => rule.enabled && (rule.match.bodyContains !== undefined || rule.match.graphql !== undefined),
  );
}

/** True when some enabled rule for HTTP requests could match one with this method and URL. */
export function mayMatchAny(enabled: boolean, rules: readonly CompiledRule[], method: string, url: string): boolean {
  return enabled && rules.some((r) => r.rule.enabled && r.rule.action.type !== 'websocket' && r.mayMatch(method, url));
}

export function compileMatch(match: MockMatch, early: Test[]): Test {
  const tests = [...early];
  for (const condition of match.headers ?? []) {
    tests.push((r) => valueMatches(r.header(condition.name), condition));
  }
  if (match.bodyContains !== undefined) {
    const needle = match.bodyContains;
    tests.push((r) => r.bodyText?.includes(needle) ?? false);
  }
  if (match.graphql !== undefined) {
    const name = match.graphql;
    tests.push((r) => {
      const op = graphqlOf(r.method, r.url, r.header('content-type') ?? undefined, r.bodyText);
      return op?.name?.split(',').includes(name) ?? false;
    });
  }
  return (r) => tests.every((t) => t(r));
}

/** The tests on the method and the URL (its query among them). */
function compileEarly(match: MockMatch, urls: UrlPatterns): Test[] {
  const tests: Test[] = [];
  const method = match.method?.toUpperCase();
  if (method && method !== '*') tests.push((r) => r.method.toUpperCase() === method);

  const { kind, value, flags } = match.url;
  if (kind === 'contains') tests.push((r) => r.url.includes(value));
  else if (kind === 'exact') tests.push((r) => r.url === value);
  else {
    const regex = kind === 'regex' ? urls.compileRegex(value, flags) : urls.globToRegExp(value);
    tests.push((r) => regex.test(r.url));
  }

  if (match.query?.length) {
    const conditions = match.query;
    tests.push((r) => {
      let params: URLSearchParams;
      try {
        params = new URL(r.url).searchParams;
      } catch {
        return false;
      }
      return conditions.every((c) => params.getAll(c.name).some((v) => valueMatches(v, c)));
    });
  }
  return tests;
}

function valueMatches(actual: string | null, condition: { equals?: string; contains?: string }): boolean {
  if (actual === null) return false;
  if (condition.equals !== undefined && actual !== condition.equals) return false;
  if (condition.contains !== undefined && !actual.includes(condition.contains)) return false;
  return true;
}
