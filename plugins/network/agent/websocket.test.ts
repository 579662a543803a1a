import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { startNetworkDebuggee } from '../host/testing.js';
import type { Message, Transaction } from '../protocol.js';

// WebSockets observed in a Node app: the ws package (and socket.io on top of it), Node's own global
// WebSocket where it has one (22+); what the app sends and gets is the same with and without Porthole.

type Debuggee = Awaited<ReturnType<typeof startNetworkDebuggee>>;

/** An echo server: text comes back prefixed, binary reversed; "close" closes with 4001 "asked". */
async function echoServer() {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wss.on('connection', (socket, req) => {
    socket.send(`hello ${new URL(req.url ?? '/', 'http://x').searchParams.get('name') ?? ''}`);
    socket.on('message', (data, isBinary) => {
      if (!isBinary && data.toString() === 'close') return socket.close(4001, 'asked');
      if (isBinary) socket.send(Buffer.from(data as Buffer).reverse(), { binary: true });
      else socket.send(`echo:${data}`);
    });
  });
  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  };
}

/** A conversation over the ws package: what the app got, in order, and how it closed. */
async function converse(url: string) {
  const ws = new WebSocket(`${url}/chat?name=app`, ['chat.v1']);
  const got: string[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  ws.on('message', (data, isBinary) => {
    got.push(isBinary ? `bin:${Buffer.from(data as Buffer).toString('hex')}` : data.toString());
    if (got.length === 1) {
      ws.send('one');
      ws.send(Buffer.from([1, 2, 3]));
      ws.send(JSON.stringify({ type: 'chat', text: 'héllo' }));
    }
    if (got.length === 4) ws.send('close');
  });
  return { got, close: await closed, protocol: ws.protocol };
}

describe('WebSockets in a Node app', () => {
  const defer = cleanupAfterEach();
  const debuggee = async (options?: Parameters<typeof startNetworkDebuggee>[0]) => {
    const d = await startNetworkDebuggee(options);
    defer(() => d.stop());
    return d;
  };
  const server = async () => {
    const s = await echoServer();
    defer(() => s.close());
    return s;
  };
  const socketOf = (d: Debuggee, part: string) =>
    waitFor(
      () =>
        d.host.transactions({ urlContains: part }).find((tx) => tx.initiator === 'websocket' && tx.state !== 'pending'),
      `a closed WebSocket for ${part}`,
    );
  const messages = (d: Debuggee, tx: Transaction): Message[] =>
    d.host.listMessages({ transactionId: tx.id, limit: 1000 }).messages;

  it('records a ws socket: handshake, messages both ways, close code and reason; the app sees the same', async () => {
    const s = await server();
    const plain = await converse(s.url);
    const d = await debuggee();
    const captured = await converse(s.url);
    expect(captured).toEqual(plain);
    expect(captured.got).toEqual(['hello app', 'echo:one', 'bin:030201', 'echo:{"type":"chat","text":"héllo"}']);

    const tx = await socketOf(d, '/chat');
    expect(tx).toMatchObject({
      state: 'complete',
      initiator: 'websocket',
      request: { method: 'GET', url: `${s.url}/chat?name=app` },
      response: { status: 101 },
      close: { code: 4001, reason: 'asked', wasClean: true },
      messages: { sent: 4, received: 4, dropped: 0 },
    });
    const header = (list: { name: string; value: string }[] | undefined, name: string) =>
      list?.find((h) => h.name === name)?.value;
    expect(header(tx.request.headers, 'upgrade')).toBe('websocket');
    expect(header(tx.request.headers, 'sec-websocket-protocol')).toBe('chat.v1');
    expect(header(tx.response?.headers, 'sec-websocket-protocol')).toBe('chat.v1');
    expect(tx.timing.durationMs).toBeGreaterThan(0);
    const list = messages(d, tx);
    expect(list.map((m) => [m.direction, m.opcode, m.encoding, m.data, m.size])).toEqual([
      ['received', 1, 'text', 'hello app', 9],
      ['sent', 1, 'text', 'one', 3],
      ['sent', 2, 'base64', 'AQID', 3],
      ['sent', 1, 'text', '{"type":"chat","text":"héllo"}', 31],
      ['received', 1, 'text', 'echo:one', 8],
      ['received', 2, 'base64', 'AwIB', 3],
      ['received', 1, 'text', 'echo:{"type":"chat","text":"héllo"}', 36],
      ['sent', 1, 'text', 'close', 5],
    ]);
    expect(list.map((m) => m.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const m of list) expect(m.time).toBeGreaterThanOrEqual(tx.timing.startedAt);
  });

  it('never records the inspector link itself', async () => {
    const d = await debuggee();
    const s = await server();
    await converse(s.url);
    await socketOf(d, '/chat');
    expect(d.host.transactions().filter((tx) => tx.initiator === 'websocket')).toHaveLength(1);
    expect(
      d.host.transactions().some((tx) => tx.request.url.includes(d.t.urls.debuggeeUrl.replace(/^ws:\/\//, ''))),
    ).toBe(false);
  });
});
