import { describe, expect, it } from 'vitest';
import { definitions, graphqlErrors, graphqlOf } from './graphql.js';

describe('GraphQL operations read from requests', () => {
  it('reads POST JSON: the named operation, its type, a batch', () => {
    const post = (body: unknown, type = 'application/json') =>
      graphqlOf('POST', 'https://api.test/graphql', type, JSON.stringify(body));
    expect(post({ query: 'query GetCart($id: ID!) { cart(id: $id) { total } }', variables: { id: 1 } })).toEqual({
      type: 'query',
      name: 'GetCart',
    });
    expect(post({ query: 'mutation AddItem { add { id } }' })).toEqual({ type: 'mutation', name: 'AddItem' });
    expect(post({ query: '{ me { id } }' })).toEqual({ type: 'query' });
    // operationName picks one of several; comments and strings do not confuse the reading.
    const doc = `# query Fake { x }
      fragment F on Cart { total }
      query A { a(text: "mutation B { }") { ...F } }
      subscription OnPrice { price }`;
    expect(post({ query: doc, operationName: 'OnPrice' })).toEqual({ type: 'subscription', name: 'OnPrice' });
    expect(post({ query: doc })).toEqual({ type: 'query', name: 'A' });
    expect(post([{ query: 'query A { a }' }, { query: 'mutation B { b }' }])).toEqual({
      type: 'query',
      name: 'A,B',
      batch: 2,
    });
    expect(graphqlOf('POST', 'https://x/gql', 'application/graphql', 'mutation Pay { pay }')).toEqual({
      type: 'mutation',
      name: 'Pay',
    });
  });

  it('reads GET query= and persisted queries sent by their hash', () => {
    const url = new URL('https://api.test/graphql');
    url.searchParams.set('query', 'query GetCart { cart { total } }');
    expect(graphqlOf('GET', url.href, undefined, undefined)).toEqual({ type: 'query', name: 'GetCart' });
    const apq = new URL('https://api.test/graphql');
    apq.searchParams.set('operationName', 'GetCart');
    apq.searchParams.set('extensions', JSON.stringify({ persistedQuery: { version: 1, sha256Hash: 'abc123' } }));
    expect(graphqlOf('GET', apq.href, undefined, undefined)).toEqual({
      type: 'query',
      name: 'GetCart',
      hash: 'abc123',
    });
    const body = { operationName: 'Pay', extensions: { persistedQuery: { version: 1, sha256Hash: 'def' } } };
    expect(graphqlOf('POST', 'https://x/graphql', 'application/json', JSON.stringify(body))).toEqual({
      name: 'Pay',
      hash: 'def',
    });
  });

  it('leaves what is not GraphQL alone: a search API whose JSON has a "query"', () => {
    expect(graphqlOf('POST', 'https://x/search', 'application/json', '{"query":"red shoes"}')).toBeUndefined();
    expect(graphqlOf('GET', 'https://x/search?query=red+shoes', undefined, undefined)).toBeUndefined();
    expect(graphqlOf('POST', 'https://x/a', 'application/json', 'not json')).toBeUndefined();
    expect(definitions('select * from cart')).toBeUndefined();
  });

  it('counts the errors of an answer (or a batch of answers)', () => {
    expect(graphqlErrors('{"data":null,"errors":[{"message":"no"},{"message":"nope"}]}')).toBe(2);
    expect(graphqlErrors('{"data":{"a":1}}')).toBe(0);
    expect(graphqlErrors('[{"data":{}},{"errors":[{"message":"x"}]}]')).toBe(1);
    expect(graphqlErrors('<html>')).toBe(0);
  });
});
