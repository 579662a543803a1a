import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { REDACTED, type Transaction } from '../protocol.js';
import { searchPattern } from '../search-pattern.js';
import { searchTransactions } from './search.js';
import { httpServer, startNetworkDebuggee } from './testing.js';

const tx = (id: string, over: Partial<Transaction> = {}): Transaction => ({
  id,
  seq: 1,
  state: 'complete',
  initiator: 'fetch',
  request: { method: 'GET', url: `http://api.test/${id}`, headers: [{ name: 'accept', value: '*/*' }] },
  response: { status: 200, statusText: 'OK', headers: [{ name: 'content-type', value: 'text/plain' }] },
  timing: { startedAt: 0 },
  ...over,
});
const text = (data: string) => ({ encoding: 'text' as const, data, size: data.length, truncated: false });

describe('search in headers and bodies', () => {
  const list = [
    tx('a', { response: { status: 200, statusText: 'OK', headers: [], body: text('{"note":"Gift wrap"}') } }),
    tx('b', {
      request: {
        method: 'POST',
        url: 'http://api.test/b',
        headers: [{ name: 'X-Trace', value: 'gift-42' }],
        body: text('q=1'),
      },
    }),
    tx('c', {
      request: { method: 'GET', url: 'http://api.test/c', headers: [{ name: 'authorization', value: REDACTED }] },
    }),
    tx('d', {
      response: {
        status: 200,
        statusText: 'OK',
        headers: [],
        body: { encoding: 'base64', data: 'Z2lmdA==', size: 4, truncated: false },
      },
    }),
  ];

  it('says where each hit is, case-insensitive unless asked, and skips binary bodies and redacted values', () => {
    expect(searchTransactions(list, { text: 'GIFT' }).hits).toEqual([
      { id: 'a', places: ['responseBody'] },
      { id: 'b', places: ['requestHeaders'] },
    ]);
    expect(searchTransactions(list, { text: 'GIFT', caseSensitive: true }).hits).toEqual([]);
    expect(searchTransactions(list, { text: 'api.test/c' }).hits).toEqual([{ id: 'c', places: ['url'] }]);
    expect(searchTransactions(list, { text: 'redacted' }).hits).toEqual([]);
    expect(searchTransactions(list, { text: 'gift-\\d+', regex: true }).hits).toEqual([
      { id: 'b', places: ['requestHeaders'] },
    ]);
    expect(searchTransactions(list, { text: 'q=1' })).toEqual({
      hits: [{ id: 'b', places: ['requestBody'] }],
      searched: 4,
    });
  });

  it('refuses a bad regular expression with a message that says why, and takes regex characters literally otherwise', () => {
    expect(() => searchPattern({ text: '(', regex: true })).toThrow(/not a valid regular expression/);
    expect(searchPattern({ text: 'a.b(' }).test('xa.b(y')).toBe(true);
    expect(searchPattern({ text: 'a.b(' }).test('axb(')).toBe(false);
  });
});

describe('the panel: search, a HAR entry, an export of the rows shown', () => {
  const defer = cleanupAfterEach();

  it('works on captured traffic, and the HAR entry redacts what the app hid from MCP', async () => {
    const server = await httpServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello gift'),
    );
    defer(() => server.close());
    const d = await startNetworkDebuggee({ network: { redact: { scope: 'mcp' } } });
    defer(() => d.stop());
    await fetch(`${server.url}/one`, { headers: { authorization: 'Bearer top-secret' } }).then((r) => r.text());
    await fetch(`${server.url}/two`).then((r) => r.text());
    await waitFor(
      () => d.host.list({ limit: 10 }).transactions.filter((t) => t.state === 'complete').length === 2,
      'two requests',
    );
    const panel = d.host.panel!;
    const [one, two] = d.host.transactions();

    const found = await panel.search!(
      { text: 'gift', regex: false, caseSensitive: false },
      new AbortController().signal,
    );
    expect(found.hits.map((h) => h.places)).toEqual([['responseBody'], ['responseBody']]);
    // The window sees the real value (scope mcp); a copied HAR entry, like an export, does not.
    expect(one!.request.headers.find((h) => h.name === 'authorization')?.value).toBe('Bearer top-secret');
    const entry = await panel.harEntry!({ id: one!.id }, new AbortController().signal);
    expect(JSON.stringify(entry)).not.toContain('top-secret');
    expect(entry.request.url).toBe(`${server.url}/one`);

    const har = await panel.exportHar!({ ids: [two!.id] }, new AbortController().signal);
    expect(har.log.entries.map((e) => e.request.url)).toEqual([`${server.url}/two`]);
    expect(JSON.stringify(await panel.exportHar!({}, new AbortController().signal))).not.toContain('top-secret');
  });
});
