import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { REDACTED, type Transaction } from '../protocol.js';
import { searchPattern } from '../search-pattern.js';
import { searchTransactions } from './search.js';
import { httpServer, startNetworkDebuggee, text } from './testing.js';

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

  it('says where each hit is, case-insensitive unless asked, and skips binary bodies and redacted values', async () => {
    expect((await searchTransactions(list, { text: 'GIFT' })).hits).toEqual([
      { id: 'a', places: ['responseBody'] },
      { id: 'b', places: ['requestHeaders'] },
    ]);
    expect((await searchTransactions(list, { text: 'GIFT', caseSensitive: true })).hits).toEqual([]);
    expect((await searchTransactions(list, { text: 'api.test/c' })).hits).toEqual([{ id: 'c', places: ['url'] }]);
    expect((await searchTransactions(list, { text: 'redacted' })).hits).toEqual([]);
    expect((await searchTransactions(list, { text: 'gift-\\d+', regex: true })).hits).toEqual([
      { id: 'b', places: ['requestHeaders'] },
    ]);
    expect(await searchTransactions(list, { text: 'q=1' })).toEqual({
      hits: [{ id: 'b', places: ['requestBody'] }],
      searched: 4,
    });
  });

  it('refuses a bad regular expression with a message that says why, and takes regex characters literally otherwise', () => {
    expect(() => searchPattern({ text: '(', regex: true })).toThrow(/invalid regular expression/);
    expect(() => searchPattern({ text: '(a)\\1', regex: true })).toThrow(
      /uses a backreference.*, or turn "regex" off to look for the text itself/,
    );
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

  // Issue 30, stall 1: `(a+)+$` over 60 `a` and a `!` backtracked for ever in JavaScript's engine,
  // blocking every app, client and the window; RE2 answers at once. A long search gives the loop turns.
  it('runs a backtracking regex over captured bodies in linear time, and lets the loop run during a long search', async () => {
    const evil = `${'a'.repeat(60)}!`;
    const big = `${'x'.repeat(200_000)}${evil}`;
    const server = await httpServer((req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end(req.url === '/evil' ? evil : big),
    );
    defer(() => server.close());
    const d = await startNetworkDebuggee({ network: { maxBodyBytes: 1024 * 1024 } });
    defer(() => d.stop());
    await fetch(`${server.url}/evil`).then((r) => r.text());
    for (let i = 0; i < 60; i++) await fetch(`${server.url}/big-${i}`).then((r) => r.text());
    await waitFor(
      () => d.host.list({ limit: 100 }).transactions.filter((t) => t.state === 'complete').length === 61,
      'the requests',
    );
    const panel = d.host.panel!;
    const signal = new AbortController().signal;
    const found = await panel.search!({ text: '(a+)+$', regex: true, caseSensitive: false }, signal);
    expect(found).toEqual({ hits: [], searched: 61 });
    const hits = await panel.search!({ text: '^(a|aa)+!$', regex: true, caseSensitive: false }, signal);
    expect(hits.hits).toEqual([{ id: d.host.transactions()[0]!.id, places: ['responseBody'] }]);

    // 12 MB of bodies through a case-insensitive regex: timers still fire while it runs.
    let turns = 0;
    const ticker = setInterval(() => turns++, 1);
    const slow = await panel.search!({ text: 'x{3}y|zz', regex: true, caseSensitive: false }, signal);
    clearInterval(ticker);
    expect(slow.searched).toBe(61);
    expect(turns).toBeGreaterThan(0);
    await expect(panel.search!({ text: '(a)\\1', regex: true, caseSensitive: false }, signal)).rejects.toThrow(
      /cannot be run safely: it uses a backreference/,
    );
  });
});
