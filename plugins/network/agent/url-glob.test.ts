import { describe, expect, it } from 'vitest';
import { globToRegExp } from '../../../shared/safe-regex.js';
import { globMatcher, reactNativeUrlPatterns } from './url-glob.js';

describe("React Native's URL globs (no RE2)", () => {
  it('matches as the RE2 glob does', () => {
    const urls = [
      'https://api.test/v1/users/42?x=1',
      'https://api.test/v1/users/',
      'http://10.0.2.2:8081/symbolicate',
      'https://a.b/rn-mocked',
      'https://a.b/rn-mocked/x',
      '',
    ];
    const globs = [
      '*',
      '*/users/*',
      'https://api.test/v?/users/4?*',
      '*/rn-mocked',
      '*rn-*ed*',
      'https://a.b/*/x',
      '?*',
      '',
    ];
    for (const glob of globs) {
      const ours = globMatcher(glob);
      const re2 = globToRegExp(glob);
      for (const url of urls) expect(ours.test(url), `${glob} ${url}`).toBe(re2.test(url));
    }
  });

  it('answers a pattern that backtracks in a regex engine (a hang fails by the test timeout)', () => {
    const url = `https://a.b/${'a'.repeat(5000)}`;
    expect(globMatcher(`*${'a*'.repeat(30)}b`).test(url)).toBe(false);
  });

  it('refuses regex rules with what to use instead', () => {
    expect(() => reactNativeUrlPatterns.compileRegex('^https://')).toThrow(/use kind "glob"/);
  });
});
