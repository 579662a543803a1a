import { describe, expect, it } from 'vitest';
import {
  compileRegex,
  globToRegExp,
  literalRegex,
  MAX_PATTERN_CHARS,
  RegexError,
  slashPattern,
  textFilterRegex,
} from './safe-regex.js';

// Issue 30, stall 1: every regex run over text the inspector did not write goes through here.
// Patterns that backtrack for ever in JavaScript's engine answer at once, and correctly.

const line = 'a'.repeat(5000);

describe('compileRegex', () => {
  it('answers the classic catastrophic patterns over long text, correctly', () => {
    expect(compileRegex('(a+)+$').test(`${line}!`)).toBe(false);
    expect(compileRegex('(a+)+$').test(line)).toBe(true);
    expect(compileRegex('^(a|aa)+$').test(`${line}b`)).toBe(false);
    expect(compileRegex('(\\w+\\s?)*$').test(`${'word '.repeat(2000)}!`)).toBe(true);
    expect(compileRegex('(.*a){20}').test(line)).toBe(true);
    expect(compileRegex('[a-z]+x').test(line)).toBe(false);
    expect(globToRegExp('*a*a*a*b').test(line)).toBe(false);
    expect(globToRegExp('*a*a*a*b').test(`${line}b`)).toBe(true);
  });

  it('reads JavaScript patterns and flags as JavaScript does', () => {
    expect(compileRegex('/users/\\d+$').test('http://x.test/users/42')).toBe(true);
    expect(compileRegex('USERS', 'i').test('users')).toBe(true);
    expect(compileRegex('USERS').test('users')).toBe(false);
    expect(compileRegex('(?<id>\\d+)').test('7')).toBe(true);
    expect(compileRegex('\\u0041\\u{42}').test('AB')).toBe(true);
    expect(compileRegex('\\uD83D\\uDE00').test('smile 😀')).toBe(true);
    expect(compileRegex('\\cJ').test('a\nb')).toBe(true);
    expect(compileRegex('a[^]b').test('a\nb')).toBe(true);
    expect(compileRegex('^b', 'm').test('a\nb')).toBe(true);
    expect(compileRegex('^b').test('a\nb')).toBe(false);
    expect(compileRegex('a.b', 's').test('a\nb')).toBe(true);
    expect(compileRegex('a.b').test('a\nb')).toBe(false);
    expect(compileRegex('x', 'gyu').flags).toBe('');
  });

  it('refuses what needs backtracking, saying what to change', () => {
    expect(() => compileRegex('(a)\\1')).toThrow(
      /cannot be run safely: it uses a backreference.*rewrite it without: match the group’s text again/,
    );
    expect(() => compileRegex('(?<q>["\'])x\\k<q>')).toThrow(/a backreference/);
    expect(() => compileRegex('api(?=/v2)')).toThrow(/it uses a lookahead or lookbehind/);
    expect(() => compileRegex('(?<!x)y', '', 'or use kind "contains"')).toThrow(
      /lookahead or lookbehind.*, or use kind "contains"$/,
    );
    expect(() => compileRegex('(?>a+)b')).toThrow(/an atomic group/);
    expect(() => compileRegex('a*+')).toThrow(/a possessive quantifier/);
    expect(() => compileRegex('(unclosed')).toThrow(/^invalid regular expression \/\(unclosed\/: .*RE2 syntax/);
    expect(() => compileRegex('x', 'q')).toThrow(/unknown regular expression flag "q".*use i, m or s/);
    expect(() => compileRegex('a'.repeat(MAX_PATTERN_CHARS + 1))).toThrow(/over the 4096 allowed; shorten it/);
    expect(() => compileRegex('(a)\\1')).toThrow(RegexError);
  });

  it('finds match ranges in UTF-16 offsets and replaces literally', () => {
    const re = compileRegex('x+');
    expect(re.ranges('axxbx')).toEqual([
      [1, 3],
      [4, 5],
    ]);
    expect(re.ranges('axxbx', 1)).toEqual([[1, 3]]);
    expect(compileRegex('x*').ranges('axxb')).toEqual([[1, 3]]);
    expect(compileRegex('😀+').ranges('ab😀😀c')).toEqual([[2, 6]]);
    expect(compileRegex('\\d+').replaceAll('a1b22', '$1')).toBe('a$1b$1');
  });
});

describe('literal and text filters', () => {
  it('looks for plain text as it is, ignoring case', () => {
    const re = literalRegex('a.b(');
    expect(re.test('xA.B(y')).toBe(true);
    expect(re.test('axb(')).toBe(false);
    expect(literalRegex('A', true).test('a')).toBe(false);
    expect(re.ranges('a.b( A.B(')).toEqual([
      [0, 4],
      [5, 9],
    ]);
    expect(literalRegex('$&').replaceAll('x$&y', '[r]')).toBe('x[r]y');
  });

  it('reads /pattern/flags as a regex and anything else as text', () => {
    expect(slashPattern('/a+/i')).toEqual({ pattern: 'a+', flags: 'i' });
    expect(slashPattern('a/b')).toBeUndefined();
    expect(textFilterRegex('/(a+)+$/').test(`${line}!`)).toBe(false);
    expect(textFilterRegex('/TIMEOUT|refused/i').test('connection timeout')).toBe(true);
    expect(textFilterRegex('(a+)+$').test('x (a+)+$ y')).toBe(true);
    expect(() => textFilterRegex('/(a)\\1/', 'or drop the slashes to look for the text itself')).toThrow(
      /drop the slashes/,
    );
  });
});
