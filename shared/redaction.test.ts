import { describe, expect, it } from 'vitest';
import { isSecretKey, keyForm, REDACTED, redactValue, SECRET_KEY_NAMES } from './redaction.js';

describe('redactValue', () => {
  it('hides secret keys at any depth, by name form, and leaves the input and clean parts alone', () => {
    const clean = { list: [1, 2], name: 'x' };
    const input = { user: { name: 'ann', Access_Token: 'abc', 'api-key': 'k' }, clean };
    const out = redactValue(input) as typeof input;
    expect(out.user).toEqual({ name: 'ann', Access_Token: REDACTED, 'api-key': REDACTED });
    expect(out.clean).toBe(clean);
    expect(input.user.Access_Token).toBe('abc');
    expect(redactValue(clean)).toBe(clean);
  });

  it('hides extra keys and dotted paths, and applies text rules to other strings', () => {
    const out = redactValue(
      { a: { b: 'x', pin: '1234' }, note: 'Bearer abc' },
      { keys: new Set(['pin']), paths: new Set(['a.b']), text: (s) => s.replace(/Bearer \w+/, REDACTED) },
    );
    expect(out).toEqual({ a: { b: REDACTED, pin: REDACTED }, note: REDACTED });
  });

  it("walks a SerializedValue's containers without adding them to the path", () => {
    const value = { $: 'object', props: { auth: { $: 'object', props: { password: 'p', user: 'u' } } } };
    const out = redactValue(value, { paths: new Set(['auth.user']) });
    expect(out).toEqual({
      $: 'object',
      props: { auth: { $: 'object', props: { password: REDACTED, user: REDACTED } } },
    });
  });

  it('knows the default names, in any spelling, and not their look-alikes', () => {
    expect(SECRET_KEY_NAMES.length).toBeGreaterThanOrEqual(40);
    for (const name of SECRET_KEY_NAMES) {
      expect(isSecretKey(name), name).toBe(true);
      expect(isSecretKey(name.toUpperCase()), name).toBe(true);
      const camel = name.replace(/[-_]([a-z])/g, (_, c: string) => c.toUpperCase());
      expect(isSecretKey(camel), camel).toBe(true);
      expect(isSecretKey(name.replace(/[-_]/g, ' ')), name).toBe(true);
    }
    for (const name of ['username', 'email', 'tokenCount', 'author', 'id', 'key', 'session', 'auth', 'passed']) {
      expect(isSecretKey(name), name).toBe(false);
    }
    expect(keyForm('X-Api_Key ')).toBe('xapikey');
  });
});
