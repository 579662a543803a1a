import { buildSchema, graphql } from 'graphql';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { httpServer, startNetworkDebuggee } from './testing.js';

// A GraphQL app (issue 35, §2): the operation's name and type on each request, a filter and a list
// argument by it, a mock rule matching it, and a 200 answer with errors counted as a failure.

const schema = buildSchema(`
  type Cart { id: ID! total: Int! }
  type Query { cart(id: ID!): Cart }
  type Mutation { checkout(id: ID!): Boolean }
`);
const root = {
  cart: ({ id }: { id: string }) => ({ id, total: 42 }),
  checkout: () => {
    throw new Error('payment declined');
  },
};

describe('GraphQL traffic', () => {
  const defer = cleanupAfterEach();

  const setup = async () => {
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    const s = await httpServer(async (req, res, body) => {
      const params =
        req.method === 'GET'
          ? Object.fromEntries(new URL(req.url!, 'http://x').searchParams)
          : JSON.parse(body.toString());
      // As Apollo answers a hash it has not seen: the client then sends the text.
      const result = !params.query
        ? { errors: [{ message: 'PersistedQueryNotFound' }] }
        : await graphql({
            schema,
            source: params.query,
            rootValue: root,
            variableValues: typeof params.variables === 'string' ? JSON.parse(params.variables) : params.variables,
            operationName: params.operationName,
          });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
    });
    defer(() => s.close());
    const ask = async (query: string, variables?: object, operationName?: string) =>
      (
        await fetch(`${s.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query, variables, operationName }),
        })
      ).json();
    return { d, s, ask };
  };

  it('names each operation, lists and filters by it, and counts a 200 with errors as failed', async () => {
    const { d, s, ask } = await setup();
    expect(await ask('query GetCart($id: ID!) { cart(id: $id) { total } }', { id: '7' })).toEqual({
      data: { cart: { total: 42 } },
    });
    expect(await ask('mutation Checkout { checkout(id: "7") }')).toMatchObject({
      errors: [{ message: 'payment declined' }],
    });
    // A persisted query sent by its hash alone: named, without a type (the server holds its text).
    await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        operationName: 'Saved',
        extensions: { persistedQuery: { version: 1, sha256Hash: 'ab12' } },
      }),
    }).then((r) => r.text());
    const get = new URL(`${s.url}/graphql`);
    get.searchParams.set('query', '{ cart(id: "1") { id } }');
    await (await fetch(get)).json();
    const only = { urlContains: '/graphql' }; // the test's own MCP client is captured too
    await waitFor(
      () => d.host.transactions({ ...only }).filter((t) => t.state !== 'pending').length === 4 || undefined,
      'four answered',
    );

    const list = await d.mcp.call('network_list_transactions', only);
    const summaries = (list.structuredContent as { transactions: { graphql?: unknown; status: number }[] })
      .transactions;
    expect(summaries.map((t) => t.graphql)).toEqual([
      { type: 'query' },
      { name: 'Saved', hash: 'ab12', errors: 1 },
      { type: 'mutation', name: 'Checkout', errors: 1 },
      { type: 'query', name: 'GetCart' },
    ]);
    const byName = await d.mcp.call('network_list_transactions', { ...only, graphql: 'GetCart' });
    expect((byName.structuredContent as { total: number }).total).toBe(1);
    const mutations = await d.mcp.call('network_list_transactions', { ...only, graphql: 'mutation' });
    expect((mutations.structuredContent as { total: number }).total).toBe(1);
    // A 200 whose answer has errors is a failure, as the window's is:failed and the timeline say.
    const failed = await d.mcp.call('network_list_transactions', { ...only, failedOnly: true });
    const failures = (failed.structuredContent as { transactions: { status: number; graphql?: { name?: string } }[] })
      .transactions;
    expect(failures.map((f) => [f.status, f.graphql?.name])).toEqual([
      [200, 'Saved'],
      [200, 'Checkout'],
    ]);
    const timeline = d.host.timeline!({ limit: 100 }).entries.filter((e) => e.summary.includes('/graphql'));
    expect(timeline.map((e) => e.level)).toEqual(['info', 'error', 'error', 'info']);
    expect(timeline[1]?.summary).toContain('(mutation Checkout) → 200 with 1 GraphQL errors');
  });

  it('answers one operation with a mock rule that matches its name', async () => {
    const { d, ask } = await setup();
    const { rule } = await d.host.addMockRule({
      match: { method: 'POST', url: { kind: 'contains', value: '/graphql' }, graphql: 'GetCart' },
      action: { type: 'respond', status: 200, body: { type: 'json', json: { data: { cart: { total: 0 } } } } },
    });
    expect(await ask('query GetCart { cart(id: "1") { total } }')).toEqual({ data: { cart: { total: 0 } } });
    // Another operation to the same URL reaches the server.
    expect(await ask('query Other { cart(id: "2") { total } }')).toEqual({ data: { cart: { total: 42 } } });
    // Hits come in the app's event batches: wait for the mocked one, then check the other added none.
    await waitFor(() => d.host.mockConfig().hits[rule.id] !== undefined, 'the hit of the mocked operation');
    expect(d.host.mockConfig().hits[rule.id]).toBe(1);
  });
});
