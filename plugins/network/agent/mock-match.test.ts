import { describe, expect, it } from 'vitest';
import * as safeRegex from '../../../shared/safe-regex.js';
import { type MockConfig, type MockRule, MockRuleInputSchema } from '../protocol.js';
import { compileMockConfig, findMatchingRule, type MatchableRequest } from './mock-match.js';

const request = (
  overrides: Partial<MatchableRequest> & { headers?: Record<string, string> } = {},
): MatchableRequest => {
  const headers = new Headers(overrides.headers);
  return {
    method: 'GET',
    url: 'https://api.test/v1/users/42?expand=team&tag=a&tag=b',
    header: (name) => headers.get(name),
    bodyText: undefined,
    ...overrides,
  };
};
const rule = (id: string, match: MockRule['match'], enabled = true): MockRule => ({
  id,
  enabled,
  match,
  action: { type: 'respond', status: 200 },
});
const first = (rules: MockRule[], r: MatchableRequest, enabled = true) => {
  const config: MockConfig = { revision: 1, enabled, rules };
  return findMatchingRule(config.enabled, compileMockConfig(config, safeRegex), r)?.id;
};

describe('mock rule matching', () => {
  it('matches URLs by contains, exact, regex and glob', () => {
    const r = request();
    expect(first([rule('c', { url: { kind: 'contains', value: '/users/' } })], r)).toBe('c');
    expect(first([rule('e', { url: { kind: 'exact', value: 'https://api.test/v1/users/42' } })], r)).toBeUndefined();
    expect(first([rule('e', { url: { kind: 'exact', value: r.url } })], r)).toBe('e');
    expect(first([rule('r', { url: { kind: 'regex', value: 'USERS/\\d+', flags: 'i' } })], r)).toBe('r');
    expect(first([rule('r', { url: { kind: 'regex', value: 'USERS/\\d+' } })], r)).toBeUndefined();
    expect(first([rule('g', { url: { kind: 'glob', value: 'https://api.test/*/users/*' } })], r)).toBe('g');
    expect(first([rule('g', { url: { kind: 'glob', value: 'https://api.test/v?/users' } })], r)).toBeUndefined();
    expect(first([rule('g', { url: { kind: 'glob', value: '*.test/v1/users/4?*' } })], r)).toBe('g');
  });

  it('uses the first enabled match, and nothing while mocking is off', () => {
    const rules = [
      rule('off', { url: { kind: 'contains', value: 'users' } }, false),
      rule('post', { method: 'POST', url: { kind: 'contains', value: 'users' } }),
      rule('any', { method: '*', url: { kind: 'contains', value: 'users' } }),
      rule('later', { url: { kind: 'contains', value: 'users' } }),
    ];
    expect(first(rules, request())).toBe('any');
    expect(first(rules, request({ method: 'post' }))).toBe('post');
    expect(first(rules, request(), false)).toBeUndefined();
  });

  it('checks header, query and body conditions', () => {
    const url = { kind: 'contains' as const, value: 'api.test' };
    const withAuth = rule('h', { url, headers: [{ name: 'Authorization' }] });
    expect(first([withAuth], request())).toBeUndefined();
    expect(first([withAuth], request({ headers: { authorization: 'x' } }))).toBe('h');
    const equals = rule('he', { url, headers: [{ name: 'x-env', equals: 'prod' }] });
    expect(first([equals], request({ headers: { 'x-env': 'production' } }))).toBeUndefined();
    expect(first([equals], request({ headers: { 'x-env': 'prod' } }))).toBe('he');

    expect(first([rule('q', { url, query: [{ name: 'tag', equals: 'b' }] })], request())).toBe('q');
    expect(first([rule('q', { url, query: [{ name: 'expand', contains: 'tea' }] })], request())).toBe('q');
    expect(first([rule('q', { url, query: [{ name: 'missing' }] })], request())).toBeUndefined();

    const body = rule('b', { url, bodyContains: '"role":"admin"' });
    expect(first([body], request())).toBeUndefined();
    expect(first([body], request({ bodyText: '{"name":"x","role":"admin"}' }))).toBe('b');
  });

  it('refuses a bad regex when the rule is made, naming the problem', () => {
    const parsed = MockRuleInputSchema.safeParse({
      match: { url: { kind: 'regex', value: '([a-z]+' } },
      action: { type: 'respond', status: 200 },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['match', 'url', 'value'] });
    expect(parsed.error?.issues[0]?.message).toMatch(/^invalid regular expression \/\(\[a-z\]\+\/: /);
    expect(() =>
      compileMockConfig(
        { revision: 1, enabled: true, rules: [rule('bad', { url: { kind: 'regex', value: '(' } })] },
        safeRegex,
      ),
    ).toThrow(/mock rule bad: invalid regular expression/);
  });
});
