import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startPlugin } from '../../../electron/host/plugin-testing.js';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { type NetworkOptions, network } from '../agent/index.js';
import type { Transaction } from '../protocol.js';
import type { NetworkHost } from './host-api.js';
import networkPlugin from './index.js';
import { buildReplay, editHeaders } from './replay.js';
import { httpServer } from './testing.js';

// Replays sent by a real Node app (this process) over the real link to a real 127.0.0.1 server that
// logs what it received; the MCP tool through a real SDK client.

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('replay and edit-and-resend', () => {
  const defer = cleanupAfterEach();

  async function setup(options: NetworkOptions = {}) {
    const received: Received[] = [];
    const server = await httpServer((req, res, body) => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body: body.toString() });
      res.writeHead(req.url?.startsWith('/missing') ? 404 : 200, { 'content-type': 'text/plain' });
      res.end(`got ${req.method} ${req.url}`);
    });
    defer(() => server.close());
    const d = await startPlugin(
      networkPlugin,
      async (urls) => {
        // The test's own MCP client runs in this process too.
        const plugin = network({ ignoreUrls: [urls.mcpUrl], ...options });
        await plugin.ready;
        return plugin;
      },
      { app: { id: 'com.test.replay', name: 'Replay Test' } },
    );
    const captured = async (urlPart: string, nth = 0) =>
      (await waitFor(
        () => d.host.transactions({ urlContains: urlPart }).filter((tx) => tx.state !== 'pending')[nth],
        `transaction ${nth} of ${urlPart}`,
      )) as Transaction;
    return { d, server, received, captured };
  }

  it('sends the request again as captured; the new row is linked to the original', async () => {
    const { d, server, received, captured } = await setup();
    const answer = await fetch(`${server.url}/api/orders?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app': 'shop' },
      body: '{"sku":"A-1"}',
    });
    await answer.text();
    const original = await captured('/api/orders');

    const result = await d.host.replay({ id: original.id });
    expect(received).toHaveLength(2);
    const [first, again] = received as [Received, Received];
    expect(again).toMatchObject({ method: 'POST', url: '/api/orders?x=1', body: '{"sku":"A-1"}' });
    expect(again.headers).toMatchObject({ 'content-type': 'application/json', 'x-app': 'shop' });
    expect(again.headers['user-agent']).toBe(first.headers['user-agent']);
    expect(result.replayOf).toBe(original.id);
    expect(result.transaction).toMatchObject({ replayOf: original.id, state: 'complete', status: 200 });
    expect(result.transaction!.id).not.toBe(original.id);
    // Node's wire headers were captured; the runtime sets them again itself.
    expect(result.skippedHeaders).toEqual(
      expect.arrayContaining([
        { name: 'host', reason: 'set-by-runtime' },
        { name: 'content-length', reason: 'set-by-runtime' },
      ]),
    );
    const replayed = d.host.get(result.transaction!.id)!;
    expect(replayed).toMatchObject({
      replayOf: original.id,
      request: { method: 'POST', body: { data: '{"sku":"A-1"}' } },
      response: { status: 200, body: { data: 'got POST /api/orders?x=1' } },
    });
    expect(d.host.list({ limit: 10, order: 'newest' }).transactions[0]).toMatchObject({ replayOf: original.id });
  });

  it('sends the edits: method, URL, headers (replaced, added, removed) and body', async () => {
    const { d, server, received, captured } = await setup();
    await (
      await fetch(`${server.url}/api/cart`, {
        headers: { 'x-app': 'shop', 'x-remove-me': 'yes', accept: 'text/plain' },
      })
    ).text();
    const original = await captured('/api/cart');

    const result = await d.host.replay({
      id: original.id,
      method: 'put',
      url: `${server.url}/api/cart/7?edited=1`,
      headers: { 'X-App': 'edited', 'x-remove-me': null, 'x-added': 'new', 'content-type': 'text/plain' },
      body: 'two of them',
    });
    const last = received.at(-1)!;
    expect(last).toMatchObject({ method: 'PUT', url: '/api/cart/7?edited=1', body: 'two of them' });
    expect(last.headers).toMatchObject({ 'x-app': 'edited', 'x-added': 'new', accept: 'text/plain' });
    expect(last.headers).not.toHaveProperty('x-remove-me');
    expect(result.transaction).toMatchObject({ method: 'PUT', replayOf: original.id, status: 200 });

    // A 404 is an answer like any other; an empty body edit sends none.
    const missing = await d.host.replay({ id: original.id, url: `${server.url}/missing`, method: 'POST', body: '' });
    expect(received.at(-1)).toMatchObject({ method: 'POST', url: '/missing', body: '' });
    expect(missing.transaction).toMatchObject({ status: 404, state: 'complete' });
  });

  it('skips headers redacted in the app and says so; an edit can give them a value', async () => {
    const { d, server, received, captured } = await setup();
    await (await fetch(`${server.url}/api/me`, { headers: { authorization: 'Bearer app-secret' } })).text();
    const original = await captured('/api/me');
    expect(original.request.headers.find((h) => h.name === 'authorization')?.value).toBe('[redacted]');

    const result = await d.host.replay({ id: original.id });
    expect(received.at(-1)!.headers).not.toHaveProperty('authorization');
    expect(result.skippedHeaders).toContainEqual({ name: 'authorization', reason: 'redacted' });
    expect(result.note).toMatch(/Not sent: authorization \(redacted in the app.*pass it in headers/);

    const edited = await d.host.replay({ id: original.id, headers: { authorization: 'Bearer typed-in' } });
    expect(received.at(-1)!.headers.authorization).toBe('Bearer typed-in');
    expect(edited.skippedHeaders.some((h) => h.name === 'authorization')).toBe(false);
  });

  it('over MCP: the real value of a header hidden from MCP is sent, never shown; the call is in the history', async () => {
    const { d, server, received, captured } = await setup({ redact: { scope: 'mcp' } });
    await (await fetch(`${server.url}/api/me`, { headers: { authorization: 'Bearer mcp-hidden' } })).text();
    const original = await captured('/api/me');

    const tools = await d.mcp.tools();
    expect(tools.find((t) => t.name === 'network_replay_request')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
    const answer = await d.mcp.call('network_replay_request', { id: original.id, headers: { 'x-via': 'mcp' } });
    expect(answer.isError ?? false, answer.text).toBe(false);
    expect(received.at(-1)!.headers).toMatchObject({ authorization: 'Bearer mcp-hidden', 'x-via': 'mcp' });
    expect(answer.text).not.toContain('mcp-hidden');
    expect(answer.structuredContent).toMatchObject({ replayOf: original.id, transaction: { replayOf: original.id } });

    const unknown = await d.mcp.call('network_replay_request', { id: 'nope-1' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/no transaction "nope-1".*network_list_transactions/);
    const calls = d.core.history.list().filter((c) => c.tool === 'network_replay_request');
    expect(calls.map((c) => c.status).sort()).toEqual(['failed', 'succeeded']);
    const ok = d.core.history.get(calls.find((c) => c.status === 'succeeded')!.id);
    expect(ok?.args).toMatchObject({ id: original.id, headers: { 'x-via': 'mcp' } });
  });

  it('refuses what cannot be sent, saying what to do instead', async () => {
    const { d, server, captured } = await setup({ maxBodyBytes: 16 });
    await (await fetch(`${server.url}/api/big`, { method: 'POST', body: 'x'.repeat(100) })).text();
    await (await fetch(`${server.url}/api/small`, { method: 'POST', body: 'tiny' })).text();
    const big = await captured('/api/big');
    const small = await captured('/api/small');

    await expect(d.host.replay({ id: 'gone-9' })).rejects.toThrow(/network_list_transactions lists the ids/);
    await expect(d.host.replay({ id: big.id })).rejects.toThrow(
      /cut at the app's capture cap \(16 of 100 bytes kept\).*pass body.*maxBodyBytes/,
    );
    expect((await d.host.replay({ id: big.id, body: 'replacement' })).transaction).toMatchObject({ status: 200 });
    await expect(d.host.replay({ id: small.id, method: 'GET' })).rejects.toThrow(/pass body: "" to send none/);
    await expect(d.host.replay({ id: small.id, method: 'GET', body: 'x' })).rejects.toThrow(
      /GET request cannot carry a body/,
    );
    await expect(d.host.replay({ id: small.id, url: 'ftp://127.0.0.1/x' })).rejects.toThrow(/only http and https/);
    await expect(d.host.replay({ id: small.id, url: '/relative' })).rejects.toThrow(/not an absolute URL/);

    const har = {
      log: {
        version: '1.2',
        creator: { name: 't', version: '1' },
        entries: [
          {
            startedDateTime: new Date().toISOString(),
            time: 1,
            request: {
              method: 'GET',
              url: `${server.url}/from-har`,
              httpVersion: 'HTTP/1.1',
              headers: [],
              queryString: [],
              cookies: [],
              headersSize: -1,
              bodySize: 0,
            },
            response: {
              status: 200,
              statusText: 'OK',
              httpVersion: 'HTTP/1.1',
              headers: [],
              cookies: [],
              content: { size: 0, mimeType: 'text/plain' },
              redirectURL: '',
              headersSize: -1,
              bodySize: 0,
            },
            cache: {},
            timings: { send: 0, wait: 1, receive: 0 },
          },
        ],
      },
    };
    d.host.importHar(har);
    const imported = d.host.transactions({ urlContains: '/from-har' })[0]!;
    await expect(d.host.replay({ id: imported.id })).rejects.toThrow(/read from a HAR file.*no app can send it again/);

    // A HAR opened as its own offline session: no app is behind it at all.
    const file = d.core.sessions.openOffline({
      app: { id: 'offline:t', name: 'saved.har' },
      device: { id: 'offline', name: 'Files', platform: 'other' },
      plugins: [{ id: 'network', version: '1.0.0' }],
      source: 'saved.har',
    });
    d.core.plugins.open(file);
    const offlineHost = d.core.plugins.instance(file.info.id, 'network') as unknown as NetworkHost;
    offlineHost.importHar(har, 'saved.har');
    const [fromFile] = offlineHost.transactions();
    await expect(offlineHost.replay({ id: fromFile!.id })).rejects.toThrow(
      /read from a file \(saved\.har\); no app is behind it.*Connect the app/,
    );

    await d.disconnect();
    await expect(d.host.replay({ id: small.id })).rejects.toThrow(/is not connected.*reconnect the app/);
    const offline = await d.mcp.call('network_replay_request', { id: small.id, sessionId: d.sessionId });
    expect(offline.isError).toBe(true);
    expect(offline.text).toMatch(/inactive.*reconnect the app/);
  });

  it('a request that fails in the app is a failed row linked to the original, with the failure in the note', async () => {
    const { d, server, captured } = await setup();
    await (await fetch(`${server.url}/api/ping`)).text();
    const original = await captured('/api/ping');
    const closed = await httpServer(() => {});
    await closed.close();
    const result = await d.host.replay({ id: original.id, url: `${closed.url}/refused` });
    expect(result.transaction).toMatchObject({ state: 'failed', replayOf: original.id });
    expect(result.note).toMatch(/failed in the app: fetch failed.*ECONNREFUSED/);
    expect(result.note).not.toMatch(/ignoreUrls/);

    // fetch refuses some ports before anything is sent: nothing is captured, and the note says why.
    const blocked = await d.host.replay({ id: original.id, url: 'http://127.0.0.1:9/blocked' });
    expect(blocked.transaction).toBeUndefined();
    expect(blocked.note).toMatch(/^The app could not send it: fetch failed: bad port\./);
  });
});

describe('building a replay from a stored transaction', () => {
  const tx = (over: Partial<Transaction['request']> = {}): Transaction => ({
    id: 't-1',
    seq: 1,
    state: 'complete',
    initiator: 'fetch',
    request: { method: 'POST', url: 'http://localhost:3000/a#frag', headers: [], ...over },
    timing: { startedAt: 0 },
  });

  it('keeps repeated headers and their order, replaces by name whatever the case, and appends new names', () => {
    const headers = [
      { name: 'Accept', value: 'a' },
      { name: 'x-multi', value: '1' },
      { name: 'x-multi', value: '2' },
      { name: 'x-keep', value: 'k' },
    ];
    expect(editHeaders(headers, undefined)).toEqual(headers);
    expect(editHeaders(headers, { 'X-MULTI': 'one', accept: null, 'x-new': 'n' })).toEqual([
      { name: 'x-multi', value: 'one' },
      { name: 'x-keep', value: 'k' },
      { name: 'x-new', value: 'n' },
    ]);
  });

  it('sends a binary body as it was captured, drops the fragment, refuses a body it did not keep', () => {
    const binary = tx({ body: { encoding: 'base64', data: 'AAEC', size: 3, truncated: false } });
    expect(buildReplay(binary)).toEqual({
      replayOf: 't-1',
      method: 'POST',
      url: 'http://localhost:3000/a',
      headers: [],
      body: { encoding: 'base64', data: 'AAEC' },
    });
    expect(() => buildReplay(tx({ headers: [{ name: 'content-length', value: '12' }] }))).toThrow(
      /did not keep the body.*pass body/,
    );
    expect(() => buildReplay(tx(), { method: 'CONNECT' })).toThrow(/fetch cannot send CONNECT/);
    expect(buildReplay(tx(), { method: 'delete' }).method).toBe('DELETE');
  });
});
