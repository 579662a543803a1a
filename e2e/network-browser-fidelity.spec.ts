import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import type { Har } from 'har-format';
import { startTestCore, waitFor } from '../electron/host/testing.js';
import type { NetworkHost } from '../plugins/network/host/host-api.js';
import type { Transaction } from '../plugins/network/protocol.js';
import { serveDebuggeePage } from './support/debuggee-page.js';

// The browser half of the fidelity matrix (issue 11): fetch, XHR with every responseType, a
// synchronous XHR and axios (XHR and fetch adapters); charset, redirects, time to first byte. The
// same calls run in a page without the network plugin and in one with it: what the page gets must
// be the same, what Porthole records must be what the server sent and what Chromium's own HAR
// (Playwright's recordHar) shows, and mock rules answer each of them.

const JSON_TEXT = JSON.stringify({ hello: 'wörld', list: [1, 2, 3] });
const XML_TEXT = '<?xml version="1.0"?><root><item id="1">one</item></root>';
const BIN = Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 13 + 5) % 256));
// Over the 32 KiB from which the agent sends a body's bytes in a binary notification.
const BIG_BIN = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 31 + 7) % 256));
const BIG_JSON = JSON.stringify({ text: 'wörld ✓ '.repeat(20_000) });
// Over the 1 MiB a body is kept to, sent in pieces.
const HUGE = Buffer.from(Array.from({ length: 1_500_000 }, (_, i) => (i * 17 + 3) % 251));
const HUGE_TEXT = 'café ✓ '.repeat(200_000);

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/f/json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON_TEXT),
  '/f/xml': (_req, res) => res.writeHead(200, { 'content-type': 'application/xml' }).end(XML_TEXT),
  '/f/bin': (_req, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(BIN),
  '/f/big-bin': (_req, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(BIG_BIN),
  '/f/big-json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(BIG_JSON),
  '/f/huge': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    for (let at = 0; at < HUGE.length; at += 100_000) res.write(HUGE.subarray(at, at + 100_000));
    res.end();
  },
  '/f/huge-text': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(HUGE_TEXT),
  // 100 kB of a 1 MB body, then the connection is reset.
  '/f/reset': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '1000000' });
    res.write(HUGE.subarray(0, 100_000), () => setTimeout(() => res.socket?.resetAndDestroy(), 50));
  },
  '/f/upload': (req, res) => {
    let n = 0;
    req.on('data', (c: Buffer) => {
      n += c.length;
    });
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end(String(n)));
  },
  '/f/latin1': (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/plain; charset=ISO-8859-1' }).end(Buffer.from('café crème', 'latin1')),
  '/f/gzip': (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(JSON_TEXT)),
  '/f/redirect': (req, res) => res.writeHead(302, { location: `/f/json${new URL(req.url!, 'http://x').search}` }).end(),
  '/f/slow-body': (_req, res) => {
    // Chromium's XHR reaches HEADERS_RECEIVED with the first body bytes, so some come at once.
    res.writeHead(200, { 'content-type': 'text/plain', 'x-content-type-options': 'nosniff' });
    res.write('late');
    setTimeout(() => res.end(' body'), 300);
  },
};

/** Runs in the page: every case, returning what the page's code got, as plain JSON. */
async function scenario() {
  const bytes = (b: ArrayBuffer) => Array.from(new Uint8Array(b)).join(',');
  const headersOf = (all: string) =>
    all
      .split('\r\n')
      .filter((l) => l && !/^date:/i.test(l))
      .sort()
      .join('|');
  const xhr = (url: string, type: XMLHttpRequestResponseType) =>
    new Promise<unknown>((resolve) => {
      const x = new XMLHttpRequest();
      x.open('GET', url);
      x.responseType = type;
      x.onloadend = async () => {
        let body: unknown;
        if (type === '' || type === 'text') body = x.responseText;
        else if (type === 'json') body = JSON.stringify(x.response);
        else if (type === 'document') body = (x.response as Document | null)?.documentElement?.outerHTML;
        else if (type === 'blob') body = bytes(await (x.response as Blob).arrayBuffer());
        else body = bytes(x.response as ArrayBuffer);
        resolve({ status: x.status, url: x.responseURL, headers: headersOf(x.getAllResponseHeaders()), body });
      };
      x.send();
    });
  const viaFetch = async (url: string) => {
    const r = await fetch(url);
    const h = [...r.headers].filter(([k]) => k !== 'date').map(([k, v]) => `${k}: ${v}`);
    return {
      status: r.status,
      redirected: r.redirected,
      url: r.url,
      headers: h.sort().join('|'),
      body: bytes(await r.arrayBuffer()),
    };
  };
  // biome-ignore lint/suspicious/noExplicitAny: the page's axios (e2e/fixtures/debuggee/main.ts)
  const ax = (window as any).axios;
  const viaAxios = async (url: string, config: Record<string, unknown> = {}) => {
    const r = await ax.request({ url, responseType: 'arraybuffer', validateStatus: () => true, ...config });
    const h = Object.entries(r.headers as Record<string, string>)
      .filter(([k]) => k !== 'date')
      .map(([k, v]) => `${k}: ${v}`);
    return { status: r.status, headers: h.sort().join('|'), body: bytes(r.data) };
  };
  const sync = new XMLHttpRequest();
  sync.open('GET', '/f/json?case=sync', false);
  sync.send();
  return {
    sync: { status: sync.status, body: sync.responseText },
    text: await xhr('/f/json?case=xhr-text', 'text'),
    json: await xhr('/f/json?case=xhr-json', 'json'),
    document: await xhr('/f/xml?case=xhr-document', 'document'),
    blob: await xhr('/f/bin?case=xhr-blob', 'blob'),
    arraybuffer: await xhr('/f/bin?case=xhr-arraybuffer', 'arraybuffer'),
    latin1Xhr: await xhr('/f/latin1?case=xhr-latin1', 'text'),
    latin1Fetch: await viaFetch('/f/latin1?case=fetch-latin1'),
    gzipFetch: await viaFetch('/f/gzip?case=fetch-gzip'),
    redirectFetch: await viaFetch('/f/redirect?case=fetch-redirect'),
    redirectXhr: await xhr('/f/redirect?case=xhr-redirect', 'text'),
    slowXhr: await xhr('/f/slow-body?case=xhr-slow', 'text'),
    slowFetch: await viaFetch('/f/slow-body?case=fetch-slow'),
    bigBinFetch: await viaFetch('/f/big-bin?case=fetch-big-bin'),
    bigJsonXhr: await xhr('/f/big-json?case=xhr-big-json', 'text'),
    bigJsonFetch: await viaFetch('/f/big-json?case=fetch-big-json'),
    bigBlobXhr: await xhr('/f/big-bin?case=xhr-big-blob', 'blob'),
    hugeTextXhr: await new Promise((resolve) => {
      const x = new XMLHttpRequest();
      x.open('GET', '/f/huge-text?case=xhr-huge-text');
      x.onload = () => resolve(x.responseText.length);
      x.send();
    }),
    hugeFetch: await fetch('/f/huge?case=fetch-huge')
      .then((r) => r.arrayBuffer())
      .then((b) => ({ size: b.byteLength, sum: new Uint8Array(b).reduce((s, x) => (s * 31 + x) % 1_000_003, 0) })),
    resetFetch: await fetch('/f/reset?case=fetch-reset')
      .then((r) => r.arrayBuffer())
      .then(
        (b) => `got ${b.byteLength} bytes`,
        (e: Error) => e.name,
      ),
    resetXhr: await new Promise((resolve) => {
      const x = new XMLHttpRequest();
      x.open('GET', '/f/reset?case=xhr-reset');
      x.onerror = () => resolve(`error ${x.status}`);
      x.onload = () => resolve(`load ${x.status}`);
      x.send();
    }),
    abortFetch: await (async () => {
      const stop = new AbortController();
      const r = await fetch('/f/slow-body?case=fetch-abort', { signal: stop.signal });
      stop.abort();
      return r.text().catch((e: Error) => e.name);
    })(),
    axiosJson: await viaAxios('/f/json?case=axios-json'),
    axiosGzip: await viaAxios('/f/gzip?case=axios-gzip'),
    axiosRedirect: await viaAxios('/f/redirect?case=axios-redirect'),
    axiosPost: await viaAxios('/f/upload?case=axios-post', { method: 'POST', data: { hello: 'wörld' } }),
    axiosFetch: await viaAxios('/f/json?case=axios-fetch-adapter', { adapter: 'fetch' }),
    upload: await (
      await fetch('/f/upload?case=fetch-upload', {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7) % 256),
      })
    ).text(),
  };
}

async function pageWith(page: Page, plugins: string[]) {
  const t = await startTestCore();
  const served = await serveDebuggeePage(routes);
  await page.goto(served.pageUrl({ inspector: t.urls.debuggeeUrl, plugins, appId: 'com.e2e.fidelity' }));
  await expect(page.locator('#status')).toHaveText('connected');
  const [session] = t.core.sessions.list();
  const host = plugins.includes('network')
    ? (t.core.plugins.instance(session!.id, 'network') as unknown as NetworkHost)
    : undefined;
  return {
    host,
    /** Same-origin URLs differ by port between the two pages. */
    portless: (v: unknown) => JSON.parse(JSON.stringify(v).replaceAll(served.url, '/')),
    async close() {
      await served.close();
      await t.stop();
    },
  };
}

test('fetch, XHR (every responseType, sync XHR) and axios get the same with and without Porthole, and are recorded as sent', async ({
  page,
}) => {
  const without = await pageWith(page, ['example']);
  const baseline = without.portless(await page.evaluate(scenario));
  await without.close();

  const withP = await pageWith(page, ['network']);
  try {
    const observed = withP.portless(await page.evaluate(scenario));
    expect(observed).toEqual(baseline);
    expect(observed.sync).toEqual({ status: 200, body: JSON_TEXT });

    const host = withP.host!;
    const one = (c: string) =>
      waitFor(
        () => host.transactions({ urlContains: `case=${c}` }).find((tx) => tx.state !== 'pending'),
        `the ${c} transaction`,
      ) as Promise<Transaction>;
    const text = async (c: string) => (await one(c)).response!.body!;

    expect(await text('sync')).toMatchObject({ encoding: 'text', data: JSON_TEXT });
    expect((await text('xhr-text')).data).toBe(JSON_TEXT);
    expect(JSON.parse((await text('xhr-json')).data)).toEqual(JSON.parse(JSON_TEXT));
    expect((await text('xhr-document')).data).toContain('<item id="1">one</item>');
    for (const c of ['xhr-blob', 'xhr-arraybuffer']) {
      const body = await text(c);
      expect(body.encoding).toBe('base64');
      expect(Buffer.from(body.data, 'base64')).toEqual(BIN);
    }
    expect((await text('xhr-latin1')).data).toBe('café crème');
    expect((await text('fetch-latin1')).data).toBe('café crème');
    expect((await text('fetch-gzip')).data).toBe(JSON_TEXT);
    expect((await one('fetch-gzip')).response!.headers.find((h) => h.name === 'content-encoding')?.value).toBe('gzip');
    for (const c of ['fetch-redirect', 'xhr-redirect']) {
      const tx = await one(c);
      expect(tx.response).toMatchObject({ status: 200, redirected: true });
      expect(tx.response!.url).toMatch(/\/f\/json\?case=/);
      expect(tx.request.url).toMatch(/\/f\/redirect\?case=/);
    }
    // Large bodies (sent as bytes, made into base64 and text by the inspector) are what the server sent.
    const bigBin = await text('fetch-big-bin');
    expect(bigBin).toMatchObject({ encoding: 'base64', size: BIG_BIN.length, truncated: false });
    expect(Buffer.from(bigBin.data, 'base64')).toEqual(BIG_BIN);
    for (const c of ['xhr-big-json', 'fetch-big-json']) {
      expect(await text(c)).toMatchObject({ encoding: 'text', data: BIG_JSON, truncated: false });
    }
    const bigBlob = await text('xhr-big-blob');
    expect(bigBlob).toMatchObject({ encoding: 'base64', size: BIG_BIN.length, truncated: false });
    expect(Buffer.from(bigBlob.data, 'base64')).toEqual(BIG_BIN);
    // A text past the cap: its first 1 Mi characters (what the page's responseText holds), marked as cut.
    expect(observed.hugeTextXhr).toBe(HUGE_TEXT.length);
    const hugeText = await text('xhr-huge-text');
    expect(hugeText).toMatchObject({ encoding: 'text', truncated: true });
    expect(hugeText.data).toBe(HUGE_TEXT.slice(0, 1024 * 1024));
    // Past the cap: the first 1 MiB, marked as cut; the page still got every byte.
    expect(observed.hugeFetch.size).toBe(HUGE.length);
    const huge = await text('fetch-huge');
    expect(huge).toMatchObject({ encoding: 'base64', size: 1024 * 1024, truncated: true });
    expect(Buffer.from(huge.data, 'base64')).toEqual(HUGE.subarray(0, 1024 * 1024));
    // A reset mid-body and an abort fail the page's call and the entry, with a duration.
    expect([observed.resetFetch, observed.resetXhr, observed.abortFetch]).toEqual([
      'TypeError',
      'error 0',
      'AbortError',
    ]);
    for (const c of ['fetch-reset', 'xhr-reset', 'fetch-abort']) {
      const tx = await one(c);
      expect(tx).toMatchObject({ state: 'failed', response: { status: 200 } });
      expect(tx.error!.message).toBeTruthy();
      expect(tx.timing.durationMs).toBeGreaterThan(0);
    }
    expect((await one('fetch-abort')).error!.message).toMatch(/abort/i);
    const upload = (await one('fetch-upload')).request.body!;
    expect(upload).toMatchObject({ encoding: 'base64', size: 100_000 });
    expect(Buffer.from(upload.data, 'base64')).toEqual(
      Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 7) % 256)),
    );
    expect((await text('axios-json')).data).toBe(JSON_TEXT);
    expect((await text('axios-gzip')).data).toBe(JSON_TEXT);
    expect((await one('axios-redirect')).response).toMatchObject({ status: 200, redirected: true });
    expect((await one('axios-post')).request.body).toMatchObject({ data: '{"hello":"wörld"}' });
    expect(await one('axios-fetch-adapter')).toMatchObject({ initiator: 'fetch', response: { status: 200 } });
    expect((await one('axios-json')).initiator).toBe('xhr');
    for (const c of ['xhr-slow', 'fetch-slow']) {
      const tx = await one(c);
      expect(tx.response!.body!.data).toBe('late body');
      // time to first byte is the headers' arrival, not the end of the body
      expect(tx.timing.waitMs!).toBeLessThan(tx.timing.durationMs! - 200);
    }
  } finally {
    await withP.close();
  }
});

test("what Porthole records matches Chromium's own HAR (Playwright's recordHar)", async ({ browser }, testInfo) => {
  const harPath = testInfo.outputPath('chromium.har');
  const context = await browser.newContext({ recordHar: { path: harPath, content: 'embed' } });
  const page = await context.newPage();
  const withP = await pageWith(page, ['network']);
  try {
    await page.evaluate(scenario);
    await page.close();
    await context.close(); // writes the HAR
    const har = JSON.parse(readFileSync(harPath, 'utf8')) as Har;
    const host = withP.host!;
    const entries = har.log.entries.filter((e) => /[?&]case=/.test(e.request.url));
    expect(entries.length).toBeGreaterThan(20);
    const txs = await waitFor(() => {
      const all = host.transactions();
      return all.filter((t) => t.state !== 'pending').length >= entries.length - 3 ? all : undefined;
    }, 'the transactions');
    const bodyOf = (b: { data: string; encoding: string } | undefined) =>
      b ? Buffer.from(b.data, b.encoding === 'base64' ? 'base64' : 'utf8') : Buffer.alloc(0);
    const headerMap = (hs: { name: string; value: string }[]) =>
      Object.fromEntries(
        hs.filter((h) => !/^(set-cookie|date)$/i.test(h.name)).map((h) => [h.name.toLowerCase(), h.value]),
      );
    let compared = 0;
    for (const entry of entries) {
      const redirect = entry.response.status >= 300 && entry.response.status < 400;
      if (redirect) {
        // the page cannot see a hop: Porthole's one entry has the first URL and the final answer
        const tx = txs.find((t) => t.request.url === entry.request.url)!;
        expect([entry.request.url, tx.response?.redirected]).toEqual([entry.request.url, true]);
        continue;
      }
      // the final hop of a redirect is Porthole's entry for the first URL
      const tx =
        txs.find((t) => t.request.url === entry.request.url && !t.response?.redirected) ??
        txs.find((t) => t.response?.url === entry.request.url);
      expect(tx, entry.request.url).toBeDefined();
      const what = `${entry.request.method} ${entry.request.url}`;
      expect([what, tx!.request.method, tx!.response?.status]).toEqual([
        what,
        entry.request.method,
        entry.response.status,
      ]);
      expect([what, headerMap(tx!.response!.headers)]).toEqual([what, headerMap(entry.response.headers)]);
      const content = entry.response.content;
      const chromium = Buffer.from(content.text ?? '', content.encoding === 'base64' ? 'base64' : 'utf8');
      const kept = tx!.response!.body;
      // a body cut at the cap is the start of Chromium's (a text's in characters); a failed one has none to compare
      const cutText = kept?.truncated && kept.encoding === 'text';
      const expected = cutText
        ? Buffer.from(chromium.toString('utf8').slice(0, kept.size))
        : kept?.truncated
          ? chromium.subarray(0, kept.size)
          : chromium;
      if (tx!.state !== 'failed') expect([what, bodyOf(kept).equals(expected)]).toEqual([what, true]);
      if (entry.request.postData?.text !== undefined) {
        const sent = bodyOf(tx!.request.body);
        expect([what, sent.length]).toEqual([what, entry.request.bodySize]);
      }
      compared++;
    }
    expect(compared).toBeGreaterThan(20);
  } finally {
    await withP.close();
  }
});

test('mock rules answer fetch, XHR of every responseType (and a synchronous one) and axios in the page', async ({
  page,
}) => {
  const withP = await pageWith(page, ['network']);
  try {
    const host = withP.host!;
    const { rule } = await host.addMockRule({
      match: { url: { kind: 'contains', value: 'mock=yes' } },
      action: { type: 'respond', status: 203, headers: { 'x-mock': '1' }, body: { type: 'json', json: { m: 'ö' } } },
    });
    const got = await page.evaluate(async () => {
      const xhr = (url: string, type: XMLHttpRequestResponseType) =>
        new Promise<unknown>((resolve) => {
          const x = new XMLHttpRequest();
          x.open('GET', url);
          x.responseType = type;
          x.onloadend = async () => {
            const r = x.response;
            let body: unknown = r;
            if (type === 'json') body = JSON.stringify(r);
            else if (type === 'document') body = r === null ? null : 'document';
            else if (type === 'blob') body = await (r as Blob).text();
            else if (type === 'arraybuffer') body = new TextDecoder().decode(r as ArrayBuffer);
            resolve([x.status, x.getResponseHeader('x-mock'), body]);
          };
          x.send();
        });
      // biome-ignore lint/suspicious/noExplicitAny: the page's axios
      const ax = (window as any).axios;
      const viaAxios = async (adapter: string) => {
        const r = await ax.get(`/f/json?mock=yes&case=axios-${adapter}`, { adapter, responseType: 'text' });
        return [r.status, r.headers['x-mock'], r.data];
      };
      const f = await fetch('/f/json?mock=yes&case=fetch');
      const sync = new XMLHttpRequest();
      sync.open('GET', '/f/json?mock=yes&case=sync', false);
      sync.send();
      return {
        fetch: [f.status, f.headers.get('x-mock'), await f.text()],
        text: await xhr('/f/json?mock=yes&case=xhr-text', 'text'),
        json: await xhr('/f/json?mock=yes&case=xhr-json', 'json'),
        arraybuffer: await xhr('/f/json?mock=yes&case=xhr-arraybuffer', 'arraybuffer'),
        blob: await xhr('/f/json?mock=yes&case=xhr-blob', 'blob'),
        axiosXhr: await viaAxios('xhr'),
        axiosFetch: await viaAxios('fetch'),
        sync: [sync.status, sync.getResponseHeader('x-mock'), sync.responseText],
      };
    });
    const mocked = [203, '1', '{"m":"ö"}'];
    expect(got).toEqual({
      fetch: mocked,
      text: mocked,
      json: mocked,
      arraybuffer: mocked,
      blob: mocked,
      axiosXhr: mocked,
      axiosFetch: mocked,
      sync: mocked,
    });
    const txs = await waitFor(() => {
      const all = host.transactions({ urlContains: 'mock=yes' });
      return all.length === 8 && all.every((t) => t.state !== 'pending') ? all : undefined;
    }, 'eight finished requests');
    for (const tx of txs) {
      expect([tx.request.url, tx.mock?.ruleId, tx.response?.status]).toEqual([tx.request.url, rule.id, 203]);
    }
    expect(host.mockConfig().hits[rule.id]).toBe(8);
  } finally {
    await withP.close();
  }
});
