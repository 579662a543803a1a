import { compileRegex, globToRegExp } from '../../../shared/safe-regex.js';
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

/** Compiles every rule once; throws with the rule's id when one cannot be compiled. */
export function compileMockConfig(config: MockConfig): CompiledRule[] {
  return config.rules.map((rule) => {
    try {
      const early = compileEarly(rule.match);
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

/** The first enabled rule that matches, when mocking is on. */
export function findMatchingRule(
  enabled: boolean,
  rules: readonly CompiledRule[],
  request: MatchableRequest,
): MockRule | undefined {
  if (!enabled) return undefined;
  for (const { rule, test } of rules) if (rule.enabled && test(request)) return rule;
  return undefined;
}

/** True when a rule needs the request body to decide. */
export function needsBody(rules: readonly CompiledRule[]): boolean {
  return rules.some(({ rule }) => rule.enabled && rule.match.bodyContains !== undefined);
}

/** True when some enabled rule could match a request with this method and URL. */
export function mayMatchAny(enabled: boolean, rules: readonly CompiledRule[], method: string, url: string): boolean {
  return enabled && rules.some((r) => r.rule.enabled && r.mayMatch(method, url));
}

export function compileMatch(match: MockMatch, early = compileEarly(match)): Test {
  const tests = [...early];
  for (const condition of match.headers ?? []) {
    tests.push((r) => valueMatches(r.header(condition.name), condition));
  }
  if (match.bodyContains !== undefined) {
    const needle = match.bodyContains;
    tests.push((r) => r.bodyText?.includes(needle) ?? false);
  }
  return (r) => tests.every((t) => t(r));
}

/** The tests on the method and the URL (its query among them). */
function compileEarly(match: MockMatch): Test[] {
  const tests: Test[] = [];
  const method = match.method?.toUpperCase();
  if (method && method !== '*') tests.push((r) => r.method.toUpperCase() === method);

  const { kind, value, flags } = match.url;
  if (kind === 'contains') tests.push((r) => r.url.includes(value));
  else if (kind === 'exact') tests.push((r) => r.url === value);
  else {
    const regex = kind === 'regex' ? compileRegex(value, flags) : globToRegExp(value);
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
