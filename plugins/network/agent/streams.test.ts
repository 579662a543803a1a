import { request } from 'node:http';
import { constants, createGzip } from 'node:zlib';
import { EventSource } from 'eventsource';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { httpServer, startNetworkDebuggee } from '../host/testing.js';

// Streams seen while they are open (issue 35): an event stream's events as they arrive, over fetch,
// http and the eventsource package, gzip included; any other body that stays open shows its bytes;
// the app reads the same with and without Porthole.

type Debuggee = Awaited<ReturnType<typeof startNetworkDebuggee>>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An event stream that sends `count` events 50 ms apart and then stays open (until the client goes). */
async function eventServer() {
  return httpServer((req, res) => {
    const gzip = req.url?.includes('gzip');
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    const out = gzip ? createGzip({ flush: constants.Z_SYNC_FLUSH }) : undefined;
    out?.pipe(res);
    const write = (text: string) => (out ? out.write(text) : res.write(text));
    write(': a comment\n\n');
    let n = 0;
    const timer = setInterval(() => {
      n++;
      if (n === 1) write('data: first\n\n');
      else if (n === 2) write('event: price\nid: 7\ndata: {"sku":"a",\ndata: "eur":5}\n\n');
      else if (n === 3) write('data: third, split');
      else if (n === 4) write(' across writes\r\n\r\n');
      else clearInterval(timer);
    }, 50);
    res.on('close', () => clearInterval(timer));
  });
}

describe('open streams in a Node app', () => {
  const defer = cleanupAfterEach();
  const debuggee = async () => {
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    return d;
  };
  const serve = async <T extends { close(): Promise<void> }>(made: Promise<T>) => {
    const s = await made;
    defer(() => s.close());
    return s;
  };
  const events = (d: Debuggee, part: string, n: number) =>
    waitFor(() => {
      const tx = d.host.transactions({ urlContains: part })[0];
      if (!tx || tx.state !== 'pending') return undefined;
      const list = d.host.listMessages({ transactionId: tx.id }).messages;
      return list.length >= n ? { tx, list } : undefined;
    }, `${n} events of ${part} while it is open`);

  /** Reads an event stream with fetch until `n` events came; what the app read. */
  const readWithFetch = async (url: string, n: number) => {
    const controller = new AbortController();
    const response = await fetch(url, { signal: controller.signal });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while ((text.match(/\r?\n\r?\n/g) ?? []).length < n + 1) text += (await reader.read()).value;
    return { text, stop: () => controller.abort() };
  };

  it('shows an event stream read with fetch event by event while it is open; the app reads the same', async () => {
    const s = await serve(eventServer());
    const plain = await readWithFetch(`${s.url}/plain`, 3);
    plain.stop();
    const d = await debuggee();
    const app = await readWithFetch(`${s.url}/events`, 3);
    expect(app.text).toBe(plain.text);
    const { tx, list } = await events(d, '/events', 3);
    expect(tx.response?.status).toBe(200);
    expect(
      list.map(({ direction, event, eventId, data, opcode }) => ({ direction, event, eventId, data, opcode })),
    ).toEqual([
      { direction: 'received', event: undefined, eventId: undefined, data: 'first', opcode: undefined },
      { direction: 'received', event: 'price', eventId: '7', data: '{"sku":"a",\n"eur":5}', opcode: undefined },
      { direction: 'received', event: undefined, eventId: '7', data: 'third, split across writes', opcode: undefined },
    ]);
    expect(list.every((m) => m.time >= tx.timing.startedAt)).toBe(true);
    // The body so far is shown too, while the transaction is still open.
    expect(d.host.get(tx.id)?.response?.body?.data).toContain('data: first');
    expect(d.host.get(tx.id)?.state).toBe('pending');
    expect(d.host.list({ limit: 5 }).transactions[0]?.messages).toBe(3);
    app.stop();
    await waitFor(() => d.host.get(tx.id)?.state === 'failed' || undefined, 'the aborted stream to end');
  });

  it('decodes a gzip event stream over http as it comes', async () => {
    const s = await serve(eventServer());
    const d = await debuggee();
    const req = request(`${s.url}/gzip`, (res) => res.resume());
    req.end();
    defer(() => req.destroy());
    const { list } = await events(d, '/gzip', 3);
    expect(list.map((m) => m.data)).toEqual(['first', '{"sku":"a",\n"eur":5}', 'third, split across writes']);
  });

  it('reads the events the eventsource package gets', async () => {
    const s = await serve(eventServer());
    const d = await debuggee();
    const got: string[] = [];
    const source = new EventSource(`${s.url}/es`);
    defer(() => source.close());
    source.onmessage = (e) => got.push(e.data);
    source.addEventListener('price', (e) => got.push(`price:${e.data}`));
    const { list } = await events(d, '/es', 3);
    await waitFor(() => got.length >= 3 || undefined, 'the app to get three events');
    expect(list.map((m) => (m.event ? `${m.event}:${m.data}` : m.data))).toEqual(got.slice(0, 3));
  });

  it('shows the bytes of any body that stays open, before it ends', async () => {
    const s = await serve(
      httpServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        res.write('token one ');
        const timer = setTimeout(() => res.write('token twö '), 1300);
        res.on('close', () => clearTimeout(timer));
      }),
    );
    const d = await debuggee();
    const response = await fetch(`${s.url}/chat`);
    const reader = response.body!.getReader();
    void reader.read();
    const tx = await waitFor(() => {
      const found = d.host.transactions({ urlContains: '/chat' })[0];
      return found?.state === 'pending' && found.response?.body?.data.includes('twö') ? found : undefined;
    }, 'the open body to show both tokens');
    expect(tx.response?.body).toMatchObject({ encoding: 'text', data: 'token one token twö ', truncated: false });
    await reader.cancel();
    await sleep(10);
  });
});
