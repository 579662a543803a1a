import { connect, constants, createServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import {
  type Client,
  credentials,
  Metadata,
  makeGenericClientConstructor,
  Server,
  ServerCredentials,
  status,
} from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { startNetworkDebuggee } from '../host/testing.js';

// node:http2 (issue 35, §3 defect 3): a hand-written session and a gRPC-js app, recorded with their
// headers, bodies and status, and the app getting the same answers with and without Porthole.

type Debuggee = Awaited<ReturnType<typeof startNetworkDebuggee>>;
const finished = (d: Debuggee, part: string) =>
  waitFor(() => d.host.transactions({ urlContains: part }).find((t) => t.state !== 'pending'), part);

async function h2cServer(): Promise<{ url: string; server: Http2Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/gzip')
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync('{"z":1}'));
      else if (req.url === '/reset') res.stream.close(constants.NGHTTP2_INTERNAL_ERROR);
      else
        res
          .writeHead(201, { 'content-type': 'application/json', 'x-served': 'h2' })
          .end(JSON.stringify({ method: req.method, body: Buffer.concat(chunks).toString() }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** What the app gets from a stream: status, a header, the body, or the error's code. */
function call(url: string, path: string, method = 'GET', body?: string) {
  return new Promise<unknown>((resolve) => {
    const session = connect(url);
    session.on('error', () => {});
    const stream = session.request({ ':method': method, ':path': path, 'content-type': 'text/plain' });
    let head: Record<string, unknown> = {};
    const chunks: Buffer[] = [];
    stream.on('response', (h) => {
      head = { status: h[':status'], served: h['x-served'], encoding: h['content-encoding'] };
    });
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      session.close();
      resolve({ ...head, bytes: Buffer.concat(chunks).toString('base64') });
    });
    stream.on('error', (e: NodeJS.ErrnoException) => {
      session.close();
      resolve({ error: e.code });
    });
    if (body !== undefined) stream.end(body);
    else stream.end();
  });
}

describe('node:http2', () => {
  const defer = cleanupAfterEach();

  it('records streams of a session: method, URL, headers, bodies both ways, decoded, and a reset', async () => {
    const { url, server } = await h2cServer();
    defer(() => new Promise<void>((r) => server.close(() => r())));
    const run = async () => [
      await call(url, '/echo?x=1', 'POST', 'hello h2'),
      await call(url, '/gzip'),
      await call(url, '/reset'),
    ];
    const without = await run();
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    expect(await run()).toEqual(without);
    expect(without[2]).toEqual({ error: 'ERR_HTTP2_STREAM_ERROR' });

    const echo = await finished(d, '/echo');
    expect(echo).toMatchObject({
      state: 'complete',
      initiator: 'http2',
      request: { method: 'POST', url: `${url}/echo?x=1`, body: { data: 'hello h2' } },
      response: { status: 201, httpVersion: '2.0', body: { data: '{"method":"POST","body":"hello h2"}' } },
      remoteAddress: '127.0.0.1',
    });
    expect(echo.request.headers).toContainEqual({ name: 'content-type', value: 'text/plain' });
    expect(echo.response?.headers).toContainEqual({ name: 'x-served', value: 'h2' });
    expect(echo.request.headers.some((h) => h.name.startsWith(':'))).toBe(false);
    const gzip = await finished(d, '/gzip');
    expect(gzip.response?.body).toMatchObject({ encoding: 'text', data: '{"z":1}' });
    const reset = await finished(d, '/reset');
    expect(reset).toMatchObject({ state: 'failed', error: { code: 'ERR_HTTP2_STREAM_ERROR' } });
  });

  it('mock rules answer node:http2 streams (status, headers, body, trailers, delay, error code); off restores the real answer', async () => {
    const reached: string[] = [];
    const server = createServer((req, res) => {
      reached.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => res.writeHead(200, { 'x-served': 'h2' }).end(`real ${req.url}`));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    defer(() => new Promise<void>((r) => server.close(() => r())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    /** Three streams on one session, as an app keeps it: a mocked one, a real one, a failing one. */
    const run = async () => {
      const session = connect(url);
      session.on('error', () => {});
      const one = (path: string, body?: string) =>
        new Promise<unknown>((resolve) => {
          const stream = session.request({ ':method': body ? 'POST' : 'GET', ':path': path });
          let head: Record<string, unknown> = {};
          let trailers: unknown;
          const chunks: Buffer[] = [];
          const order: string[] = [];
          const first = (event: string) => !order.includes(event) && order.push(event);
          stream.on('response', (h) => {
            first('response');
            head = { status: h[':status'], served: h['x-served'], rule: h['x-rule'], type: h['content-type'] };
          });
          stream.on('trailers', (t) => {
            first('trailers');
            trailers = { check: t['x-check'] };
          });
          stream.on('data', (c: Buffer) => {
            first('data');
            chunks.push(c);
          });
          stream.on('end', () => {
            first('end');
            resolve({ ...head, trailers, text: Buffer.concat(chunks).toString(), order });
          });
          stream.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code, message: e.message }));
          stream.end(body);
        });
      try {
        return await Promise.all([one('/mocked?a=1', 'hello'), one('/real'), one('/broken')]);
      } finally {
        session.close();
      }
    };
    const without = await run();
    expect(reached.splice(0)).toEqual(['POST /mocked?a=1', 'GET /real', 'GET /broken']);

    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    const answered = await d.host.addMockRule({
      match: { method: 'POST', url: { kind: 'contains', value: '/mocked' } },
      action: {
        type: 'respond',
        status: 203,
        headers: { 'x-rule': 'yes' },
        body: { type: 'json', json: { from: 'rule' } },
        trailers: { 'x-check': 'done' },
        delayMs: 30,
      },
    });
    const broken = await d.host.addMockRule({
      match: { url: { kind: 'contains', value: '/broken' } },
      action: { type: 'networkError', code: 'ECONNRESET', message: 'reset by the rule' },
    });
    const mocked = await run();
    expect(mocked).toEqual([
      {
        status: 203,
        served: undefined,
        rule: 'yes',
        type: 'application/json',
        trailers: { check: 'done' },
        text: '{"from":"rule"}',
        order: ['response', 'data', 'trailers', 'end'],
      },
      without[1],
      { error: 'ECONNRESET', message: 'reset by the rule' },
    ]);
    expect(reached.splice(0)).toEqual(['GET /real']); // the rules' requests never reached the server
    // A session closed right after its request lets the stream end, as with a server: the rule's answer comes.
    const closing = connect(url);
    const late = closing.request({ ':method': 'POST', ':path': '/mocked?a=2' });
    late.end('x');
    closing.close();
    const lateAnswer = await new Promise<unknown>((resolve) => {
      let status: unknown;
      const chunks: Buffer[] = [];
      late.on('response', (h) => (status = h[':status']));
      late.on('data', (c: Buffer) => chunks.push(c));
      late.on('end', () => resolve({ status, text: Buffer.concat(chunks).toString() }));
      late.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code }));
    });
    expect(lateAnswer).toEqual({ status: 203, text: '{"from":"rule"}' });
    // A body cut part-way with a reset: the app gets the first bytes, then the stream's reset.
    const cut = await d.host.addMockRule({
      match: { url: { kind: 'contains', value: '/cut' } },
      action: {
        type: 'respond',
        status: 200,
        body: { type: 'text', text: 'abcdef' },
        cut: { afterBytes: 3, end: 'reset' },
      },
    });
    const cutSession = connect(url);
    const cutStream = cutSession.request({ ':path': '/cut' });
    cutStream.end();
    const cutAnswer = await new Promise<unknown>((resolve) => {
      const chunks: Buffer[] = [];
      cutStream.on('data', (c: Buffer) => chunks.push(c));
      cutStream.on('end', () => resolve({ text: Buffer.concat(chunks).toString() }));
      cutStream.on('error', (e: NodeJS.ErrnoException) =>
        resolve({ text: Buffer.concat(chunks).toString(), error: e.code }),
      );
    });
    cutSession.close();
    expect(cutAnswer).toEqual({ text: 'abc', error: 'ERR_HTTP2_STREAM_ERROR' });
    await d.host.removeMockRule(cut.rule.id);
    await waitFor(
      () => d.host.transactions({ urlContains: url }).filter((t) => t.state !== 'pending').length === 5 || undefined,
      'five streams',
    );
    const [rec, real, fail] = d.host.transactions({ urlContains: url }).sort((a, b) => a.seq - b.seq);
    expect(rec).toMatchObject({
      state: 'complete',
      initiator: 'http2',
      mock: { ruleId: answered.rule.id },
      request: { method: 'POST', url: `${url}/mocked?a=1`, body: { data: 'hello' } },
      response: { status: 203, httpVersion: '2.0', body: { data: '{"from":"rule"}' } },
    });
    expect(rec!.remoteAddress).toBeUndefined();
    expect(real).toMatchObject({ state: 'complete', response: { status: 200 }, remoteAddress: '127.0.0.1' });
    expect(real!.mock).toBeUndefined();
    expect(fail).toMatchObject({ state: 'failed', mock: { ruleId: broken.rule.id }, error: { code: 'ECONNRESET' } });
    expect(d.host.mockConfig().hits).toEqual({ [answered.rule.id]: 2, [broken.rule.id]: 1, [cut.rule.id]: 1 });

    await d.host.setMockingEnabled(false);
    expect(await run()).toEqual(without);
    expect(reached.splice(0)).toEqual(['POST /mocked?a=1', 'GET /real', 'GET /broken']);
  });

  it("records a gRPC answer's trailers (grpc-status, grpc-message); a status other than 0 is a failure", async () => {
    // A tiny gRPC server over node:http2: a length-prefixed message, then the status in trailers.
    const server = createServer();
    server.on('stream', (stream, headers) => {
      stream.resume();
      stream.on('end', () => {
        const fail = headers[':path'] === '/shop.Carts/Fail';
        const message = Buffer.from(fail ? '' : '{"total":42}');
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.once('wantTrailers', () =>
          stream.sendTrailers(
            fail ? { 'grpc-status': '5', 'grpc-message': 'no%20such%20cart' } : { 'grpc-status': '0' },
          ),
        );
        const prefix = Buffer.alloc(5);
        prefix.writeUInt32BE(message.length, 1);
        stream.end(Buffer.concat([prefix, message]));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    defer(() => new Promise<void>((r) => server.close(() => r())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const unary = (path: string) =>
      new Promise<unknown>((resolve) => {
        const session = connect(url);
        const stream = session.request({
          ':method': 'POST',
          ':path': path,
          'content-type': 'application/grpc',
          te: 'trailers',
        });
        const chunks: Buffer[] = [];
        let trailers: unknown;
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('trailers', (t) => {
          trailers = { status: t['grpc-status'], message: t['grpc-message'] };
        });
        stream.on('end', () => {
          session.close();
          resolve({ trailers, bytes: Buffer.concat(chunks).toString('base64') });
        });
        stream.end(Buffer.from([0, 0, 0, 0, 2, 0x7b, 0x7d]));
      });
    const run = async () => [await unary('/shop.Carts/Get'), await unary('/shop.Carts/Fail')];
    const without = await run();
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    expect(await run()).toEqual(without);
    expect(without.map((r) => (r as { trailers: unknown }).trailers)).toEqual([
      { status: '0', message: undefined },
      { status: '5', message: 'no%20such%20cart' },
    ]);
    await waitFor(
      () =>
        d.host.transactions({ urlContains: '/shop.Carts/' }).filter((t) => t.state !== 'pending').length === 2 ||
        undefined,
      'two calls',
    );
    const [ok, fail] = d.host.transactions({ urlContains: '/shop.Carts/' }).sort((a, b) => a.seq - b.seq);
    expect(ok).toMatchObject({
      state: 'complete',
      grpc: { status: 0 },
      response: { trailers: [{ name: 'grpc-status', value: '0' }] },
    });
    expect(fail).toMatchObject({ state: 'complete', grpc: { status: 5, message: 'no such cart' } });
    expect(fail!.response?.trailers).toEqual([
      { name: 'grpc-status', value: '5' },
      { name: 'grpc-message', value: 'no%20such%20cart' },
    ]);
    // The answers carry them; a status other than 0 counts as failed (failedOnly, the timeline).
    const got = await d.mcp.call('network_get_transaction', { id: fail!.id });
    expect(got.structuredContent).toMatchObject({
      transaction: { response: { trailers: fail!.response!.trailers }, grpc: fail!.grpc },
    });
    const failed = await d.mcp.call('network_list_transactions', { urlContains: '/shop.Carts/', failedOnly: true });
    const listed = (failed.structuredContent as { transactions: { id: string; grpc?: unknown }[] }).transactions;
    expect(listed).toMatchObject([{ id: fail!.id, grpc: { status: 5, message: 'no such cart' } }]);
    const timeline = d.host.timeline!({ limit: 100 }).entries.filter((e) => e.summary.includes('/shop.Carts/'));
    expect(timeline.map((e) => e.level)).toEqual(['info', 'error']);
    expect(timeline[1]?.summary).toContain('→ 200 with gRPC status 5 (no such cart)');
    // HAR: the trailers as the response's `_trailers`, read back on import.
    const har = d.host.exportHar({ urlContains: '/shop.Carts/' });
    expect((har.log.entries[1]!.response as { _trailers?: unknown })._trailers).toEqual(fail!.response!.trailers);
    d.host.clear();
    d.host.importHar(har);
    const back = d.host.transactions({ urlContains: '/shop.Carts/Fail' })[0];
    expect(back).toMatchObject({ grpc: fail!.grpc, response: { trailers: fail!.response!.trailers } });
  });

  it('records a gRPC-js unary call and its failure status', async () => {
    const json = {
      serialize: (v: unknown) => Buffer.from(JSON.stringify(v)),
      deserialize: (b: Buffer) => JSON.parse(b.toString()),
    };
    const service = {
      getCart: {
        path: '/shop.Carts/GetCart',
        requestStream: false,
        responseStream: false,
        requestSerialize: json.serialize,
        requestDeserialize: json.deserialize,
        responseSerialize: json.serialize,
        responseDeserialize: json.deserialize,
      },
    };
    const server = new Server();
    const served: number[] = [];
    server.addService(service, {
      getCart: (
        call: { request: { id: number } },
        done: (e: { code: number; details: string } | null, v?: unknown) => void,
      ) => {
        served.push(call.request.id);
        call.request.id === 0 ? done({ code: status.NOT_FOUND, details: 'no cart 0' }) : done(null, { total: 42 });
      },
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    defer(() => new Promise<void>((r) => server.tryShutdown(() => r())));
    const Carts = makeGenericClientConstructor(service, 'Carts');
    const ask = async (id: number) => {
      const client = new Carts(`127.0.0.1:${port}`, credentials.createInsecure()) as unknown as Client & {
        getCart(req: object, cb: (e: { code: number } | null, v?: unknown) => void): void;
      };
      try {
        return await new Promise((resolve) => client.getCart({ id }, (e, v) => resolve(e ? { code: e.code } : v)));
      } finally {
        client.close();
      }
    };
    const without = [await ask(7), await ask(0)];
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    expect([await ask(7), await ask(0)]).toEqual(without);
    expect(without).toEqual([{ total: 42 }, { code: status.NOT_FOUND }]);
    await waitFor(
      () =>
        d.host.transactions({ urlContains: '/shop.Carts/GetCart' }).filter((t) => t.state !== 'pending').length === 2 ||
        undefined,
      'two calls',
    );
    const [ok, missing] = d.host.transactions({ urlContains: '/shop.Carts/GetCart' }).sort((a, b) => a.seq - b.seq);
    expect(ok).toMatchObject({
      initiator: 'http2',
      request: { method: 'POST' },
      response: { status: 200, httpVersion: '2.0' },
    });
    expect(ok!.request.headers).toContainEqual({ name: 'content-type', value: 'application/grpc' });
    expect(missing!.response?.headers).toContainEqual({ name: 'grpc-status', value: String(status.NOT_FOUND) });

    // Mock rules answer gRPC-js: a message with grpc-status 0 in trailers, and a trailers-only failure.
    expect(served.splice(0)).toEqual([7, 0, 7, 0]);
    const message = Buffer.from(JSON.stringify({ total: 1 }));
    const framed = Buffer.concat([Buffer.from([0, 0, 0, 0, message.length]), message]);
    const grpc = { 'content-type': 'application/grpc' };
    await d.host.setMockRules([
      {
        match: { url: { kind: 'contains', value: '/GetCart' }, headers: [{ name: 'x-cart', equals: 'gone' }] },
        action: {
          type: 'respond',
          status: 200,
          headers: { ...grpc, 'grpc-status': '14', 'grpc-message': 'mocked outage' },
        },
      },
      {
        match: { url: { kind: 'contains', value: '/GetCart' } },
        action: {
          type: 'respond',
          status: 200,
          headers: grpc,
          body: { type: 'base64', base64: framed.toString('base64') },
          trailers: { 'grpc-status': '0' },
        },
      },
    ]);
    const withMeta = async (id: number, cart?: string) => {
      const client = new Carts(`127.0.0.1:${port}`, credentials.createInsecure()) as unknown as Client & {
        getCart(
          req: object,
          meta: Metadata,
          cb: (e: { code: number; details: string } | null, v?: unknown) => void,
        ): void;
      };
      const meta = new Metadata();
      if (cart) meta.set('x-cart', cart);
      try {
        return await new Promise((resolve) =>
          client.getCart({ id }, meta, (e, v) => resolve(e ? { code: e.code, details: e.details } : v)),
        );
      } finally {
        client.close();
      }
    };
    expect([await withMeta(7), await withMeta(0, 'gone')]).toEqual([
      { total: 1 },
      { code: status.UNAVAILABLE, details: 'mocked outage' },
    ]);
    expect(served).toEqual([]); // the server never saw them
  });
});
