import { describe, expect, it } from 'vitest';
import type { TransactionSummary } from '../protocol.js';
import { explainEmpty, hostOf, parseQuery, parseSize, type Row, removeTerm, tokenize } from './query.js';
import { applySuggestion, suggest, vocabularyOf } from './suggest.js';

const tx = (id: string, over: Partial<TransactionSummary> = {}): TransactionSummary => ({
  id,
  seq: 1,
  state: 'complete',
  initiator: 'fetch',
  method: 'GET',
  url: `https://api.shop.test/v1/${id}`,
  status: 200,
  startedAt: 0,
  responseType: 'application/json; charset=utf-8',
  responseSize: 500,
  ...over,
});

const rows: Row[] = [
  tx('cart'),
  tx('orders', { method: 'POST', status: 201 }),
  tx('missing', { status: 404, responseType: 'text/plain' }),
  tx('boom', { status: 503, responseSize: 250_000 }),
  tx('refused', { state: 'failed', status: undefined, responseType: undefined, responseSize: undefined }),
  tx('slow', { state: 'pending', status: undefined }),
  tx('mocked', { mockRuleId: 'rule-1', url: 'http://cdn.images.test/logo.png', responseType: 'image/png' }),
  tx('har', { imported: true, initiator: 'har', url: 'https://other.test/page?q=1' }),
].map((t) => ({ tx: t, lowerUrl: t.url.toLowerCase() }));

const ids = (query: string) => rows.filter(parseQuery(query).matches).map((r) => r.tx.id);

describe('the query language', () => {
  it('lets everything through when empty', () => {
    expect(parseQuery('  ').empty).toBe(true);
    expect(ids('')).toHaveLength(rows.length);
  });

  it('matches free text and /regex/ in the URL, case-insensitively, and negates with -', () => {
    expect(ids('CART')).toEqual(['cart']);
    expect(ids('/v1\\/(cart|orders)$/')).toEqual(['cart', 'orders']);
    expect(ids('-api.shop')).toEqual(['mocked', 'har']);
    expect(ids('-/\\.png$/')).not.toContain('mocked');
    // An unknown key is text, as in DevTools.
    expect(ids('q=1')).toEqual(['har']);
  });

  it('filters by status code, class, range and list', () => {
    expect(ids('status:404')).toEqual(['missing']);
    expect(ids('status:5xx')).toEqual(['boom']);
    expect(ids('status:4xx,5xx')).toEqual(['missing', 'boom']);
    expect(ids('status:200-299')).toEqual(['cart', 'orders', 'mocked', 'har']);
    expect(ids('status-code:201')).toEqual(['orders']);
    expect(ids('-status:2xx')).toEqual(['missing', 'boom', 'refused', 'slow']);
  });

  it('is:failed means network failures and HTTP errors alike', () => {
    expect(ids('is:failed')).toEqual(['missing', 'boom', 'refused']);
    expect(ids('is:mocked')).toEqual(['mocked']);
    expect(ids('is:pending')).toEqual(['slow']);
    const replays = [tx('again', { replayOf: 'cart' }), tx('first')].map((t) => ({ tx: t, lowerUrl: t.url }));
    expect(replays.filter(parseQuery('is:replay').matches).map((r) => r.tx.id)).toEqual(['again']);
    expect(ids('is:imported')).toEqual(['har']);
  });

  it('filters GraphQL operations by name or type (gql:), and a 200 with GraphQL errors is failed', () => {
    const gql: Row[] = [
      tx('a', { method: 'POST', url: 'https://x.test/graphql', graphql: { type: 'query', name: 'GetCart' } }),
      tx('b', { method: 'POST', url: 'https://x.test/graphql', graphql: { type: 'mutation', name: 'Pay', errors: 1 } }),
      tx('c', { method: 'POST', url: 'https://x.test/graphql', graphql: { name: 'Saved', hash: 'abc' } }),
      tx('d', { url: 'https://x.test/rest' }),
      tx('ok', { url: 'https://x.test/shop.Carts/Get', grpc: { status: 0 } }),
      tx('e', { url: 'https://x.test/shop.Carts/Get', grpc: { status: 5, message: 'no cart' } }),
    ].map((t) => ({ tx: t, lowerUrl: t.url.toLowerCase() }));
    const of = (query: string) => gql.filter(parseQuery(query).matches).map((r) => r.tx.id);
    expect(of('gql:getcart')).toEqual(['a']);
    expect(of('gql:mutation')).toEqual(['b']);
    expect(of('gql:GetCart,Saved')).toEqual(['a', 'c']);
    expect(of('graphql:Pay')).toEqual(['b']);
    expect(of('is:graphql')).toEqual(['a', 'b', 'c']);
    expect(of('-is:graphql')).toEqual(['d', 'ok', 'e']);
    expect(of('is:failed')).toEqual(['b', 'e']); // a gRPC status other than 0 too
    expect(parseQuery('gql:').errors).toEqual(['gql: needs a value, e.g. gql:query']);
  });

  it('filters by method, domain, type, size, initiator and scheme', () => {
    expect(ids('method:post')).toEqual(['orders']);
    expect(ids('method:GET,POST')).toHaveLength(rows.length);
    expect(ids('domain:other.test')).toEqual(['har']);
    expect(ids('domain:*.images.test')).toEqual(['mocked']);
    expect(ids('type:json')).toEqual(['cart', 'orders', 'boom', 'slow', 'har']);
    expect(ids('type:image')).toEqual(['mocked']);
    expect(ids('type:text/plain')).toEqual(['missing']);
    expect(ids('larger-than:100k')).toEqual(['boom']);
    expect(ids('initiator:har')).toEqual(['har']);
    expect(ids('scheme:http')).toEqual(['mocked']);
  });

  it('combines terms with AND', () => {
    expect(ids('api.shop is:failed -status:404')).toEqual(['boom', 'refused']);
    expect(ids('method:GET type:json larger-than:1k')).toEqual(['boom']);
  });

  it('keeps quoted values together and regexes with spaces whole', () => {
    expect(tokenize('domain:"a b" -x /c d/i').map((t) => t.text)).toEqual(['domain:a b', '-x', '/c d/i']);
  });

  it('reports what it cannot read and leaves it out', () => {
    const q = parseQuery('cart /[/ is:weird status:abc larger-than:lots method:');
    expect(q.terms.map((t) => t.text)).toEqual(['cart']);
    expect(q.errors).toHaveLength(5);
    expect(q.errors.join('\n')).toMatch(/invalid regular expression/);
    expect(q.errors.join('\n')).toMatch(/is:weird is not known/);
    expect(q.errors.join('\n')).toMatch(/method: needs a value/);
  });

  it('says which term to drop to widen an empty result', () => {
    const q = parseQuery('method:POST status:5xx');
    expect(rows.filter(q.matches)).toEqual([]);
    expect(explainEmpty(q, rows)).toEqual([
      { term: 'method:POST', without: 1 },
      { term: 'status:5xx', without: 1 },
    ]);
    expect(removeTerm('method:POST  status:5xx cart', 'status:5xx')).toBe('method:POST cart');
  });

  it('reads sizes and hosts as DevTools does', () => {
    expect(parseSize('100k')).toBe(100_000);
    expect(parseSize('1.5M')).toBe(1_500_000);
    expect(parseSize('12')).toBe(12);
    expect(parseSize('big')).toBeUndefined();
    expect(hostOf('https://user:pw@a.b.test:8443/x?y')).toBe('a.b.test');
    expect(hostOf('http://[::1]:80/')).toBe('[::1]');
    expect(hostOf('not a url')).toBe('');
  });
});

describe('suggestions as you type', () => {
  const vocabulary = vocabularyOf(rows.map((r) => r.tx));

  it('offers keys for a word and values after key:, with the values seen in the data', () => {
    expect(suggest('sta', 3, vocabulary).items.map((i) => i.insert)).toEqual(['status:']);
    expect(suggest('-me', 3, vocabulary).items.map((i) => i.insert)).toEqual(['-method:']);
    expect(suggest('status:4', 8, vocabulary).items.map((i) => i.insert)).toEqual([
      'status:4xx',
      'status:4xx,5xx',
      'status:404',
    ]);
    expect(suggest('domain:', 7, vocabulary).items.map((i) => i.insert)).toContain('domain:cdn.images.test');
    expect(suggest('status:4xx,', 11, vocabulary).items.map((i) => i.insert)).toContain('status:4xx,5xx');
    expect(suggest('/re', 3, vocabulary).items).toEqual([]);
  });

  it('replaces only the token under the caret', () => {
    const text = 'cart met';
    const s = suggest(text, text.length, vocabulary);
    const applied = applySuggestion(text, s, s.items[0]!);
    expect(applied).toEqual({ text: 'cart method:', caret: 12 });
    const value = suggest(applied.text, applied.caret, vocabulary);
    expect(applySuggestion(applied.text, value, value.items.find((i) => i.insert === 'method:POST')!)).toEqual({
      text: 'cart method:POST ',
      caret: 17,
    });
  });
});
