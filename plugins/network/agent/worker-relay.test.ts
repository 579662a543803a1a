import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { httpServer, startNetworkDebuggee } from '../host/testing.js';

// Worker threads (issue 35, §3 defect 4): the preload runs in each worker (workers inherit
// execArgv); what its taps see there is relayed to the main thread's agent. The worker here loads
// the preload as `--import porthole/register` would, bundled, then makes its requests.

/** Runs `code` in a worker that loaded the preload first; resolves with what the worker posts. */
function inWorker(preload: string | undefined, code: string): Promise<unknown> {
  const source = `${preload ? `await import(${JSON.stringify(pathToFileURL(preload).href)});` : ''}
    const { parentPort, workerData } = await import('node:worker_threads');
    ${code}`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: {} });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

describe('worker threads', () => {
  const defer = cleanupAfterEach();

  it("records a worker's fetch and http requests in the main thread's agent, with the same answers", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'porthole-register-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const preload = join(dir, 'register.mjs');
    await build({
      entryPoints: [join(import.meta.dirname, 'register.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: preload,
      logLevel: 'error',
    });
    const s = await httpServer((req, res, body) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url, body: `${body}` })),
    );
    defer(() => s.close());
    const work = `
      const base = ${JSON.stringify(s.url)};
      const viaFetch = await (await fetch(base + '/worker/fetch', { method: 'POST', body: 'from a worker' })).json();
      const http = await import('node:http');
      const viaHttp = await new Promise((resolve) => http.get(base + '/worker/http', (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(JSON.parse(text)));
      }));
      parentPort.postMessage({ viaFetch, viaHttp });`;
    const without = await inWorker(undefined, work);
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    const before = Date.now();
    expect(await inWorker(preload, work)).toEqual(without);
    expect(without).toEqual({
      viaFetch: { url: '/worker/fetch', body: 'from a worker' },
      viaHttp: { url: '/worker/http', body: '' },
    });
    const done = (path: string) =>
      waitFor(() => d.host.transactions({ urlContains: path }).find((t) => t.state === 'complete'), path);
    const fetched = await done('/worker/fetch');
    expect(fetched).toMatchObject({
      initiator: 'fetch',
      request: { method: 'POST', body: { data: 'from a worker' } },
      response: { status: 200, body: { data: '{"url":"/worker/fetch","body":"from a worker"}' } },
    });
    expect(fetched.timing.startedAt).toBeGreaterThanOrEqual(before - 50);
    expect(fetched.timing.durationMs).toBeGreaterThanOrEqual(0);
    expect(fetched.timing.durationMs).toBeLessThan(5000);
    expect(await done('/worker/http')).toMatchObject({ initiator: 'http', response: { status: 200 } });
    // Only once: the worker's requests are not reported twice, and the main thread made none of them.
    expect(d.host.transactions({ urlContains: '/worker/' })).toHaveLength(2);
  });
});
