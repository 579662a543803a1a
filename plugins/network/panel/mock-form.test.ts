import { describe, expect, it } from 'vitest';
import type { MockRule, Transaction } from '../protocol.js';
import {
  describeAction,
  describeMatch,
  draftFromRule,
  draftFromTransaction,
  EMPTY_DRAFT,
  ruleFromDraft,
} from './mock-form.js';

const cart: Transaction = {
  id: 't1',
  seq: 1,
  state: 'complete',
  initiator: 'fetch',
  request: { method: 'get', url: 'http://localhost:5173/api/cart?x=1', headers: [] },
  response: {
    status: 200,
    statusText: 'OK',
    headers: [
      { name: 'Content-Type', value: 'application/json' },
      { name: 'x-request-id', value: 'abc' },
    ],
    body: { encoding: 'text', data: '{"items":[1]}', size: 13, truncated: false, contentType: 'application/json' },
  },
  timing: { startedAt: 1, waitMs: 2, durationMs: 3 },
};

describe('the mock rule editor model', () => {
  it('"Mock this" answers the request the way it was answered', () => {
    const draft = draftFromTransaction(cart);
    expect(draft).toMatchObject({
      name: 'GET /api/cart?x=1',
      method: 'GET',
      urlKind: 'exact',
      urlValue: 'http://localhost:5173/api/cart?x=1',
      status: '200',
      headers: 'Content-Type: application/json',
      bodyType: 'json',
      body: '{\n  "items": [\n    1\n  ]\n}',
    });
    expect(ruleFromDraft(draft)).toEqual({
      rule: {
        name: 'GET /api/cart?x=1',
        enabled: true,
        match: { method: 'GET', url: { kind: 'exact', value: 'http://localhost:5173/api/cart?x=1' } },
        action: {
          type: 'respond',
          status: 200,
          statusText: 'OK',
          headers: { 'Content-Type': 'application/json' },
          body: { type: 'json', json: { items: [1] } },
        },
      },
      errors: {},
    });
  });

  it('keeps a binary body as base64 and leaves a truncated one out', () => {
    const binary = draftFromTransaction({
      ...cart,
      response: { ...cart.response!, body: { encoding: 'base64', data: 'AAEC', size: 3, truncated: false } },
    });
    expect(binary).toMatchObject({ bodyType: 'base64', body: 'AAEC' });
    const truncated = draftFromTransaction({
      ...cart,
      response: { ...cart.response!, body: { encoding: 'text', data: '{"a', size: 3, truncated: true } },
    });
    expect(truncated.bodyType).toBe(EMPTY_DRAFT.bodyType);
  });

  it('round-trips a saved rule through the editor', () => {
    const rule = {
      id: 'rule-1',
      name: 'offline',
      enabled: false,
      match: { method: 'POST', url: { kind: 'regex' as const, value: '^/api/(a|b)$', flags: 'i' } },
      action: { type: 'networkError' as const, message: 'down', delayMs: 250 },
    };
    const { id: _id, ...input } = rule;
    expect(ruleFromDraft(draftFromRule(rule))).toEqual({ rule: input, errors: {} });
  });

  it('"Mock this" on a gRPC call keeps its trailers, and a rule\'s trailers round-trip through the form', () => {
    const grpc: Transaction = {
      ...cart,
      request: { method: 'post', url: 'http://127.0.0.1:50051/shop.Cart/Get', headers: [] },
      response: {
        status: 200,
        statusText: '',
        headers: [{ name: 'content-type', value: 'application/grpc' }],
        trailers: [
          { name: 'grpc-status', value: '14' },
          { name: 'grpc-message', value: 'unavailable' },
        ],
      },
    };
    const draft = draftFromTransaction(grpc);
    expect(draft.trailers).toBe('grpc-status: 14\ngrpc-message: unavailable');
    const { rule } = ruleFromDraft(draft);
    expect(rule?.action).toMatchObject({
      type: 'respond',
      trailers: { 'grpc-status': '14', 'grpc-message': 'unavailable' },
    });
    expect(draftFromRule({ ...rule!, id: 'r1' } as MockRule).trailers).toBe(draft.trailers);
    expect(ruleFromDraft({ ...EMPTY_DRAFT, urlValue: '/a', trailers: 'grpc-status 14' }).errors).toEqual({
      trailers: '"grpc-status 14" is not "Name: value"',
    });
    const plain = ruleFromDraft({ ...EMPTY_DRAFT, urlValue: '/a', trailers: '  ' }).rule?.action;
    expect(plain && 'trailers' in plain ? plain.trailers : undefined).toBeUndefined();
  });

  it('says which field is wrong', () => {
    expect(ruleFromDraft({ ...EMPTY_DRAFT, urlValue: '' }).errors).toMatchObject({ urlValue: expect.any(String) });
    expect(ruleFromDraft({ ...EMPTY_DRAFT, urlValue: '/a', status: '99' }).errors).toEqual({
      status: expect.stringMatching(/too small/i),
    });
    expect(ruleFromDraft({ ...EMPTY_DRAFT, urlValue: '/a', status: 'ok' }).errors.status).toBe('a whole number');
    expect(ruleFromDraft({ ...EMPTY_DRAFT, urlValue: '/a', body: '{oops' }).errors.body).toMatch(/^not valid JSON/);
    expect(ruleFromDraft({ ...EMPTY_DRAFT, urlValue: '/a', headers: 'no colon here' }).errors.headers).toMatch(
      /is not "Name: value"/,
    );
    expect(ruleFromDraft({ ...EMPTY_DRAFT, urlKind: 'regex', urlValue: '(' }).errors.urlValue).toMatch(
      /invalid regular expression/,
    );
    expect(ruleFromDraft({ ...EMPTY_DRAFT, urlValue: '/a', bodyType: 'base64', body: 'not base64!' }).errors.body).toBe(
      'must be base64',
    );
  });

  it('describes rules in words', () => {
    expect(describeMatch({ url: { kind: 'contains', value: '/api' } })).toBe('any method, URL contains "/api"');
    expect(describeMatch({ method: 'get', url: { kind: 'regex', value: 'a+', flags: 'i' } })).toBe(
      'GET, URL matches /a+/i',
    );
    expect(describeAction({ type: 'respond', status: 503, body: { type: 'text', text: 'x' }, delayMs: 100 })).toBe(
      'respond 503 with a text body after 100 ms',
    );
    expect(describeAction({ type: 'networkError' })).toBe('network error');
  });
});
