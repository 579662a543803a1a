import { request } from 'node:http';
import { createSecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { Agent, FormData, fetch } from 'undici';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { httpServer, selfSignedCert, startNetworkDebuggee } from '../host/testing.js';

// Cases the first fidelity matrix did not try (issue 35, §3 defects 5, 8 and 9): a refused
// `Expect: 100-continue` upload, stacked and unknown content codings, and undici over HTTP/2.

const COMPRESSED = Buffer.from([0x1f, 0x9d, 0x90, 0x7b]); // LZW (`compress`), which nothing decodes
type Debuggee = Awaited<ReturnType<typeof startNetworkDebuggee>>;
const finished = (d: Debuggee, part: string) =>
  waitFor(() => d.host.transactions({ urlContains: part }).find((t) => t.state !== 'pending'), part);
const header = (headers: { name: string; value: string }[] | undefined, name: string) =>
  headers?.find((h) => h.name === name)?.value;

/** An upload that waits for 100 Continue: the status the app gets, and whether it sent its body. */
const upload = (url: string) =>
  new Promise<{ status: number; sentBody: boolean }>((resolve, reject) => {
    let sentBody = false;
    const req = request(url, { method: 'PUT', headers: { expect: '100-continue', 'content-length': 5 } });
    req.on('continue', () => {
      sentBody = true;
      req.end('hello');
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, sentBody }));
    });
    req.on('error', reject);
  });

describe('HTTP edges', () => {
  const defer = cleanupAfterEach();

  it('records an Expect: 100-continue upload the server refuses (417 before the body) and one it accepts', async () => {
    const s = await httpServer((_req, res, body) => res.end(`got ${body}`));
    defer(() => s.close());
    s.server.on('checkContinue', (req, res) => {
      if (req.url === '/refused') res.writeHead(417).end('too big');
      else {
        res.writeContinue();
        s.server.emit('request', req, res);
      }
    });
    const without = [await upload(`${s.url}/refused`), await upload(`${s.url}/accepted`)];
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    const withPorthole = [await upload(`${s.url}/refused`), await upload(`${s.url}/accepted`)];
    expect(withPorthole).toEqual(without);
    expect(without).toEqual([
      { status: 417, sentBody: false },
      { status: 200, sentBody: true },
    ]);
    const refused = await finished(d, '/refused');
    expect(refused).toMatchObject({ state: 'complete', request: { method: 'PUT' }, response: { status: 417 } });
    expect(refused.request.body).toBeUndefined();
    expect(header(refused.request.headers, 'expect')).toBe('100-continue');
    expect(refused.response?.body?.data).toBe('too big');
    const accepted = await finished(d, '/accepted');
    expect(accepted).toMatchObject({ response: { status: 200, body: { data: 'got hello' } } });
    expect(accepted.request.body?.data).toBe('hello');
  });

  it('undoes stacked codings (gzip, br) and keeps the bytes of a coding it cannot undo, saying which', async () => {
    const json = '{"stacked":true}';
    const stacked = brotliCompressSync(gzipSync(json));
    const s = await httpServer((req, res) => {
      if (req.url === '/stacked')
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip, br' }).end(stacked);
      else res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'compress' }).end(COMPRESSED);
    });
    defer(() => s.close());
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    const get = (path: string) =>
      new Promise<Buffer>((resolve) =>
        request(`${s.url}${path}`, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks)));
        }).end(),
      );
    expect(await get('/stacked')).toEqual(stacked); // the app gets the bytes as they came, as without Porthole
    await get('/compress');
    const a = await finished(d, '/stacked');
    expect(a.response?.body).toMatchObject({ encoding: 'text', data: json });
    expect(a.response?.encodedSize).toBe(stacked.byteLength);
    const b = await finished(d, '/compress');
    expect(b.response?.body).toMatchObject({ encoding: 'base64', coding: 'compress' });
    expect(Buffer.from(b.response!.body!.data, 'base64')).toEqual(COMPRESSED);
  });

  it('records undici over HTTP/2 as HTTP/2, with the content-type and content-length it sent', async () => {
    const server = createSecureServer({ ...selfSignedCert(), allowHTTP1: true }, (req, res) => {
      let n = 0;
      req.on('data', (c: Buffer) => {
        n += c.length;
      });
      req.on('end', () =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ version: req.httpVersion, bytes: n })),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    defer(() => new Promise<void>((r) => server.close(() => r())));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dispatcher = new Agent({ allowH2: true, connect: { rejectUnauthorized: false } });
    defer(() => dispatcher.close());
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    const json = await fetch(`${url}/h2/json`, {
      method: 'POST',
      body: '{"x":1}',
      headers: { 'content-type': 'application/json' },
      dispatcher,
    });
    expect(await json.json()).toEqual({ version: '2.0', bytes: 7 });
    const form = new FormData();
    form.set('field', 'value');
    expect(await (await fetch(`${url}/h2/form`, { method: 'POST', body: form, dispatcher })).json()).toMatchObject({
      version: '2.0',
    });
    const a = await finished(d, '/h2/json');
    expect(a.response?.httpVersion).toBe('2.0');
    expect(header(a.request.headers, 'content-type')).toBe('application/json');
    expect(header(a.request.headers, 'content-length')).toBe('7');
    expect(a.request.headers.some((h) => h.name.startsWith(':'))).toBe(false);
    const b = await finished(d, '/h2/form');
    expect(b.response?.httpVersion).toBe('2.0');
    expect(header(b.request.headers, 'content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(Number(header(b.request.headers, 'content-length'))).toBeGreaterThan(0);
  });
});
