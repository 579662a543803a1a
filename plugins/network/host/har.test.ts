import { describe, expect, it } from 'vitest';
import { bytesToBase64 } from '../agent/capture-body.js';
import { HarSchema } from '../har-schema.js';
import type { Transaction } from '../protocol.js';
import { fromHar, HarImportError, toHar } from './har.js';
import { TransactionStore } from './transaction-store.js';

const creator = { name: 'Porthole', version: '1.0.0' };
const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 128, 7]);

function sampleStore(): TransactionStore {
  const store = new TransactionStore();
  store.started({
    id: 'a',
    initiator: 'fetch',
    method: 'POST',
    url: 'http://api.test/users?page=2&q=x%20y',
    headers: [
      { name: 'content-type', value: 'application/json' },
      { name: 'cookie', value: 'sid=1; theme=dark' },
    ],
    body: {
      encoding: 'text',
      data: '{"name":"Ann"}',
      size: 14,
      totalSize: 14,
      truncated: false,
      contentType: 'application/json',
    },
    startedAt: Date.UTC(2026, 0, 2, 3, 4, 5, 6),
    mock: { ruleId: 'rule-1', ruleName: 'users' },
  });
  store.response({
    id: 'a',
    status: 201,
    statusText: 'Created',
    headers: [
      { name: 'content-type', value: 'application/json' },
      { name: 'set-cookie', value: 'sid=2; Path=/; HttpOnly' },
    ],
    waitMs: 12.5,
  });
  store.completed({
    id: 'a',
    body: {
      encoding: 'text',
      data: '{"id":7}',
      size: 8,
      totalSize: 8,
      truncated: false,
      contentType: 'application/json',
    },
    durationMs: 20,
  });
  store.started({
    id: 'b',
    initiator: 'http',
    method: 'GET',
    url: 'http://api.test/logo.png',
    headers: [],
    startedAt: Date.UTC(2026, 0, 2, 3, 4, 6),
  });
  store.response({
    id: 'b',
    status: 200,
    statusText: 'OK',
    headers: [{ name: 'content-type', value: 'image/png' }],
    waitMs: 3,
  });
  store.completed({
    id: 'b',
    body: {
      encoding: 'base64',
      data: bytesToBase64(png),
      size: 12,
      totalSize: 5000,
      truncated: true,
      contentType: 'image/png',
    },
    durationMs: 4,
  });
  store.started({
    id: 'c',
    initiator: 'xhr',
    method: 'DELETE',
    url: 'http://down.test/x',
    headers: [],
    startedAt: Date.UTC(2026, 0, 2, 3, 4, 7),
  });
  store.failed({ id: 'c', message: 'connect ECONNREFUSED', code: 'ECONNREFUSED', durationMs: 1 });
  return store;
}

describe('HAR', () => {
  it('exports HAR 1.2 with the fields the spec requires', () => {
    const har = toHar(sampleStore().all(), creator, 'a test');
    expect(HarSchema.safeParse(har).success).toBe(true);
    expect(har.log).toMatchObject({ version: '1.2', creator, comment: 'a test' });
    const [a, b, c] = har.log.entries;
    expect(a).toMatchObject({
      startedDateTime: '2026-01-02T03:04:05.006Z',
      time: 20,
      request: {
        method: 'POST',
        queryString: [
          { name: 'page', value: '2' },
          { name: 'q', value: 'x y' },
        ],
        cookies: [
          { name: 'sid', value: '1' },
          { name: 'theme', value: 'dark' },
        ],
        postData: { mimeType: 'application/json', text: '{"name":"Ann"}' },
        bodySize: 14,
      },
      response: {
        status: 201,
        cookies: [{ name: 'sid', value: '2', path: '/', httpOnly: true }],
        content: { size: 8, mimeType: 'application/json', text: '{"id":7}' },
        redirectURL: '',
      },
      timings: { send: 0, wait: 12.5, receive: 7.5 },
    });
    // time is the sum of the timings that apply (-1 means "does not apply").
    for (const entry of har.log.entries) {
      const t = entry.timings;
      const sum = [t.blocked, t.dns, t.connect, t.send, t.wait, t.receive].filter((v) => v !== undefined && v >= 0);
      expect(sum.reduce((x, y) => x! + y!, 0)).toBeCloseTo(entry.time);
    }
    expect(b?.response.content).toMatchObject({ encoding: 'base64', size: 5000, mimeType: 'image/png' });
    expect(c).toMatchObject({ response: { status: 0 }, _error: 'connect ECONNREFUSED' });
  });

  it('round-trips through import: the re-export is the same, bodies byte-exact', () => {
    const original = toHar(sampleStore().all(), creator);
    const imported = fromHar(JSON.stringify(original), 'test.har');
    const store = new TransactionStore();
    for (const tx of imported) store.add(tx);
    const again = toHar(store.all(), creator);
    expect(again).toEqual(original);

    const [a, b, c] = store.all() as [Transaction, Transaction, Transaction];
    expect(a).toMatchObject({
      initiator: 'fetch',
      state: 'complete',
      mock: { ruleId: 'rule-1' },
      imported: { source: 'test.har' },
    });
    expect(b.response?.body).toMatchObject({ encoding: 'base64', truncated: true, size: 12, totalSize: 5000 });
    expect(Buffer.from(b.response!.body!.data, 'base64')).toEqual(Buffer.from(png));
    expect(c).toMatchObject({ state: 'failed', error: { message: 'connect ECONNREFUSED', code: 'ECONNREFUSED' } });
  });

  it('imports a HAR another tool wrote', () => {
    const foreign = {
      log: {
        version: '1.2',
        creator: { name: 'WebInspector', version: '537.36' },
        pages: [],
        entries: [
          {
            startedDateTime: '2026-03-01T10:00:00.000Z',
            time: 30,
            _resourceType: 'xhr',
            request: {
              method: 'GET',
              url: 'https://example.test/data',
              httpVersion: 'http/2.0',
              headers: [{ name: ':authority', value: 'example.test' }],
              queryString: [],
              cookies: [],
              headersSize: -1,
              bodySize: 0,
            },
            response: {
              status: 200,
              statusText: '',
              httpVersion: 'http/2.0',
              headers: [],
              cookies: [],
              content: { size: 2, mimeType: 'application/json', text: '[]' },
              redirectURL: '',
              headersSize: -1,
              bodySize: -1,
              _transferSize: 100,
            },
            cache: {},
            timings: { blocked: 1, dns: -1, ssl: -1, connect: -1, send: 0.5, wait: 20, receive: 8.5 },
          },
          {
            startedDateTime: '2026-03-01T10:00:01.000Z',
            time: 5,
            request: {
              method: 'GET',
              url: 'https://blocked.test/',
              httpVersion: '',
              headers: [],
              queryString: [],
              cookies: [],
              headersSize: -1,
              bodySize: 0,
            },
            response: {
              status: 0,
              statusText: '',
              httpVersion: '',
              headers: [],
              cookies: [],
              content: { size: 0, mimeType: 'x-unknown' },
              redirectURL: '',
              headersSize: -1,
              bodySize: -1,
              _error: 'net::ERR_BLOCKED_BY_CLIENT',
            },
            cache: {},
            timings: { send: 0, wait: 0, receive: 0 },
            _error: 'net::ERR_BLOCKED_BY_CLIENT',
          },
        ],
      },
    };
    const [ok, blocked] = fromHar(foreign, 'chrome.har');
    expect(ok).toMatchObject({
      initiator: 'xhr',
      state: 'complete',
      response: { status: 200, body: { encoding: 'text', data: '[]' } },
      timing: { startedAt: Date.parse('2026-03-01T10:00:00.000Z'), waitMs: 21.5, durationMs: 30 },
    });
    expect(blocked).toMatchObject({ state: 'failed', error: { message: 'net::ERR_BLOCKED_BY_CLIENT' } });
  });

  it('refuses what is not HAR, saying what is wrong', () => {
    expect(() => fromHar('{not json', 'x')).toThrow(HarImportError);
    expect(() => fromHar('{not json', 'x')).toThrow(/not JSON/);
    expect(() => fromHar({ log: { version: '1.2', entries: [{}] } }, 'x')).toThrow(/not a HAR 1.2 file: log\.creator/);
    expect(() => fromHar(42, 'x')).toThrow(HarImportError);
  });

  it('names the first few problems of a broken file, not the whole validation dump', () => {
    const entries = Array.from({ length: 50 }, () => ({ request: { method: 7 } }));
    const message = (() => {
      try {
        fromHar({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries } }, 'x');
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(message).toMatch(/^not a HAR 1\.2 file: log\.entries\[0\]\.\w+/);
    expect(message).toMatch(/and [\d,]+ more problems\. Save one from the Network panel/);
    expect(message!.length).toBeLessThan(600);
    expect(() => fromHar({ entries: [] }, 'x')).toThrow(/it has no "log" object/);
  });
});

describe('HAR: what went over the wire', () => {
  it('exports and reads back the HTTP version, server address, sizes on the wire and connection phases', () => {
    const store = new TransactionStore();
    store.started({
      id: 'z',
      initiator: 'http',
      method: 'GET',
      url: 'http://127.0.0.1:8080/z',
      headers: [],
      startedAt: 1,
    });
    store.response({
      id: 'z',
      status: 200,
      statusText: 'OK',
      headers: [{ name: 'content-encoding', value: 'gzip' }],
      waitMs: 5,
      httpVersion: '1.1',
      remoteAddress: '127.0.0.1',
      remotePort: 8080,
    });
    store.completed({
      id: 'z',
      body: { encoding: 'text', data: 'x'.repeat(1000), size: 1000, totalSize: 1000, truncated: false },
      encodedSize: 40,
      durationMs: 9,
    });
    const har = toHar(store.all(), creator);
    const entry = har.log.entries[0]!;
    expect(entry).toMatchObject({ serverIPAddress: '127.0.0.1', connection: '8080' });
    expect(entry.response).toMatchObject({
      httpVersion: 'HTTP/1.1',
      bodySize: 40,
      content: { size: 1000, compression: 960 },
    });
    const [back] = fromHar(har, 'x.har');
    expect(back).toMatchObject({
      remoteAddress: '127.0.0.1',
      remotePort: 8080,
      response: { httpVersion: '1.1', encodedSize: 40 },
    });
  });

  it("keeps a browser HAR's server IP and dns/connect/ssl phases on import", () => {
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'WebInspector', version: '537.36' },
        entries: [
          {
            startedDateTime: '2026-01-02T03:04:05.006Z',
            time: 50,
            serverIPAddress: '93.184.216.34',
            request: {
              method: 'GET',
              url: 'https://example.test/',
              httpVersion: 'HTTP/2',
              cookies: [],
              headers: [],
              queryString: [],
              headersSize: -1,
              bodySize: 0,
            },
            response: {
              status: 200,
              statusText: '',
              httpVersion: 'HTTP/2',
              cookies: [],
              headers: [],
              content: { size: 10, mimeType: 'text/plain', text: '0123456789' },
              redirectURL: '',
              headersSize: -1,
              bodySize: 10,
            },
            cache: {},
            timings: { blocked: 1, dns: 2, connect: 8, ssl: 5, send: 0.5, wait: 30, receive: 3.5 },
          },
        ],
      },
    };
    const [tx] = fromHar(har, 'chrome.har');
    expect(tx).toMatchObject({
      remoteAddress: '93.184.216.34',
      response: { httpVersion: '2' },
      timing: { phases: { blocked: 1, dns: 2, connect: 8, ssl: 5, send: 0.5 } },
    });
    const again = toHar([{ ...tx!, seq: 1 }], creator).log.entries[0]!;
    expect(again.timings).toMatchObject({ blocked: 1, dns: 2, connect: 8, ssl: 5, send: 0.5 });
    expect(again.serverIPAddress).toBe('93.184.216.34');
  });
});
