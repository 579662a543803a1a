import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { startTestCore, waitFor } from '../electron/host/testing.js';
import type { NetworkHost } from '../plugins/network/host/host-api.js';
import type { Transaction } from '../plugins/network/protocol.js';
import { serveDebuggeePage } from './support/debuggee-page.js';

// Issue 35, §3, the browser's cases: a stream the page cancels stops downloading (defect 1),
// FormData bodies are recorded (6), a keepalive fetch open when the page goes away is closed as
// unknown (7), sendBeacon is captured and a CORS refusal is said to be one (11).

/** A body of 60 chunks, one per 100 ms (6 s); counts the chunks written before the connection closed. */
const streamed = { written: 0, closedEarly: false };
function slowStream(_req: unknown, res: ServerResponse) {
  streamed.written = 0;
  streamed.closedEarly = false;
  res.writeHead(200, { 'content-type': 'text/plain' });
  const timer = setInterval(() => {
    if (streamed.written === 60) {
      clearInterval(timer);
      res.end();
      return;
    }
    res.write(`chunk ${streamed.written++}\n`);
  }, 100);
  res.on('close', () => {
    clearInterval(timer);
    if (streamed.written < 60) streamed.closedEarly = true;
  });
}

async function open(page: Page, plugins = ['network']) {
  const t = await startTestCore();
  const pending: ServerResponse[] = [];
  const served = await serveDebuggeePage({
    '/api/stream': slowStream,
    '/api/echo': (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res.writeHead(200).end(`${Buffer.concat(chunks).length}`));
    },
    '/api/slow': (_req, res) => void pending.push(res),
    '/api/beacon': (req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    },
  });
  await page.goto(served.pageUrl({ inspector: t.urls.debuggeeUrl, plugins, appId: 'com.e2e.defects' }));
  await expect(page.locator('#status')).toHaveText('connected');
  const [session] = t.core.sessions.list();
  const host = t.core.plugins.instance(session!.id, 'network') as unknown as NetworkHost | undefined;
  return {
    served,
    host: host!,
    async close() {
      for (const res of pending) res.destroy();
      await served.close();
      await t.stop();
    },
  };
}

const finished = (host: NetworkHost, urlPart: string) =>
  waitFor(
    () => host.transactions({ urlContains: urlPart }).find((tx) => tx.state !== 'pending'),
    `a finished transaction for ${urlPart}`,
  ) as Promise<Transaction>;

/** The page reads two chunks of the slow stream, then cancels its reader; answers what it read. */
const readTwoThenCancel = (page: Page) =>
  page.evaluate(async () => {
    const reader = (await fetch('/api/stream')).body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('chunk 1')) text += decoder.decode((await reader.read()).value);
    await reader.cancel();
    return text;
  });

test('a stream the page cancels stops downloading, as without Porthole, and is recorded as cancelled', async ({
  page,
}) => {
  // Without the network plugin first: what the server sees when the page cancels.
  const plain = await open(page, ['example']);
  try {
    expect(await readTwoThenCancel(page)).toContain('chunk 1');
    await expect.poll(() => streamed.closedEarly).toBe(true);
  } finally {
    await plain.close();
  }
  const { host, close } = await open(page);
  try {
    expect(await readTwoThenCancel(page)).toContain('chunk 1');
    // The server's connection closes long before its 60 chunks: the capture's copy let go too.
    await expect.poll(() => streamed.closedEarly).toBe(true);
    expect(streamed.written).toBeLessThan(60);
    const tx = await finished(host, '/api/stream');
    expect(tx).toMatchObject({ state: 'failed', error: { code: 'ABORTED' } });
    expect(tx.response?.body?.data ?? '').toContain('chunk 0');
  } finally {
    await close();
  }
});

test('FormData bodies, a beacon, a CORS refusal and a keepalive fetch open when the page goes away', async ({
  page,
}) => {
  const other = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end('no CORS headers'),
  );
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/no-cors`;
  const { host, close } = await open(page);
  try {
    const sizes = await page.evaluate(async (cross) => {
      const form = new FormData();
      form.set('name', 'Ada');
      form.set('file', new Blob(['file contents'], { type: 'text/plain' }), 'notes.txt');
      const size = await (await fetch('/api/echo', { method: 'POST', body: form })).text();
      const queued = navigator.sendBeacon('/api/beacon', 'beacon payload');
      const cors = await fetch(cross).then(
        () => 'read',
        (e: Error) => e.name,
      );
      return { size, queued, cors };
    }, otherUrl);
    expect(sizes).toMatchObject({ queued: true, cors: 'TypeError' });

    const form = await finished(host, '/api/echo');
    expect(form.request.body?.data).toContain('name="name"');
    expect(form.request.body?.data).toContain('Ada');
    expect(form.request.body?.data).toContain('file contents');
    expect(form.request.body?.contentType ?? '').toMatch(/^multipart\/form-data; boundary=/);
    expect(form.request.body?.size).toBe(Number(sizes.size));

    const beacon = await finished(host, '/api/beacon');
    expect(beacon).toMatchObject({ initiator: 'beacon', state: 'unknown', request: { method: 'POST' } });
    expect(beacon.request.body?.data).toBe('beacon payload');

    // A page is not told why a cross-origin request failed (Chromium hides even the resource timing
    // of a refused answer): said as a CORS refusal or a network error, never as a refused connection.
    const cors = await finished(host, '/no-cors');
    expect(cors).toMatchObject({ state: 'failed', error: { code: 'CORS_OR_NETWORK' } });
    expect(cors.error?.message).toContain('Access-Control-Allow-Origin');

    // A keepalive fetch still waiting when the page navigates away: closed as unknown, not pending forever.
    await page.evaluate(() => {
      void fetch('/api/slow', { method: 'POST', body: 'bye', keepalive: true });
    });
    await waitFor(() => host.transactions({ urlContains: '/api/slow' })[0], 'the keepalive fetch');
    await page.goto('about:blank');
    const gone = await finished(host, '/api/slow');
    expect(gone).toMatchObject({ state: 'unknown' });
    expect(gone.error?.message).toContain('the app went away');
  } finally {
    await close();
    await new Promise<void>((r) => other.close(() => r()));
  }
});
