import { describe, expect, it } from 'vitest';
import { forAgent, hideTokens, isSecretStorageKey, keyForAgent, viewOf } from './view.js';

describe('what an AI agent sees of a stored value', () => {
  it('parses whole JSON text, keeps other text and slices as text', () => {
    expect(viewOf('a', { key: 'k', found: true, size: 7, text: '{"a":1}' })).toEqual({
      area: 'a',
      key: 'k',
      found: true,
      size: 7,
      type: 'json',
      value: { a: 1 },
    });
    expect(viewOf('a', { key: 'k', found: true, text: 'hello' })).toMatchObject({ type: 'text', text: 'hello' });
    expect(viewOf('a', { key: 'k', found: true, text: '{"a":', offset: 0, length: 99, more: true })).toMatchObject({
      type: 'text',
      offset: 0,
      length: 99,
    });
    expect(viewOf('a', { key: 'k', found: false })).toEqual({ area: 'a', key: 'k', found: false });
  });

  it('hides secret keys whole, secret fields at any depth, tokens in text; counts what it hid', () => {
    for (const key of ['password', 'auth.token', 'app:accessToken', 'cfg/api_key', 'porthole.session.x']) {
      expect(isSecretStorageKey(key), key).toBe(true);
    }
    for (const key of ['tokens-used', 'settings', 'user.name']) expect(isSecretStorageKey(key), key).toBe(false);
    const view = viewOf('a', { key: 'user', found: true, text: '{"name":"x","creds":{"password":"p","apiKey":"k"}}' });
    expect(forAgent(view)).toMatchObject({
      value: { name: 'x', creds: { password: '[redacted]', apiKey: '[redacted]' } },
      hidden: 2,
    });
    expect(forAgent(viewOf('a', { key: 'note', found: true, text: 'use Bearer abc.def please' }))).toMatchObject({
      text: 'use [redacted] please',
      hidden: 1,
    });
    expect(forAgent(viewOf('a', { key: 'anything', found: true, text: 'x' }), true)).toMatchObject({
      text: '[redacted]',
    });
    expect(hideTokens('no secrets here')).toBe('no secrets here');
  });

  it('gives previews only when whole, redacted', () => {
    expect(keyForAgent({ key: 'u', preview: '{"password":"p"}' })).toEqual({
      key: 'u',
      preview: '{"password":"[redacted]"}',
    });
    expect(keyForAgent({ key: 'u', preview: '{"password":"p', previewCut: true, size: 99 })).toEqual({
      key: 'u',
      size: 99,
    });
    expect(keyForAgent({ key: 'token', preview: 'abc' })).toEqual({ key: 'token', preview: '[redacted]' });
    expect(keyForAgent({ key: 'x', preview: 'abc' }, true)).toEqual({ key: 'x' });
  });
});
