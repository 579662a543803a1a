import { describe, expect, it } from 'vitest';
import { describeAction, describeMatch, summarizeRule } from './mock-summary.js';

describe('mock rules in one line', () => {
  it('names every condition of a match', () => {
    expect(
      describeMatch({
        method: 'POST',
        url: { kind: 'regex', value: '^https://api\\.test/v\\d+/', flags: 'i' },
        headers: [{ name: 'x-a', equals: '1' }, { name: 'authorization' }],
        query: [{ name: 'q', contains: 'tea' }],
        bodyContains: 'id',
      }),
    ).toBe('POST regex ^https://api\\.test/v\\d+/ (flags i) header x-a=1 header authorization query q~tea body~"id"');
    expect(describeMatch({ url: { kind: 'glob', value: `https://x/${'a'.repeat(400)}` } })).toHaveLength(300);
  });

  it('says what the app gets back', () => {
    expect(describeAction({ type: 'respond', status: 204 })).toBe('respond 204');
    expect(
      describeAction({
        type: 'respond',
        status: 200,
        headers: { 'x-a': '1', 'x-b': '2' },
        body: { type: 'json', json: {} },
        delayMs: 50,
      }),
    ).toBe('respond 200 json +2 headers after 50 ms');
    expect(describeAction({ type: 'networkError' })).toBe('networkError');
  });

  it('counts the hits of this session', () => {
    const rule = {
      id: 'r1',
      enabled: false,
      match: { url: { kind: 'contains' as const, value: '/a' } },
      action: { type: 'networkError' as const },
    };
    expect(summarizeRule(rule, { hits: { r1: 3 } })).toEqual({
      id: 'r1',
      enabled: false,
      match: '* contains /a',
      action: 'networkError',
      hits: 3,
    });
  });
});
