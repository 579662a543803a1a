import { request as httpGet } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { httpServer, httpsServer, type LocalServer, selfSignedCert, startNetworkDebuggee } from '../host/testing.js';
import type { Transaction } from '../protocol.js';
import { base64ToBytes } from './capture-body.js';

type Debuggee = Awaited<ReturnType<typeof startNetworkDebuggee>>;

describe('network agent in a Node debuggee', () => {
  const defer = cleanupAfterEach();
  const debuggee = async (options?: Parameters<typeof startNetworkDebuggee>[0]) => {
    const d = await startNetworkDebuggee(options);
    defer(() => d.stop());
    return d;
  };
  const server = async (make: () => Promise<LocalServer>) => {
    const s = await make();
    defer(() => s.close());
    return s;
  };
  const finished = (d: Debuggee, urlPart: string) =>
    waitFor(
      () => d.host.transactions({ urlContains: urlPart }).find((tx) => tx.state !== 'pending'),
      `a finished transaction for ${urlPart}`,
    );

  let tls: { key: string; cert: string };
  beforeAll(() => {
    tls = selfSignedCert();
  });

  const echo = () =>
    server(() =>
      httpServer((req, res, body) => {
        res.setHeader('content-type', 'application/json');
        res.setHeader('set-cookie', ['a=1; Path=/', 'b=2']);
        res.end(JSON.stringify({ method: req.method, url: req.url, body: body.toString() }));
      }),
    );

  it('captures fetch with headers, bodies and timing', async () => {
    const d = await debuggee();
    const s = await echo();
    const response = await fetch(`${s.url}/echo?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-trace': 'abc', authorization: 'Bearer secret' },
      body: 'hello body',
    });
    expect(await response.json()).toEqual({ method: 'POST', url: '/echo?x=1', body: 'hello body' });

    const tx = await finished(d, '/echo');
    expect(tx).toMatchObject({
      state: 'complete',
      initiator: 'fetch',
      request: { method: 'POST', url: `${s.url}/echo?x=1`, body: { encoding: 'text', data: 'hello body' } },
      response: { status: 200, body: { encoding: 'text', contentType: 'application/json', truncated: false } },
    });
    expect(JSON.parse(tx.response!.body!.data)).toEqual({ method: 'POST', url: '/echo?x=1', body: 'hello body' });
    const header = (name: string) => tx.request.headers.find((h) => h.name === name)?.value;
    expect(header('x-trace')).toBe('abc');
    expect(header('authorization')).toBe('[redacted]');
    expect(tx.response!.headers.filter((h) => h.name === 'set-cookie').map((h) => h.value)).toEqual([
      '[redacted]',
      '[redacted]',
    ]);
    expect(tx.timing.startedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(tx.timing.waitMs).toBeGreaterThanOrEqual(0);
    expect(tx.timing.durationMs).toBeGreaterThanOrEqual(tx.timing.waitMs!);
  });

  it('captures http.get and an https request to a self-signed server', async () => {
    const d = await debuggee();
    const plain = await echo();
    const secure = await server(() =>
      httpsServer((_req, res) => {
        res.setHeader('content-type', 'text/plain');
        res.end('over tls');
      }, tls),
    );

    const text = await new Promise<string>((resolve, reject) => {
      httpGet(`${plain.url}/via-http`, (res) => {
        let data = '';
        res.on('data', (c) => (data += c));
        res.on('end', () => resolve(data));
      })
        .on('error', reject)
        .end();
    });
    expect(JSON.parse(text).url).toBe('/via-http');

    const secureText = await new Promise<string>((resolve, reject) => {
      const req = httpsRequest(`${secure.url}/via-https`, { method: 'PUT', ca: tls.cert }, (res) => {
        let data = '';
        res.on('data', (c) => (data += c));
        res.on('end', () => resolve(data));
      });
      req.on('error', reject);
      req.end('uploaded');
    });
    expect(secureText).toBe('over tls');

    const viaHttp = await finished(d, '/via-http');
    expect(viaHttp).toMatchObject({ state: 'complete', initiator: 'http', request: { method: 'GET' } });
    expect(viaHttp.response).toMatchObject({ status: 200, body: { encoding: 'text' } });
    expect(viaHttp.timing.durationMs).toBeGreaterThanOrEqual(0);

    const viaHttps = await finished(d, '/via-https');
    expect(viaHttps).toMatchObject({
      state: 'complete',
      initiator: 'http',
      request: { method: 'PUT', url: `${secure.url}/via-https`, body: { data: 'uploaded' } },
      response: { status: 200, body: { data: 'over tls', encoding: 'text' } },
    });
  });

  it('captures a refused connection as a failure, for fetch and for http', async () => {
    const d = await debuggee();
    const closed = await httpServer(() => {});
    const url = closed.url;
    await closed.close();

    await expect(fetch(`${url}/refused-fetch`)).rejects.toThrow();
    await new Promise<void>((resolve) => {
      httpGet(`${url}/refused-http`)
        .on('error', () => resolve())
        .end();
    });

    for (const path of ['/refused-fetch', '/refused-http']) {
      const tx = await finished(d, path);
      expect(tx.state).toBe('failed');
      expect(tx.response).toBeUndefined();
      expect(tx.error?.message).toMatch(/ECONNREFUSED/);
      expect(tx.error?.code).toBe('ECONNREFUSED');
      expect(tx.timing.durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('does not capture its own link to the inspector', async () => {
    const d = await debuggee();
    const s = await echo();
    await (await fetch(`${s.url}/only-this`)).text();
    await finished(d, '/only-this');
    expect(d.host.transactions().map((tx) => new URL(tx.request.url).pathname)).toEqual(['/only-this']);
  });

  it('keeps binary bodies byte-exact through base64', async () => {
    const d = await debuggee();
    const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7 + 3) % 256);
    const s = await server(() =>
      httpServer((_req, res, body) => {
        res.setHeader('content-type', 'application/octet-stream');
        res.end(body);
      }),
    );
    const response = await fetch(`${s.url}/binary`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    const tx = await finished(d, '/binary');
    expect(tx.request.body?.encoding).toBe('base64');
    expect(tx.response?.body?.encoding).toBe('base64');
    expect(base64ToBytes(tx.request.body!.data)).toEqual(bytes);
    expect(base64ToBytes(tx.response!.body!.data)).toEqual(bytes);
    expect(tx.response!.body).toMatchObject({ size: 4096, totalSize: 4096, truncated: false });
  });

  it('truncates a huge body at the cap and flags it, while the app still gets all of it', async () => {
    const d = await debuggee({ network: { maxBodyBytes: 64 * 1024 } });
    const total = 8 * 1024 * 1024;
    const s = await server(() =>
      httpServer((_req, res) => {
        res.setHeader('content-type', 'text/plain');
        res.setHeader('content-length', String(total));
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let sent = 0;
        const pump = () => {
          while (sent < total) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      }),
    );
    const appGot = (await (await fetch(`${s.url}/huge`)).arrayBuffer()).byteLength;
    expect(appGot).toBe(total);
    const viaHttp = await new Promise<number>((resolve, reject) => {
      httpGet(`${s.url}/huge-http`, (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => (n += c.length));
        res.on('end', () => resolve(n));
      })
        .on('error', reject)
        .end();
    });
    expect(viaHttp).toBe(total);

    for (const path of ['/huge', '/huge-http']) {
      const tx: Transaction = await finished(d, path);
      expect(tx.state).toBe('complete');
      expect(tx.response!.body).toMatchObject({ truncated: true, size: 64 * 1024, totalSize: total, encoding: 'text' });
      expect(tx.response!.body!.data.length).toBe(64 * 1024);
    }
  });

  it('shows a request in flight as pending, then complete', async () => {
    const d = await debuggee();
    let release: (() => void) | undefined;
    const s = await server(() =>
      httpServer((_req, res) => {
        release = () => res.end('late');
      }),
    );
    const pending = fetch(`${s.url}/slow`).then((r) => r.text());
    const tx = await waitFor(() => d.host.transactions({ urlContains: '/slow' })[0], 'the pending transaction');
    expect(tx.state).toBe('pending');
    expect(d.host.stats().pending).toBe(1);
    await waitFor(() => release, 'the server to get the request');
    release?.();
    expect(await pending).toBe('late');
    expect((await finished(d, '/slow')).state).toBe('complete');
  });
});
