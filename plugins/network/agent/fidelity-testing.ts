import http, { Agent as HttpAgent, type IncomingMessage } from 'node:http';
import https, { type Agent as HttpsAgent } from 'node:https';
import { Readable, Writable } from 'node:stream';
import axios from 'axios';
import got from 'got';
import nodeFetch from 'node-fetch';
import superagent from 'superagent';
import { fetch as undiciFetch, request as undiciRequest, stream as undiciStream } from 'undici';

// The Node HTTP clients of the fidelity matrix (fidelity.test.ts), each behind one call shape:
// what the app's code would get back from it, bytes and headers, or the error it would see.
// A test helper (`-testing.ts`: only tests import it, and the layer check skips it).

export interface Call {
  method?: string;
  body?: Buffer;
  /** A body streamed in these parts, 10 ms apart (instead of `body`). */
  stream?: Buffer[];
  headers?: Record<string, string>;
  /** The client's own timeout, ms. */
  timeoutMs?: number;
  /** Abort this long after the start, ms. */
  abortAfterMs?: number;
  /** For https clients: the server's self-signed certificate. */
  ca?: string;
}

export type Outcome =
  | { status: number; headers: Record<string, string>; body: Buffer }
  | { error: { name: string; code?: string; message: string } };

export type Client = (url: string, call: Call) => Promise<Outcome>;

const flat = (headers: Record<string, unknown> | Headers | Iterable<[string, string]>): Record<string, string> => {
  const out: Record<string, string> = {};
  const entries =
    headers instanceof Headers || Symbol.iterator in (headers as object)
      ? [...(headers as Iterable<[string, string]>)]
      : Object.entries(headers as Record<string, unknown>);
  for (const [k, v] of entries) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
};

const failure = (e: unknown): Outcome => {
  const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  return { error: { name: err?.name ?? 'Error', code: err?.code ?? err?.cause?.code, message: String(err?.message) } };
};

/** The streamed body as a Node stream: each part 10 ms after the one before. */
const slowly = (parts: Buffer[]) =>
  Readable.from(
    (async function* () {
      for (const part of parts) {
        await new Promise((r) => setTimeout(r, 10));
        yield part;
      }
    })(),
  );

/** The body to hand a client that takes Node streams. */
const nodeBody = (call: Call) => (call.stream ? slowly(call.stream) : call.body);

const abortSignal = (call: Call): AbortSignal | undefined => {
  if (call.abortAfterMs !== undefined) {
    const c = new AbortController();
    setTimeout(() => c.abort(), call.abortAfterMs);
    return c.signal;
  }
  return call.timeoutMs !== undefined ? AbortSignal.timeout(call.timeoutMs) : undefined;
};

/** A fetch; `nodeStreams` when it takes a Node stream as a streamed body (node-fetch), else a web one. */
function fetchLike(impl: typeof fetch, nodeStreams = false): Client {
  return async (url, call) => {
    try {
      const streamed = call.stream && (nodeStreams ? slowly(call.stream) : Readable.toWeb(slowly(call.stream)));
      const res = await impl(url, {
        method: call.method,
        body: (streamed ?? call.body) as BodyInit | undefined,
        headers: call.headers,
        signal: abortSignal(call),
        ...(streamed && { duplex: 'half' }),
      });
      return { status: res.status, headers: flat(res.headers), body: Buffer.from(await res.arrayBuffer()) };
    } catch (e) {
      return failure(e);
    }
  };
}

/** `module.request(…)` as an app calls it (a `request` taken before Porthole's mock rules is recorded, not mocked). */
function nodeRequest(module: typeof http | typeof https, agent?: HttpAgent | HttpsAgent): Client {
  return (url, call) =>
    new Promise((resolve) => {
      let settled = false;
      const done = (o: Outcome) => {
        if (!settled) {
          settled = true;
          resolve(o);
        }
      };
      const req = module.request(
        url,
        { method: call.method ?? 'GET', headers: call.headers, agent, ca: call.ca } as Parameters<
          typeof https.request
        >[1],
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            done({ status: res.statusCode ?? 0, headers: flat(res.headers), body: Buffer.concat(chunks) }),
          );
          res.on('error', (e) => done(failure(e)));
        },
      );
      req.on('error', (e) => done(failure(e)));
      if (call.timeoutMs !== undefined) req.setTimeout(call.timeoutMs, () => req.destroy(new Error('app timeout')));
      if (call.abortAfterMs !== undefined) setTimeout(() => req.destroy(new Error('app abort')), call.abortAfterMs);
      if (call.stream) slowly(call.stream).pipe(req);
      else req.end(call.body);
    });
}

const httpGetClient: Client = (url, call) =>
  new Promise((resolve) => {
    let settled = false;
    const done = (o: Outcome) => {
      if (!settled) {
        settled = true;
        resolve(o);
      }
    };
    const req = http.get(url, { headers: call.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, headers: flat(res.headers), body: Buffer.concat(chunks) }),
      );
      res.on('error', (e) => done(failure(e)));
    });
    req.on('error', (e) => done(failure(e)));
    if (call.timeoutMs !== undefined) req.setTimeout(call.timeoutMs, () => req.destroy(new Error('app timeout')));
    if (call.abortAfterMs !== undefined) setTimeout(() => req.destroy(new Error('app abort')), call.abortAfterMs);
  });

/** The options undici's request() and stream() take for a call. */
const undiciOptions = (call: Call) => ({
  method: (call.method ?? 'GET') as 'GET',
  body: nodeBody(call),
  headers: call.headers,
  signal: call.abortAfterMs !== undefined ? abortSignal(call) : undefined,
  headersTimeout: call.timeoutMs,
  bodyTimeout: call.timeoutMs,
});

const undiciRequestClient: Client = async (url, call) => {
  try {
    const res = await undiciRequest(url, undiciOptions(call));
    return { status: res.statusCode, headers: flat(res.headers), body: Buffer.from(await res.body.arrayBuffer()) };
  } catch (e) {
    return failure(e);
  }
};

const undiciStreamClient: Client = async (url, call) => {
  const chunks: Buffer[] = [];
  let head: { status: number; headers: Record<string, unknown> } | undefined;
  try {
    await undiciStream(url, undiciOptions(call), ({ statusCode, headers }) => {
      head = { status: statusCode, headers };
      return new Writable({
        write(chunk: Buffer, _encoding, done) {
          chunks.push(chunk);
          done();
        },
      });
    });
    return { status: head!.status, headers: flat(head!.headers), body: Buffer.concat(chunks) };
  } catch (e) {
    return failure(e);
  }
};

const axiosClient: Client = async (url, call) => {
  try {
    const res = await axios.request({
      url,
      method: call.method ?? 'GET',
      data: nodeBody(call),
      headers: call.headers,
      timeout: call.timeoutMs,
      signal: call.abortAfterMs !== undefined ? abortSignal(call) : undefined,
      responseType: 'arraybuffer',
      validateStatus: () => true,
      maxRedirects: 5,
      transformResponse: (d: unknown) => d,
    });
    return { status: res.status, headers: flat(res.headers as Record<string, unknown>), body: Buffer.from(res.data) };
  } catch (e) {
    return failure(e);
  }
};

const gotClient: Client = async (url, call) => {
  try {
    const res = await got(url, {
      method: (call.method ?? 'GET') as 'GET',
      body: nodeBody(call),
      headers: call.headers,
      timeout: call.timeoutMs !== undefined ? { request: call.timeoutMs } : undefined,
      signal: call.abortAfterMs !== undefined ? abortSignal(call) : undefined,
      throwHttpErrors: false,
      retry: { limit: 0 },
      responseType: 'buffer',
    });
    return { status: res.statusCode, headers: flat(res.headers), body: res.body };
  } catch (e) {
    return failure(e);
  }
};

const superagentClient: Client = async (url, call) => {
  try {
    let req = superagent(call.method ?? 'GET', url)
      .ok(() => true)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    if (call.headers) req = req.set(call.headers);
    if (call.timeoutMs !== undefined) req = req.timeout(call.timeoutMs);
    if (call.body) req = req.send(call.body);
    if (call.abortAfterMs !== undefined) setTimeout(() => req.abort(), call.abortAfterMs);
    // A streamed body is piped into the request (superagent's way), which then emits its response.
    const parts = call.stream;
    const res = parts
      ? await new Promise<superagent.Response>((resolve, reject) => {
          req.on('response', resolve);
          req.on('error', reject);
          slowly(parts).pipe(req as unknown as Writable);
        })
      : await req;
    return {
      status: res.status,
      headers: flat(res.headers),
      body: Buffer.isBuffer(res.body) ? res.body : Buffer.alloc(0),
    };
  } catch (e) {
    return failure(e);
  }
};

export const keepAliveAgent = new HttpAgent({ keepAlive: true });

/** The Node clients, by name; `https` ones talk to the TLS server. */
export const NODE_CLIENTS: Record<string, { client: Client; https?: boolean; follows: boolean }> = {
  'global fetch': { client: fetchLike(fetch), follows: true },
  'undici.fetch': { client: fetchLike(undiciFetch as unknown as typeof fetch), follows: true },
  'undici.request': { client: undiciRequestClient, follows: false },
  'undici.stream': { client: undiciStreamClient, follows: false },
  axios: { client: axiosClient, follows: true },
  got: { client: gotClient, follows: true },
  'node-fetch': { client: fetchLike(nodeFetch as unknown as typeof fetch, true), follows: true },
  superagent: { client: superagentClient, follows: true },
  'http.request': { client: nodeRequest(http, keepAliveAgent), follows: false },
  'http.get': { client: httpGetClient, follows: false },
  'https.request': { client: nodeRequest(https), https: true, follows: false },
};
