import { get } from 'node:http';
import axios from 'axios';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { startNetworkDebuggee } from '../host/testing.js';

// Mock rules for the failures apps retry on (issue 35, defect 12): a network error with its code
// (ECONNRESET, ETIMEDOUT) as the app's client reports a real one, and slow, stalled and cut bodies.

const URL_BASE = 'http://mock.test';
const BODY = 'x'.repeat(1000);

/** http.get, as an app reads it: the bytes it got, when, and how it ended. */
function readWithHttp(url: string, timeoutMs = 3000) {
  return new Promise<{ bytes: number; error?: string; code?: string; ms: number }>((resolve) => {
    const started = performance.now();
    let bytes = 0;
    const done = (error?: Error & { code?: string }) =>
      resolve({ bytes, error: error?.message, code: error?.code, ms: performance.now() - started });
    const req = get(url, (res) => {
      res.on('data', (c: Buffer) => {
        bytes += c.length;
      });
      res.on('end', () => done());
      res.on('error', done);
      res.on('aborted', () => done(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
    });
    req.on('error', done);
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error('app timeout'), { code: 'APP_TIMEOUT' })));
  });
}

describe('mock rules: error codes, slow and cut bodies', () => {
  const defer = cleanupAfterEach();
  const debuggee = async () => {
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    return d;
  };

  it('fails with the code the rule gives, as each client reports a real one', async () => {
    const d = await debuggee();
    await d.host.addMockRule({
      match: { url: { kind: 'contains', value: '/reset' } },
      action: { type: 'networkError', code: 'ECONNRESET', message: 'socket hang up' },
    });
    await d.host.addMockRule({
      match: { url: { kind: 'contains', value: '/slow' } },
      action: { type: 'networkError', code: 'ETIMEDOUT' },
    });
    const viaHttp = await readWithHttp(`${URL_BASE}/reset/http`);
    expect(viaHttp).toMatchObject({ code: 'ECONNRESET', error: 'socket hang up' });
    const viaFetch = await fetch(`${URL_BASE}/reset/fetch`).catch((e: Error & { cause?: { code?: string } }) => e);
    expect(viaFetch).toBeInstanceOf(TypeError);
    expect((viaFetch as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNRESET');
    const viaAxios = await axios.get(`${URL_BASE}/slow/axios`).catch((e: { code?: string }) => e);
    expect((viaAxios as { code?: string }).code).toBe('ETIMEDOUT');

    const failed = await waitFor(() => {
      const txs = d.host.transactions({ failedOnly: true });
      return txs.length === 3 ? txs : undefined;
    }, 'three failures');
    expect(failed.map((tx) => [new URL(tx.request.url).pathname, tx.error?.code, tx.error?.timedOut])).toEqual([
      ['/reset/http', 'ECONNRESET', undefined],
      ['/reset/fetch', 'ECONNRESET', undefined],
      ['/slow/axios', 'ETIMEDOUT', true],
    ]);
  });

  it('sends a body at the rule’s pace', async () => {
    const d = await debuggee();
    await d.host.addMockRule({
      match: { url: { kind: 'contains', value: '/paced' } },
      action: { type: 'respond', status: 200, body: { type: 'text', text: BODY }, bytesPerSecond: 2000 },
    });
    const viaHttp = await readWithHttp(`${URL_BASE}/paced/http`);
    expect(viaHttp.bytes).toBe(1000);
    expect(viaHttp.ms).toBeGreaterThanOrEqual(400);
    const started = performance.now();
    const text = await (await fetch(`${URL_BASE}/paced/fetch`)).text();
    expect(text).toBe(BODY);
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    const done = await waitFor(() => {
      const txs = d.host.transactions({ urlContains: '/paced' }).filter((tx) => tx.state === 'complete');
      return txs.length === 2 ? txs : undefined;
    }, 'both recorded');
    for (const tx of done) expect(tx.response?.body?.data).toBe(BODY);
  });

  it('cuts a body part-way: a reset fails the app’s read, a stall never ends it', async () => {
    const d = await debuggee();
    await d.host.addMockRule({
      match: { url: { kind: 'contains', value: '/cut' } },
      action: {
        type: 'respond',
        status: 200,
        body: { type: 'text', text: BODY },
        cut: { afterBytes: 300, end: 'reset' },
      },
    });
    await d.host.addMockRule({
      match: { url: { kind: 'contains', value: '/stall' } },
      action: {
        type: 'respond',
        status: 200,
        body: { type: 'text', text: BODY },
        cut: { afterBytes: 200, end: 'stall' },
      },
    });
    const cut = await readWithHttp(`${URL_BASE}/cut/http`);
    expect(cut.bytes).toBe(300);
    expect(cut.code).toBe('ECONNRESET');
    const reading = await fetch(`${URL_BASE}/cut/fetch`);
    const error = await reading.text().catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);

    const stalled = await readWithHttp(`${URL_BASE}/stall/http`, 600);
    expect(stalled).toMatchObject({ bytes: 200, code: 'APP_TIMEOUT' });

    const failed = await waitFor(
      () => d.host.transactions({ urlContains: '/cut/http' }).find((tx) => tx.state === 'failed'),
      'the cut one',
    );
    expect(failed.response).toMatchObject({ status: 200, body: { size: 300, truncated: true } });
    expect(failed.error?.code).toBe('ECONNRESET');
    const stall = await waitFor(
      () => d.host.transactions({ urlContains: '/stall/http' }).find((tx) => tx.state === 'failed'),
      'the stalled one, given up by the app',
    );
    expect(stall.response?.body?.size).toBe(200);
    expect(stall.error?.message).toContain('app timeout');
  });
});
