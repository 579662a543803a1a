import type { IncomingMessage, ServerResponse } from 'node:http';
import { expect, type Page, test } from '@playwright/test';
import { startTestCore, waitFor } from '../electron/host/testing.js';
import type { NetworkHost } from '../plugins/network/host/host-api.js';
import type { Transaction } from '../plugins/network/protocol.js';
import { serveDebuggeePage } from './support/debuggee-page.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function echo(req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-served-by': 'e2e' });
    res.end(JSON.stringify({ method: req.method, url: req.url, body: Buffer.concat(chunks).toString() }));
  });
}

async function open(page: Page) {
  const t = await startTestCore();
  const served = await serveDebuggeePage({
    '/api/echo': echo,
    '/api/pixel.png': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG),
  });
  await page.goto(served.pageUrl({ inspector: t.urls.debuggeeUrl, plugins: ['network'], appId: 'com.e2e.network' }));
  await expect(page.locator('#status')).toHaveText('connected');
  const [session] = t.core.sessions.list();
  const host = t.core.plugins.instance(session!.id, 'network') as unknown as NetworkHost;
  return {
    t,
    served,
    host,
    async close() {
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

test('captures fetch and XMLHttpRequest from a real Chromium page, with bodies, binaries and failures', async ({
  page,
}) => {
  const { host, close } = await open(page);
  try {
    const viaFetch = await page.evaluate(async () => {
      const response = await fetch('/api/echo?via=fetch', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', authorization: 'Bearer page-secret' },
        body: 'from fetch',
      });
      return response.json();
    });
    expect(viaFetch).toEqual({ method: 'POST', url: '/api/echo?via=fetch', body: 'from fetch' });

    const viaXhr = await page.evaluate(
      () =>
        new Promise<string>((resolve, reject) => {
          const xhr = new XMLHttpRequest();
          xhr.open('PUT', '/api/echo?via=xhr');
          xhr.setRequestHeader('content-type', 'application/json');
          xhr.onload = () => resolve(xhr.responseText);
          xhr.onerror = () => reject(new Error('xhr failed'));
          xhr.send('{"from":"xhr"}');
        }),
    );
    expect(JSON.parse(viaXhr)).toEqual({ method: 'PUT', url: '/api/echo?via=xhr', body: '{"from":"xhr"}' });

    const pixelBytes = await page.evaluate(async () => [
      ...new Uint8Array(await (await fetch('/api/pixel.png')).arrayBuffer()),
    ]);
    expect(Buffer.from(pixelBytes)).toEqual(PNG);

    const fetched = await finished(host, 'via=fetch');
    expect(fetched).toMatchObject({
      state: 'complete',
      initiator: 'fetch',
      request: { method: 'POST', body: { encoding: 'text', data: 'from fetch' } },
      response: { status: 200, body: { encoding: 'text', contentType: 'application/json' } },
    });
    expect(fetched.request.headers.find((h) => h.name === 'authorization')?.value).toBe('[redacted]');
    expect(fetched.response!.headers.find((h) => h.name === 'x-served-by')?.value).toBe('e2e');
    expect(fetched.timing.durationMs).toBeGreaterThanOrEqual(0);

    const xhr = await finished(host, 'via=xhr');
    expect(xhr).toMatchObject({
      state: 'complete',
      initiator: 'xhr',
      request: { method: 'PUT', body: { data: '{"from":"xhr"}' } },
      response: { status: 200 },
    });
    expect(JSON.parse(xhr.response!.body!.data)).toEqual(JSON.parse(viaXhr));

    const pixel = await finished(host, 'pixel.png');
    expect(pixel.response!.body).toMatchObject({ encoding: 'base64', contentType: 'image/png', truncated: false });
    expect(Buffer.from(pixel.response!.body!.data, 'base64')).toEqual(PNG);

    // A port nothing listens on: refused, for fetch and for XHR.
    const dead = 'http://127.0.0.1:9/dead';
    await page.evaluate(async (url) => {
      await fetch(`${url}?via=fetch`).catch(() => undefined);
      await new Promise((resolve) => {
        const x = new XMLHttpRequest();
        x.open('GET', `${url}?via=xhr`);
        x.onerror = resolve;
        x.onloadend = resolve;
        x.send();
      });
    }, dead);
    for (const via of ['fetch', 'xhr']) {
      const tx = await finished(host, `dead?via=${via}`);
      expect(tx.state).toBe('failed');
      expect(tx.response).toBeUndefined();
      expect(tx.error?.message).toBeTruthy();
    }
    // Only the page's own requests: never the agent's link to the inspector.
    expect(host.transactions().every((tx) => tx.request.url.startsWith('http'))).toBe(true);
  } finally {
    await close();
  }
});

test('a mock rule changes what the page gets (status, body, delay); hits rise; off restores the real answer', async ({
  page,
}) => {
  const { host, close } = await open(page);
  try {
    const { rule } = await host.addMockRule({
      match: { method: 'GET', url: { kind: 'regex', value: '/api/echo\\?user=\\d+$' } },
      action: {
        type: 'respond',
        status: 418,
        statusText: 'Teapot',
        headers: { 'x-mocked': 'yes' },
        body: { type: 'json', json: { mocked: true } },
        delayMs: 200,
      },
    });
    const fetchIt = (path: string) =>
      page.evaluate(async (p) => {
        const started = performance.now();
        const r = await fetch(p);
        return {
          status: r.status,
          header: r.headers.get('x-mocked'),
          body: await r.text(),
          ms: performance.now() - started,
        };
      }, path);

    const mocked = await fetchIt('/api/echo?user=7');
    expect(mocked).toMatchObject({ status: 418, header: 'yes', body: '{"mocked":true}' });
    expect(mocked.ms).toBeGreaterThanOrEqual(190);

    const viaXhr = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const x = new XMLHttpRequest();
          x.open('GET', '/api/echo?user=8');
          x.onloadend = () => resolve(x.status);
          x.send();
        }),
    );
    expect(viaXhr).toBe(418);
    expect((await fetchIt('/api/echo?user=x')).status).toBe(200);

    await waitFor(() => host.mockConfig().hits[rule.id] === 2, 'two hits');
    const tx = await finished(host, 'user=7');
    expect(tx).toMatchObject({ mock: { ruleId: rule.id }, response: { status: 418 } });

    await host.setMockingEnabled(false);
    const real = await fetchIt('/api/echo?user=7');
    expect(real.status).toBe(200);
    expect(JSON.parse(real.body)).toMatchObject({ method: 'GET', url: '/api/echo?user=7' });
  } finally {
    await close();
  }
});
