import { Readable } from 'node:stream';
import { getGlobalDispatcher, FormData as UndiciFormData, request as undiciRequest } from 'undici';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { httpServer, httpsServer, selfSignedCert, startNetworkDebuggee } from '../host/testing.js';
import { keepAliveAgent, NODE_CLIENTS, type Outcome } from './fidelity-testing.js';

// Mock rules for every Node client of the fidelity matrix: a rule answers, a rule fails the request,
// a rule that reads the body answers only the body it names; the server sees none of the requests
// a rule answered, and the others reach it unchanged. Each request is recorded once.

/** http.get sends no body: it has no body cases. */
const sendsBodies = (client: string) => client !== 'http.get';
const slugOf = (client: string) => client.replace(/[^a-z]+/gi, '-');

const body = (o: Outcome) =>
  'error' in o ? o : { status: o.status, text: o.body.toString(), mark: o.headers['x-mock'] };

describe('mock rules answer every Node client', () => {
  const defer = cleanupAfterEach();

  it('answers, fails and matches bodies for each client; unmatched requests reach the server once', async () => {
    const seen: string[] = [];
    const handler = (req: { method?: string; url?: string }, res: { end(b: string): void }, b: Buffer) => {
      seen.push(`${req.method} ${req.url}`);
      res.end(`real ${req.url} ${b.toString()}`);
    };
    const tls = selfSignedCert();
    const plain = await httpServer(handler);
    const secure = await httpsServer(handler, tls);
    defer(() => plain.close());
    defer(() => secure.close());
    defer(() => keepAliveAgent.destroy());
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    const answered = await d.host.addMockRule({
      match: { url: { kind: 'contains', value: '/mocked/' } },
      action: {
        type: 'respond',
        status: 201,
        headers: { 'x-mock': 'yes' },
        body: { type: 'text', text: 'from the rule' },
      },
    });
    const failed = await d.host.addMockRule({
      match: { url: { kind: 'contains', value: '/broken/' } },
      action: { type: 'networkError', message: 'refused by the rule' },
    });
    const byBody = await d.host.addMockRule({
      match: { method: 'POST', url: { kind: 'contains', value: '/body/' }, bodyContains: 'needle' },
      action: { type: 'respond', status: 202, headers: { 'x-mock': 'body' }, body: { type: 'json', json: { ok: 1 } } },
    });

    const results: Record<string, unknown> = {};
    for (const [name, { client, https }] of Object.entries(NODE_CLIENTS)) {
      const origin = https ? secure.url : plain.url;
      const slug = slugOf(name);
      const call = { ca: https ? tls.cert : undefined };
      const post = (text: string) => ({ ...call, method: 'POST', body: Buffer.from(text) });
      results[name] = {
        mocked: body(await client(`${origin}/mocked/${slug}`, call)),
        real: body(await client(`${origin}/real/${slug}`, call)),
        broken: 'error' in (await client(`${origin}/broken/${slug}`, call)),
      };
      if (sendsBodies(name)) {
        Object.assign(results[name] as object, {
          needle: body(await client(`${origin}/body/${slug}/a`, post('a needle in it'))),
          hay: body(await client(`${origin}/body/${slug}/b`, post('only hay'))),
        });
      }
    }
    for (const [name, r] of Object.entries(results)) {
      const slug = slugOf(name);
      expect([name, r]).toEqual([
        name,
        {
          mocked: { status: 201, text: 'from the rule', mark: 'yes' },
          real: { status: 200, text: `real /real/${slug} `, mark: undefined },
          broken: true,
          ...(sendsBodies(name) && {
            needle: { status: 202, text: '{"ok":1}', mark: 'body' },
            hay: { status: 200, text: `real /body/${slug}/b only hay`, mark: undefined },
          }),
        },
      ]);
    }
    const names = Object.keys(NODE_CLIENTS);
    const withBodies = names.filter(sendsBodies).map(slugOf);
    const clients = names.map(slugOf);
    expect(seen.sort()).toEqual(
      [...clients.map((c) => `GET /real/${c}`), ...withBodies.map((c) => `POST /body/${c}/b`)].sort(),
    );

    const count = clients.length * 3 + withBodies.length * 2;
    const all = await waitFor(() => {
      const txs = d.host.transactions();
      return txs.length >= count && txs.every((t) => t.state !== 'pending') ? txs : undefined;
    }, 'every request recorded');
    expect(all).toHaveLength(count);
    for (const c of clients) {
      const one = (path: string) => {
        const found = all.filter((t) => new URL(t.request.url).pathname === path);
        expect([path, found.length]).toEqual([path, 1]);
        return found[0]!;
      };
      expect(one(`/mocked/${c}`)).toMatchObject({ state: 'complete', mock: { ruleId: answered.rule.id } });
      expect(one(`/broken/${c}`)).toMatchObject({ state: 'failed', mock: { ruleId: failed.rule.id } });
      expect(one(`/real/${c}`).mock).toBeUndefined();
      if (!withBodies.includes(c)) continue;
      expect(one(`/body/${c}/a`)).toMatchObject({
        state: 'complete',
        mock: { ruleId: byBody.rule.id },
        request: { body: { data: 'a needle in it' } },
      });
      expect(one(`/body/${c}/b`).mock).toBeUndefined();
    }
  }, 30_000);

  it('undici: a streamed body is read up to what the rule needs and sent whole otherwise; the dispatcher is put back', async () => {
    const sockets = new Set<unknown>();
    const got: string[] = [];
    const s = await httpServer((req, res, b) => {
      sockets.add(req.socket);
      got.push(`${req.url} ${b.length}`);
      res.end('real');
    });
    defer(() => s.close());
    const own = getGlobalDispatcher();
    const big = 'x'.repeat(200_000); // past the 64 KiB a rule reads
    const streamed = (...parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p)));
    const text = async (path: string, body: Readable | ReadableStream) => {
      const r = await undiciRequest(`${s.url}${path}`, { method: 'POST', body: body as Readable });
      return `${r.statusCode} ${await r.body.text()}`;
    };
    /** Sockets the server saw for three requests that no rule can match by method and URL. */
    const socketsFor = async (run: string) => {
      sockets.clear();
      for (let i = 0; i < 3; i++) expect(await text(`/other/${run}${i}`, streamed('x'))).toBe('200 real');
      return sockets.size;
    };
    const before = await socketsFor('before');
    got.length = 0;
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    const { rule } = await d.host.addMockRule({
      match: { url: { kind: 'contains', value: '/up/' }, bodyContains: 'needle' },
      action: { type: 'respond', status: 202, body: { type: 'text', text: 'from the rule' } },
    });
    expect(getGlobalDispatcher()).not.toBe(own);
    expect(await text('/up/1', streamed('a ', 'needle'))).toBe('202 from the rule');
    expect(await text('/up/2', streamed(big, 'needle'))).toBe('200 real');
    expect(await text('/up/3', streamed('only ', 'hay'))).toBe('200 real');
    const viaFetch = await fetch(`${s.url}/up/4`, {
      method: 'POST',
      body: Readable.toWeb(streamed('fetch ', 'needle')) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    expect(`${viaFetch.status} ${await viaFetch.text()}`).toBe('202 from the rule');
    // A FormData body is not read for matching: it goes out whole, as the app made it.
    const form = new UndiciFormData(); // undici's own (Node 20's global one is another undici's)
    form.set('field', 'a needle in a form');
    const viaForm = await undiciRequest(`${s.url}/up/form`, { method: 'POST', body: form });
    expect([viaForm.statusCode, await viaForm.body.text()]).toEqual([200, 'real']);
    expect(got.slice(0, 2)).toEqual([`/up/2 ${big.length + 6}`, '/up/3 8']);
    expect(got[2]).toMatch(/^\/up\/form \d+$/);
    got.length = 0;
    // requests no rule can match by method and URL go straight to the app's dispatcher: same sockets
    expect(await socketsFor('')).toBe(before);

    const all = await waitFor(() => {
      const txs = d.host.transactions();
      return txs.length >= 8 && txs.every((t) => t.state !== 'pending') ? txs : undefined;
    }, 'eight finished requests');
    expect(all.map((t) => [new URL(t.request.url).pathname, t.initiator, t.response?.status, t.mock?.ruleId])).toEqual([
      ['/up/1', 'undici', 202, rule.id],
      ['/up/2', 'undici', 200, undefined],
      ['/up/3', 'undici', 200, undefined],
      ['/up/4', 'fetch', 202, rule.id],
      ['/up/form', 'undici', 200, undefined],
      ['/other/0', 'undici', 200, undefined],
      ['/other/1', 'undici', 200, undefined],
      ['/other/2', 'undici', 200, undefined],
    ]);
    expect(all[1]!.request.body).toMatchObject({ size: big.length + 6 });

    await d.host.removeMockRule(rule.id);
    expect(getGlobalDispatcher()).toBe(own);
  });
});
