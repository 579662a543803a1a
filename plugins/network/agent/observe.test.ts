import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { httpServer, type LocalServer, startNetworkDebuggee } from '../host/testing.js';
import type { Transaction } from '../protocol.js';

// Observation without interception (issue: capture never changes what the app does): the
// records match what a real server saw and sent, and the app gets exactly what it gets without
// Porthole, keep-alive included.

type Debuggee = Awaited<ReturnType<typeof startNetworkDebuggee>>;

interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  socketPort?: number;
}

/** http.request the plain way, resolving with what the app received. */
function get(url: string, options: { method?: string; agent?: HttpAgent; timeout?: number } = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', agent: options.agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          socketPort: res.socket?.localPort,
        }),
      );
      res.on('error', reject);
    });
    if (options.timeout) req.setTimeout(options.timeout, () => req.destroy(new Error('the app timed out')));
    req.on('error', reject);
    req.end();
  });
}

describe('network capture observes without intercepting (Node)', () => {
  const defer = cleanupAfterEach();
  const debuggee = async () => {
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    return d;
  };
  const server = async (handler: Parameters<typeof httpServer>[0]) => {
    const s: LocalServer = await httpServer(handler);
    defer(() => s.close());
    return s;
  };
  const finished = (d: Debuggee, urlPart: string, count = 1) =>
    waitFor(() => {
      const done = d.host.transactions({ urlContains: urlPart }).filter((tx) => tx.state !== 'pending');
      return done.length >= count ? done : undefined;
    }, `${count} finished transaction(s) for ${urlPart}`);
  const one = async (d: Debuggee, urlPart: string): Promise<Transaction> => (await finished(d, urlPart))[0]!;
  const header = (tx: Transaction['request'] | NonNullable<Transaction['response']>, name: string) =>
    tx.headers.find((h) => h.name.toLowerCase() === name)?.value;

  /** A server counting the sockets it accepted. */
  const countingServer = async () => {
    const sockets = new Set<unknown>();
    const s = await server((req, res) => {
      sockets.add(req.socket);
      res.setHeader('content-type', 'text/plain');
      res.end(`hello ${req.url}`);
    });
    return { s, sockets };
  };

  it('keeps keep-alive: 3 requests through a keepAlive agent use 1 socket, with and without Porthole', async () => {
    const without = await countingServer();
    const plainAgent = new HttpAgent({ keepAlive: true });
    defer(() => plainAgent.destroy());
    for (let i = 0; i < 3; i++) await get(`${without.s.url}/ka-${i}`, { agent: plainAgent });
    expect(without.sockets.size).toBe(1);
    const fetchWithout = await countingServer();
    for (let i = 0; i < 3; i++) await (await fetch(`${fetchWithout.s.url}/fetch-ka-${i}`)).text();

    const d = await debuggee();
    const withP = await countingServer();
    const agent = new HttpAgent({ keepAlive: true });
    defer(() => agent.destroy());
    const got: Got[] = [];
    for (let i = 0; i < 3; i++) got.push(await get(`${withP.s.url}/ka-${i}`, { agent }));
    expect(withP.sockets.size).toBe(1);
    expect(new Set(got.map((g) => g.socketPort)).size).toBe(1);
    const txs = await finished(d, '/ka-', 3);
    for (const tx of txs) {
      expect(header(tx.request, 'connection')).toBe('keep-alive');
      expect(tx.response?.httpVersion).toBe('1.1');
      expect(tx.remoteAddress).toBe('127.0.0.1');
    }
    // global fetch (undici's pool) opens as many sockets as it does without Porthole
    const fetchWith = await countingServer();
    for (let i = 0; i < 3; i++) await (await fetch(`${fetchWith.s.url}/fetch-ka-${i}`)).text();
    expect(fetchWith.sockets.size).toBe(fetchWithout.sockets.size);
    await finished(d, '/fetch-ka-', 3);
  });

  it('stores compressed bodies decoded, keeping Content-Encoding and the size on the wire', async () => {
    const d = await debuggee();
    const text = JSON.stringify({ words: Array.from({ length: 300 }, (_, i) => `word-${i}`) });
    const encoded = { gzip: gzipSync(text), br: brotliCompressSync(text), deflate: deflateSync(text) };
    const s = await server((req, res) => {
      const coding = req.url!.split('/')[2] as keyof typeof encoded;
      res.setHeader('content-type', 'application/json');
      res.setHeader('content-encoding', coding);
      res.end(encoded[coding]);
    });
    for (const coding of Object.keys(encoded) as (keyof typeof encoded)[]) {
      const viaHttp = await get(`${s.url}/zip/${coding}/http`);
      expect(viaHttp.body).toEqual(encoded[coding]); // http gives the app the bytes as they came
      const viaFetch = await (await fetch(`${s.url}/zip/${coding}/fetch`)).text();
      expect(viaFetch).toBe(text);
      for (const how of ['http', 'fetch']) {
        const tx = await one(d, `/zip/${coding}/${how}`);
        expect(tx.state).toBe('complete');
        expect(header(tx.response!, 'content-encoding')).toBe(coding);
        expect(tx.response!.body).toMatchObject({ encoding: 'text', data: text, truncated: false });
        expect(tx.response!.encodedSize).toBe(encoded[coding].byteLength);
      }
    }
  });

  it('completes HEAD, 204 and 304 responses', async () => {
    const d = await debuggee();
    const s = await server((req, res) => {
      if (req.url === '/no-content') res.statusCode = 204;
      else if (req.url === '/not-modified') res.statusCode = 304;
      else res.setHeader('content-length', '11');
      res.end(req.method === 'HEAD' || res.statusCode !== 200 ? undefined : 'hello world');
    });
    await get(`${s.url}/head`, { method: 'HEAD' });
    await get(`${s.url}/no-content`);
    await get(`${s.url}/not-modified`);
    await fetch(`${s.url}/head-fetch`, { method: 'HEAD' });
    for (const [path, status] of [
      ['/head', 200],
      ['/no-content', 204],
      ['/not-modified', 304],
      ['/head-fetch', 200],
    ] as const) {
      const tx = await one(d, path);
      expect(tx).toMatchObject({ state: 'complete', response: { status } });
      expect(tx.response!.body).toBeUndefined();
    }
  });

  it('fails a response reset mid-body with the error the app saw and its duration', async () => {
    const d = await debuggee();
    const s = await server((_req, res) => {
      res.setHeader('content-length', '1000');
      res.write('x'.repeat(100));
      setTimeout(() => res.socket?.destroy(), 80);
    });
    const appError = await get(`${s.url}/reset-http`).catch((e: Error & { code?: string }) => e);
    expect(appError).toBeInstanceOf(Error);
    const fetchError = await fetch(`${s.url}/reset-fetch`)
      .then((r) => r.text())
      .catch((e: Error) => e);
    expect(fetchError).toBeInstanceOf(Error);
    const http = await one(d, '/reset-http');
    expect(http).toMatchObject({ state: 'failed', response: { status: 200 } });
    expect(http.error?.message).toContain((appError as Error).message);
    expect(http.error?.code).toBe((appError as { code?: string }).code);
    expect(http.timing.durationMs).toBeGreaterThanOrEqual(70);
    const viaFetch = await one(d, '/reset-fetch');
    expect(viaFetch.state).toBe('failed');
    expect(viaFetch.timing.durationMs).toBeGreaterThanOrEqual(70);
  });

  it('decodes text by its charset (latin1)', async () => {
    const d = await debuggee();
    const s = await server((_req, res) => {
      res.setHeader('content-type', 'text/plain; charset=ISO-8859-1');
      res.end(Buffer.from('café', 'latin1'));
    });
    await get(`${s.url}/latin1-http`);
    await (await fetch(`${s.url}/latin1-fetch`)).arrayBuffer();
    for (const path of ['/latin1-http', '/latin1-fetch']) {
      expect((await one(d, path)).response!.body).toMatchObject({ encoding: 'text', data: 'café' });
    }
  });

  it('records each hop of a redirect chain that fetch follows', async () => {
    const d = await debuggee();
    const s = await server((req, res) => {
      const n = Number(req.url!.split('/')[2]);
      if (n > 0) {
        res.statusCode = 302;
        res.setHeader('location', `/hop/${n - 1}`);
        res.end();
      } else res.end('arrived');
    });
    const response = await fetch(`${s.url}/hop/2`);
    expect(await response.text()).toBe('arrived');
    const hops = await finished(d, '/hop/', 3);
    expect(hops.map((tx) => [new URL(tx.request.url).pathname, tx.response?.status])).toEqual([
      ['/hop/2', 302],
      ['/hop/1', 302],
      ['/hop/0', 200],
    ]);
    expect(header(hops[0]!.response!, 'location')).toBe('/hop/1');
  });

  it('records the request headers as sent, for http and for fetch', async () => {
    const d = await debuggee();
    let seen: Record<string, string | string[] | undefined> = {};
    const s = await server((req, res) => {
      seen = req.headers;
      res.end('ok');
    });
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${s.url}/sent-http`, { method: 'POST' }, (res) => res.resume().on('end', resolve));
      req.on('error', reject);
      req.end('twelve bytes');
    });
    const http = await one(d, '/sent-http');
    expect(header(http.request, 'host')).toBe(seen.host);
    expect(header(http.request, 'content-length')).toBe('12');
    expect(header(http.request, 'connection')).toBe(seen.connection);
    expect(http.request.body).toMatchObject({ data: 'twelve bytes' });

    await (await fetch(`${s.url}/sent-fetch`, { method: 'POST', body: 'fetch body' })).text();
    const viaFetch = await one(d, '/sent-fetch');
    for (const name of ['host', 'user-agent', 'accept-encoding', 'content-length', 'connection']) {
      expect([name, header(viaFetch.request, name)]).toEqual([name, seen[name]]);
    }
    expect(viaFetch.request.body).toMatchObject({ data: 'fetch body' });
  });

  it('records a timeout as a timeout', async () => {
    const d = await debuggee();
    const s = await server(() => {}); // never answers
    await get(`${s.url}/slow-http`, { timeout: 100 }).catch(() => {});
    await fetch(`${s.url}/slow-fetch`, { signal: AbortSignal.timeout(100) }).catch(() => {});
    for (const path of ['/slow-http', '/slow-fetch']) {
      const tx = await one(d, path);
      expect(tx.state).toBe('failed');
      expect(tx.error?.timedOut).toBe(true);
    }
  });

  it('captures a request made right after network() and through a require("http") taken before it', async () => {
    const early = createRequire(import.meta.url)('node:http').request as typeof httpRequest;
    const s = await server((_req, res) => res.end('early'));
    const d = await debuggee();
    await new Promise<void>((resolve, reject) => {
      early(`${s.url}/early`, (res) => res.resume().on('end', resolve))
        .on('error', reject)
        .end();
    });
    expect((await one(d, '/early')).response?.body?.data).toBe('early');
  });

  it('follows a request and a response whose emit and push another library wrapped, and that library still sees them', async () => {
    const s = await server((_req, res) => res.end('wrapped body'));
    const d = await debuggee();
    const seen: string[] = [];
    const body = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(`${s.url}/own-emit`, (res) => {
        // what an instrumentation library does: its own push and emit on the response, calling the previous ones
        const push = res.push;
        const emit = res.emit;
        res.push = function (this: typeof res, ...args: Parameters<typeof push>) {
          seen.push('push');
          return push.apply(this, args);
        } as typeof push;
        res.emit = function (this: typeof res, ...args: Parameters<typeof emit>) {
          if (args[0] === 'end') seen.push('response end');
          return emit.apply(this, args);
        } as typeof emit;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(text));
      });
      // the same on the request, before it is sent, with the prototype's emit taken first
      const emit = req.emit;
      req.emit = function (this: typeof req, ...args: Parameters<typeof emit>) {
        if (args[0] === 'response') seen.push('request response');
        return emit.apply(this, args);
      } as typeof emit;
      req.on('error', reject);
      req.end();
    });
    expect(body).toBe('wrapped body');
    expect(seen).toEqual(expect.arrayContaining(['request response', 'push', 'response end']));
    const tx = await one(d, '/own-emit');
    expect(tx.state).toBe('complete');
    expect(tx.response?.body?.data).toBe('wrapped body');
  });

  it('does not hold up a streamed upload: the server gets the first chunk before the app writes the rest', async () => {
    const d = await debuggee();
    let firstChunk: () => void = () => {};
    const s = await server((_req, res, body) => res.end(`got ${body.length}`));
    s.server.prependListener('request', (req) => req.once('data', () => firstChunk()));
    const arrived = () => new Promise<void>((resolve) => (firstChunk = resolve));

    let first = arrived();
    const done = new Promise<string>((resolve, reject) => {
      const req = httpRequest(`${s.url}/upload-http`, { method: 'POST' }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.write('first chunk;');
      void first.then(() => req.end('the rest'));
    });
    expect(await done).toBe('got 20');

    first = arrived();
    let push: (text: string | null) => void = () => {};
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => (text === null ? controller.close() : controller.enqueue(new TextEncoder().encode(text)));
      },
    });
    const pending = fetch(`${s.url}/upload-fetch`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    push('first chunk;');
    await first;
    push('the rest');
    push(null);
    expect(await (await pending).text()).toBe('got 20');
    for (const path of ['/upload-http', '/upload-fetch']) {
      expect((await one(d, path)).request.body).toMatchObject({ data: 'first chunk;the rest' });
    }
  });
});
