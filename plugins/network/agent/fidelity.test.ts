import { createServer as createHttp, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../electron/host/testing.js';
import { selfSignedCert, startNetworkDebuggee } from '../host/testing.js';
import type { Transaction } from '../protocol.js';
import { base64ToBytes } from './capture-body.js';
import { type Call, keepAliveAgent, NODE_CLIENTS, type Outcome } from './fidelity-testing.js';

// The fidelity matrix (issue 11): every Node client × every case against a local server that logs
// what it received and sent. Each call runs twice, first before Porthole is in the process at all
// (the taps are installed by the first network()), then with it: what the app got must be the
// same, what Porthole recorded must be what the server logged, and each client's requests in a row
// must use as many sockets as without Porthole (keep-alive).

interface Logged {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  socket: number;
  status?: number;
  /** Headers the server set itself. */
  sent?: Record<string, string>;
  /** The body before Content-Encoding, and as it went on the wire. */
  identity?: Buffer;
  wire?: Buffer;
}

const TEXT = JSON.stringify({ words: Array.from({ length: 400 }, (_, i) => `word-${i}`) });
const BINARY = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7 + 3) % 256));
const BIG = Buffer.alloc(2 * 1024 * 1024, 'abcdefghijklmnopqrstuvwxyz');
const HUGE = Buffer.from(Array.from({ length: 10 * 1024 * 1024 }, (_, i) => (i * 31 + 7) % 251));
/** A download in parts, 15 ms apart, and an upload in parts, 10 ms apart. */
const DOWN_PARTS = Array.from({ length: 4 }, (_, i) => Buffer.alloc(64 * 1024, String.fromCharCode(97 + i)));
const UP_PARTS = ['first,', 'second,', 'third'].map((p) => Buffer.from(p));
/** Requests in a row per client, to count the sockets they use. */
const KEEP_ALIVE_REQUESTS = 3;
const ENCODERS: Record<string, (b: string) => Buffer> = {
  gzip: (b) => gzipSync(b),
  br: (b) => brotliCompressSync(b),
  deflate: (b) => deflateSync(b),
};

type Expect = 'complete' | 'failed';
interface Case {
  call?: Call;
  expect: Expect;
  /** Why a client cannot be held to this case, when it cannot (said in the test name, never skipped silently). */
  impossible?: Record<string, string>;
  /** Clients whose timeout reaches the wire as a plain abort, with the reason. */
  timeoutIsAbort?: Record<string, string>;
}

const OWN_TIMER =
  "the client's timeout is its own timer that aborts the request without a reason; on the wire it is an abort";

const CASES: Record<string, Case> = {
  json: { expect: 'complete' },
  'post json': {
    call: { method: 'POST', body: Buffer.from('{"hello":"wörld"}'), headers: { 'content-type': 'application/json' } },
    expect: 'complete',
  },
  gzip: { expect: 'complete' },
  br: { expect: 'complete' },
  deflate: { expect: 'complete' },
  chunked: { expect: 'complete' },
  '103 then 200': { expect: 'complete' },
  '204': { expect: 'complete' },
  '304': { expect: 'complete' },
  head: { call: { method: 'HEAD' }, expect: 'complete' },
  redirect: { expect: 'complete' },
  latin1: { expect: 'complete' },
  binary: { expect: 'complete' },
  '2mib': { expect: 'complete' },
  '10mib': { expect: 'complete' },
  'stream down': { expect: 'complete' },
  'stream up': {
    call: { method: 'POST', stream: UP_PARTS, headers: { 'content-type': 'text/plain' } },
    expect: 'complete',
    impossible: { 'http.get': 'http.get sends no body' },
  },
  timeout: {
    call: { timeoutMs: 150 },
    expect: 'failed',
    timeoutIsAbort: { 'node-fetch': OWN_TIMER, superagent: OWN_TIMER },
  },
  reset: { expect: 'failed' },
  abort: { call: { abortAfterMs: 60 }, expect: 'failed' },
};

function route(c: string, req: IncomingMessage, res: ServerResponse, entry: Logged): void {
  const send = (status: number, headers: Record<string, string>, identity?: Buffer, wire = identity) => {
    entry.status = status;
    entry.sent = headers;
    entry.identity = identity;
    entry.wire = wire;
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : wire);
  };
  switch (c) {
    case 'json':
    case 'post json':
      return send(
        200,
        { 'content-type': 'application/json', 'x-case': c },
        Buffer.from(JSON.stringify({ got: entry.body.toString() })),
      );
    case 'gzip':
    case 'br':
    case 'deflate':
      return send(
        200,
        { 'content-type': 'application/json', 'content-encoding': c },
        Buffer.from(TEXT),
        ENCODERS[c]!(TEXT),
      );
    case 'chunked': {
      entry.status = 200;
      entry.sent = { 'content-type': 'text/plain' };
      entry.identity = Buffer.from('one,two,three');
      entry.wire = entry.identity;
      res.writeHead(200, entry.sent);
      res.write('one,');
      // Chained, so a busy machine cannot run the two timers out of order.
      setTimeout(() => {
        res.write('two,');
        setTimeout(() => res.end('three'), 10);
      }, 10);
      return;
    }
    case '103 then 200':
      // an informational response first (Early Hints): the record is the final one
      res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
      return send(200, { 'content-type': 'text/plain', 'x-case': c }, Buffer.from('after the hints'));
    case '204':
      return send(204, { 'x-case': c });
    case '304':
      return send(304, { etag: '"v1"' });
    case 'head':
      return send(200, { 'content-type': 'text/plain', 'content-length': '11' }, Buffer.from('hello world'));
    case 'redirect': {
      const hop = Number(/\/hop(\d)$/.exec(req.url!)?.[1] ?? 0);
      if (hop < 2) return send(302, { location: `${req.url!.replace(/\/hop\d$/, '')}/hop${hop + 1}` });
      return send(200, { 'content-type': 'text/plain' }, Buffer.from('arrived'));
    }
    case 'latin1':
      return send(200, { 'content-type': 'text/plain; charset=ISO-8859-1' }, Buffer.from('café crème', 'latin1'));
    case 'binary':
      return send(200, { 'content-type': 'application/octet-stream' }, BINARY);
    case '2mib':
      return send(200, { 'content-type': 'text/plain', 'content-length': String(BIG.length) }, BIG);
    case '10mib':
      return send(200, { 'content-type': 'application/octet-stream' }, HUGE);
    case 'stream up':
      return send(200, { 'content-type': 'text/plain' }, Buffer.from(`got ${entry.body.length} bytes`));
    case 'stream down': {
      entry.status = 200;
      entry.sent = { 'content-type': 'text/plain' };
      entry.identity = Buffer.concat(DOWN_PARTS);
      entry.wire = entry.identity;
      res.writeHead(200, entry.sent);
      const next = (i: number) => {
        if (i === DOWN_PARTS.length) return void res.end();
        res.write(DOWN_PARTS[i]);
        setTimeout(() => next(i + 1), 15);
      };
      return next(0);
    }
    case 'keep-alive':
      return send(200, { 'content-type': 'text/plain' }, Buffer.from('ok'));
    case 'timeout':
    case 'abort':
      return; // never answers; the client gives up
    case 'reset':
      entry.status = 200;
      entry.sent = { 'content-type': 'text/plain', 'content-length': '1000' };
      res.writeHead(200, entry.sent);
      res.write('x'.repeat(100));
      setTimeout(() => res.socket?.destroy(), 40);
      return;
  }
}

function groundTruth(tls?: { key: string; cert: string }) {
  const log = new Map<string, Logged>();
  const sockets = new WeakMap<object, number>();
  let nextSocket = 1;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!sockets.has(req.socket)) sockets.set(req.socket, nextSocket++);
      const path = req.url!;
      const entry: Logged = {
        method: req.method!,
        path,
        headers: req.headers,
        body: Buffer.concat(chunks),
        socket: sockets.get(req.socket)!,
      };
      log.set(path, entry);
      route(decodeURIComponent(path.split('/')[2]!), req, res, entry);
    });
  };
  const server = tls ? createHttps(tls, handler) : createHttp(handler);
  return new Promise<{ url: string; log: Map<string, Logged>; close(): Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
        log,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

const slug = (s: string) => s.replace(/[^a-z0-9]+/gi, '-');
const pathOf = (c: string, client: string, run: string) => `/m/${encodeURIComponent(c)}/${slug(client)}/${run}`;
const VOLATILE = new Set(['date', 'keep-alive', 'connection']);

/** An outcome with what differs between the runs by design (the port, the run's name in the URL) made equal. */
function comparable(o: Outcome) {
  const same = (text: string) => text.replace(/:\d+/g, ':PORT').replace(/\/(without|with)(?=[/:\s]|$)/g, '/RUN');
  if ('error' in o) return { error: { name: o.error.name, code: o.error.code, message: same(o.error.message) } };
  const headers = Object.fromEntries(
    Object.entries(o.headers)
      .filter(([k]) => !VOLATILE.has(k))
      .map(([k, v]) => [k, same(v)]),
  );
  return { status: o.status, headers, body: o.body.toString('base64') };
}

const recordedBody = (body: Transaction['request']['body']) =>
  body
    ? body.encoding === 'base64'
      ? Buffer.from(base64ToBytes(body.data))
      : Buffer.from(body.data, 'utf8')
    : Buffer.alloc(0);
const header = (headers: { name: string; value: string }[] | undefined, name: string) =>
  headers
    ?.filter((h) => h.name.toLowerCase() === name)
    .map((h) => h.value)
    .join(', ') || undefined;

describe('fidelity matrix: Node clients × cases, with and without Porthole', () => {
  let plain: Awaited<ReturnType<typeof groundTruth>>;
  let secure: Awaited<ReturnType<typeof groundTruth>>;
  let tls: { key: string; cert: string };
  let refusedUrl: string;
  let snapshot: Transaction[] = [];
  const baseline = new Map<string, Outcome>();
  const observed = new Map<string, Outcome>();
  /** Sockets each client used for its requests in a row, without and with Porthole. */
  const sockets = { without: new Map<string, number>(), with: new Map<string, number>() };

  /** Each client in turn (no other client's requests meanwhile) makes requests in a row. */
  const countSockets = async (phase: 'without' | 'with') => {
    for (const name of Object.keys(NODE_CLIENTS)) {
      const used = new Set<number>();
      for (let i = 0; i < KEEP_ALIVE_REQUESTS; i++) {
        const path = `${pathOf('keep-alive', name, phase)}/${i}`;
        const { client, https } = NODE_CLIENTS[name]!;
        const server = https ? secure : plain;
        await client(`${server.url}${path}`, { ca: https ? tls.cert : undefined });
        used.add(server.log.get(path)!.socket);
      }
      sockets[phase].set(name, used.size);
    }
  };

  const run = async (clientName: string, c: string, phase: 'without' | 'with') => {
    const { client, https } = NODE_CLIENTS[clientName]!;
    const server = https ? secure : plain;
    const call: Call = { ...CASES[c]?.call, ca: https ? tls.cert : undefined };
    const origin = c === 'refused' ? refusedUrl.replace(/^http:/, https ? 'https:' : 'http:') : server.url;
    return client(`${origin}${pathOf(c, clientName, phase)}`, call);
  };

  beforeAll(async () => {
    tls = selfSignedCert();
    plain = await groundTruth();
    secure = await groundTruth(tls);
    const closed = await groundTruth();
    refusedUrl = closed.url;
    await closed.close();
  });

  afterAll(async () => {
    keepAliveAgent.destroy();
    await plain?.close();
    await secure?.close();
  });

  it('runs every client through every case, without Porthole, then with it', async () => {
    const names = Object.keys(NODE_CLIENTS);
    const cases = [...Object.keys(CASES), 'refused'];
    // Clients run side by side, each through its cases in order; without Porthole first.
    await countSockets('without');
    await Promise.all(
      names.map(async (n) => {
        for (const c of cases) baseline.set(`${n}|${c}`, await run(n, c, 'without'));
      }),
    );
    const d = await startNetworkDebuggee();
    await countSockets('with');
    await Promise.all(
      names.map(async (n) => {
        for (const c of cases) observed.set(`${n}|${c}`, await run(n, c, 'with'));
      }),
    );
    snapshot = await waitFor(() => {
      const all = d.host.transactions();
      return all.every((tx) => tx.state !== 'pending') ? all : undefined;
    }, 'every transaction to end');
  }, 120_000);

  for (const clientName of Object.keys(NODE_CLIENTS)) {
    it(`${clientName} keeps its sockets: ${KEEP_ALIVE_REQUESTS} requests in a row use as many as without Porthole`, () => {
      expect(sockets.with.get(clientName)).toBe(sockets.without.get(clientName));
    });
  }

  const recorded = (path: string) => snapshot.filter((tx) => new URL(tx.request.url).pathname === path);

  for (const clientName of Object.keys(NODE_CLIENTS)) {
    for (const c of [...Object.keys(CASES), 'refused']) {
      const spec = CASES[c] ?? { expect: 'failed' as Expect };
      const impossible = spec.impossible?.[clientName];
      const timeoutIsAbort = spec.timeoutIsAbort?.[clientName];
      const note = impossible ?? timeoutIsAbort;
      const name = `${clientName} × ${c}${note ? ` (not held${timeoutIsAbort ? ' as a timeout' : ''}: ${note})` : ''}`;
      it(name, async () => {
        const key = `${clientName}|${c}`;
        expect(comparable(observed.get(key)!)).toEqual(comparable(baseline.get(key)!));
        if (impossible) return;
        const server = NODE_CLIENTS[clientName]!.https ? secure : plain;
        const base = pathOf(c, clientName, 'with');

        if (c === 'refused') {
          const [tx] = recorded(base);
          expect(tx).toMatchObject({ state: 'failed', error: { code: 'ECONNREFUSED' } });
          return;
        }
        const hops = [...server.log.values()].filter((l) => l.path === base || l.path.startsWith(`${base}/`));
        if (hops.length === 0 && spec.expect === 'failed') {
          // the app gave up before the server had the request whole: nothing to compare but the failure
          expect(recorded(base).map((tx) => tx.state)).toEqual(['failed']);
          return;
        }
        expect(hops.length).toBeGreaterThan(0);
        for (const logged of hops) {
          const txs = recorded(logged.path);
          expect(txs).toHaveLength(1);
          const tx = txs[0]!;
          expect(tx.request.method).toBe(logged.method);
          for (const [name, value] of Object.entries(logged.headers)) {
            expect([name, header(tx.request.headers, name)]).toEqual([
              name,
              Array.isArray(value) ? value.join(', ') : value,
            ]);
          }
          expect(recordedBody(tx.request.body).equals(logged.body)).toBe(true);
          if (logged.status !== undefined) {
            expect(tx.response?.status).toBe(logged.status);
            for (const [name, value] of Object.entries(logged.sent ?? {})) {
              expect([name, header(tx.response?.headers, name)]).toEqual([name, value]);
            }
          }
          const last = logged === hops[hops.length - 1];
          expect(tx.state).toBe(last ? spec.expect : 'complete');
          if (tx.state === 'complete' && logged.identity && logged.method !== 'HEAD') {
            const body = tx.response!.body!;
            if (body.encoding === 'text') {
              const charset = /charset=([^;]+)/i.exec(logged.sent?.['content-type'] ?? '')?.[1] ?? 'utf-8';
              const text = new TextDecoder(charset).decode(logged.identity);
              expect(body.truncated ? text.startsWith(body.data) : body.data === text).toBe(true);
            }
            const got = body.encoding === 'text' ? logged.identity.subarray(0, body.size) : recordedBody(body);
            if (body.truncated) {
              expect(got.equals(logged.identity.subarray(0, got.length))).toBe(true);
              expect(body.totalSize).toBe(logged.identity.length);
            } else expect(got.equals(logged.identity)).toBe(true);
            if (logged.sent?.['content-encoding']) expect(tx.response!.encodedSize).toBe(logged.wire!.length);
          }
          if (tx.state === 'complete' && !logged.identity) expect(tx.response?.body).toBeUndefined();
          expect(tx.response === undefined || tx.response.httpVersion === '1.1').toBe(true);
          if (c === 'timeout') expect(tx.error?.timedOut).toBe(timeoutIsAbort ? undefined : true);
        }
      });
    }
  }
});
