import { describe, expect, it } from 'vitest';
import { compileRegex, globToRegExp, MockRuleInputSchema } from './protocol.js';

// Defect 7 of issue 9: URL patterns of mock rules match in linear time, or are refused saying why.

const long = `http://api.test/${'a'.repeat(600)}`;

describe('mock rule URL patterns', () => {
  it('matches the classic catastrophic patterns correctly on a 600-character URL', () => {
    expect(compileRegex('(a+)+$').test(`${long}!`)).toBe(false);
    expect(compileRegex('(a+)+$').test(long)).toBe(true);
    expect(compileRegex('^(a|aa)+$').test('a'.repeat(600) + 'b')).toBe(false);
    expect(globToRegExp('*a*a*a*b').test(long)).toBe(false);
    expect(globToRegExp('*a*a*a*b').test(`${long}b`)).toBe(true);
    expect(globToRegExp('http://api.test/?aa*').test(long)).toBe(true);
  });

  it('keeps JavaScript-style patterns and flags working', () => {
    expect(compileRegex('/users/\\d+$').test('http://x.test/users/42')).toBe(true);
    expect(compileRegex('/USERS/', 'i').test('http://x.test/users/42')).toBe(true);
    expect(compileRegex('/USERS/').test('http://x.test/users/42')).toBe(false);
    expect(compileRegex('(?<id>\\d+)').test('7')).toBe(true);
    expect(globToRegExp('http://*.test/a+b?c').test('http://x.test/aab?c')).toBe(false);
    expect(globToRegExp('http://*.test/a+b?c').test('http://x.test/a+bxc')).toBe(true);
  });

  it('refuses backreferences and lookaround with a message that says why', () => {
    expect(() => compileRegex('(a)\\1')).toThrow(/cannot be run safely: it uses a backreference/);
    expect(() => compileRegex('api(?=/v2)')).toThrow(/cannot be run safely: it uses a lookahead or lookbehind/);
    expect(() => compileRegex('(?<!x)y')).toThrow(/lookahead or lookbehind/);
    expect(() => compileRegex('(unclosed')).toThrow(/^invalid regular expression \/\(unclosed\/: .*RE2 syntax/);
    const parsed = MockRuleInputSchema.safeParse({
      match: { url: { kind: 'regex', value: '(\\w+)\\1' } },
      action: { type: 'respond', status: 200 },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/cannot be run safely.*, or use kind "glob" or "contains"$/);
  });
});
