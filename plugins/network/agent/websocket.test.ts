import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as SocketIoServer } from 'socket.io';
import { io as socketIo } from 'socket.io-client';
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

    // HAR: Chrome's _webSocketMessages out, and in again as a connection with its messages.
    const har = await d.mcp.call('network_export_har', { urlContains: '/chat' });
    const entry = (har.structuredContent as { log: { entries: Record<string, unknown>[] } }).log.entries[0]!;
    expect(entry._resourceType).toBe('websocket');
    expect((entry._webSocketMessages as { type: string; data: string }[]).map((m) => `${m.type} ${m.data}`)).toEqual(
      list.map((m) => `${m.direction === 'sent' ? 'send' : 'receive'} ${m.data}`),
    );
    d.host.importHar(har.structuredContent, 'chat.har');
    const imported = d.host.transactions().find((t) => t.imported);
    expect(imported).toMatchObject({
      initiator: 'websocket',
      close: { code: 4001 },
      messages: { sent: 4, received: 4 },
    });
    expect(messages(d, imported!).map((m) => m.data)).toEqual(list.map((m) => m.data));
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

  it('decodes socket.io framing; the app gets the same events with and without Porthole', async () => {
    const http = createServer();
    const server = new SocketIoServer(http, { transports: ['websocket'] });
    server.on('connection', (socket) => {
      socket.on('chat', (text: string, ack: (n: number) => void) => {
        socket.emit('chat', { from: 'server', text: text.toUpperCase() });
        ack(text.length);
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
    defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const chat = async () => {
      const client = socketIo(url, { transports: ['websocket'], forceNew: true });
      const got: unknown[] = [];
      const echoed = new Promise((resolve) => client.on('chat', (m) => resolve(got.push(m))));
      const acked = await client.emitWithAck('chat', 'hi there');
      await echoed;
      client.close();
      return { got, acked };
    };
    const plain = await chat();
    const d = await debuggee();
    expect(await chat()).toEqual(plain);

    const tx = await socketOf(d, '/socket.io/');
    const answer = await d.mcp.call('network_list_messages', { transactionId: tx.id, limit: 50 });
    const frames = (answer.structuredContent as { messages: { direction: string; data: string; socketio?: unknown }[] })
      .messages;
    const chatFrames = frames.filter((m) => (m.socketio as { socket?: string } | undefined)?.socket);
    expect(chatFrames.map((m) => [m.direction, m.socketio])).toEqual([
      ['sent', { engine: 'message', socket: 'CONNECT' }],
      ['received', expect.objectContaining({ engine: 'message', socket: 'CONNECT' })],
      ['sent', { engine: 'message', socket: 'EVENT', ack: 0, event: 'chat', data: ['hi there'] }],
      ['received', { engine: 'message', socket: 'EVENT', event: 'chat', data: [{ from: 'server', text: 'HI THERE' }] }],
      ['received', { engine: 'message', socket: 'ACK', ack: 0, data: [8] }],
      ['sent', { engine: 'message', socket: 'DISCONNECT' }],
    ]);
    expect(frames[0]).toMatchObject({ direction: 'received', socketio: { engine: 'open' } });
  });

  it('lists messages over MCP with filters and pages; injects one into the open socket when allowed', async () => {
    const s = await server();
    const d = await debuggee();
    const ws = new WebSocket(`${s.url}/live?name=x`);
    const got: string[] = [];
    ws.on('message', (data, isBinary) => got.push(isBinary ? 'binary' : data.toString()));
    await new Promise((resolve) => ws.once('open', resolve));
    for (let i = 0; i < 5; i++) ws.send(`ping ${i}`);
    await waitFor(() => got.length === 6 || undefined, 'six answers');
    defer(() => ws.terminate());
    const tx = await waitFor(
      () => d.host.transactions({ urlContains: '/live' }).find((t) => (t.messages?.received ?? 0) === 6),
      'the open socket with its messages',
    );
    expect(tx.state).toBe('pending');

    const page = async (args: Record<string, unknown>) => {
      const answer = await d.mcp.call('network_list_messages', { transactionId: tx.id, ...args });
      expect(answer.isError, answer.text).toBe(false);
      return answer.structuredContent as {
        messages: { n: number; data: string }[];
        nextCursor?: string;
        next?: string;
        total: number;
      };
    };
    const first = await page({ direction: 'received', limit: 4 });
    expect(first.total).toBe(6);
    expect(first.messages.map((m) => m.data)).toEqual(['hello x', 'echo:ping 0', 'echo:ping 1', 'echo:ping 2']);
    expect(first.next).toMatch(/^2 more: call again with cursor "m:\d+"/);
    const rest = await page({ direction: 'received', limit: 4, cursor: first.nextCursor });
    expect(rest.messages.map((m) => m.data)).toEqual(['echo:ping 3', 'echo:ping 4']);
    expect((await page({ text: 'PING 3' })).messages.map((m) => m.data)).toEqual(['ping 3', 'echo:ping 3']);
    const bad = await d.mcp.call('network_list_messages', { transactionId: 'nope' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/there is no transaction "nope".*network_list_transactions/);

    // Injecting asks the person at the window first: declined, nothing reaches the app.
    const ask = async (answer: 'deny' | 'allow-once', data: string) => {
      const call = d.mcp.call('network_inject_message', { transactionId: tx.id, data });
      const asked = await waitFor(() => d.t.core.permissions.asks()[0], 'the question in the window');
      expect(asked).toMatchObject({ tool: 'network_inject_message' });
      expect(asked.change).toContain(`Hands the app's open WebSocket ${tx.id} a message`);
      d.t.core.permissions.answer(asked.id, answer);
      return call;
    };
    const declined = await ask('deny', '{"type":"price","eur":0}');
    expect(declined.isError).toBe(true);
    expect(got).toHaveLength(6);
    // Allowed, the app's socket gets it as if the server had sent it.
    const done = await ask('allow-once', '{"type":"price","eur":1}');
    expect(done.isError, done.text).toBe(false);
    expect(done.structuredContent).toEqual({ summary: expect.any(String), delivered: true });
    expect(got.at(-1)).toBe('{"type":"price","eur":1}');
    await d.window.run('network_inject_message', { transactionId: tx.id, data: 'AQID', base64: true });
    expect(got.at(-1)).toBe('binary');
    await waitFor(() => (d.host.get(tx.id)?.messages?.received ?? 0) === 8 || undefined, 'the injected ones recorded');

    ws.close(1000, 'bye');
    await waitFor(() => d.host.get(tx.id)?.state === 'complete' || undefined, 'the close');
    const closed = await d.window.run('network_inject_message', { transactionId: tx.id, data: 'late' });
    expect(closed.isError).toBe(true);
    expect(closed.text).toMatch(/is not open \(complete, closed 1000\)/);
  });

  it('keeps at most 10,000 messages per connection and says how many went', async () => {
    const s = await server();
    const d = await debuggee();
    const ws = new WebSocket(`${s.url}/flood`);
    let got = 0;
    ws.on('message', () => got++);
    await new Promise((resolve) => ws.once('open', resolve));
    for (let i = 0; i < 6000; i++) ws.send(`m${i}`);
    await waitFor(() => got === 6001 || undefined, 'every echo', 20_000);
    ws.close();
    const tx = await socketOf(d, '/flood');
    expect(tx.messages).toEqual({ sent: 6000, received: 6001, dropped: 2001 });
    const page = d.host.listMessages({ transactionId: tx.id, limit: 1 });
    expect(page).toMatchObject({ total: 10_000, dropped: 2001 });
    expect(page.messages[0]?.n).toBe(2001);
  });

  // Node 22+ (e2e/network-node22.spec.ts runs this file there): the global WebSocket, undici's.
  it.runIf(typeof globalThis.WebSocket === 'function')(
    "records Node's own WebSocket with its handshake headers; the app gets the same",
    async () => {
      const s = await server();
      const talk = async () => {
        const ws = new globalThis.WebSocket(`${s.url}/native?name=node`, 'chat.v1');
        ws.binaryType = 'arraybuffer';
        const got: string[] = [];
        const closed = new Promise<string>((resolve) => {
          ws.onclose = (e) => resolve(`${e.code} ${e.reason} ${e.wasClean}`);
        });
        ws.onmessage = (e) => {
          got.push(typeof e.data === 'string' ? e.data : `bin:${Buffer.from(e.data as ArrayBuffer).toString('hex')}`);
          if (got.length === 1) {
            ws.send('one');
            ws.send(new Uint8Array([1, 2, 3]));
          }
          if (got.length === 3) ws.send('close');
        };
        return { got, closed: await closed, isWebSocket: ws instanceof globalThis.WebSocket };
      };
      const plain = await talk();
      const d = await debuggee();
      expect(await talk()).toEqual(plain);
      expect(plain).toEqual({
        got: ['hello node', 'echo:one', 'bin:030201'],
        closed: '4001 asked true',
        isWebSocket: true,
      });
      const tx = await socketOf(d, '/native');
      expect(tx).toMatchObject({
        initiator: 'websocket',
        state: 'complete',
        request: { url: `${s.url}/native?name=node` },
        response: { status: 101, httpVersion: '1.1' },
        close: { code: 4001, reason: 'asked', wasClean: true },
        messages: { sent: 3, received: 3, dropped: 0 },
      });
      const header = (list: { name: string; value: string }[] | undefined, name: string) =>
        list?.find((h) => h.name === name)?.value;
      expect(header(tx.request.headers, 'sec-websocket-key')).toMatch(/==$/);
      expect(header(tx.response?.headers, 'sec-websocket-accept')).toMatch(/=$/);
      expect(header(tx.response?.headers, 'sec-websocket-protocol')).toBe('chat.v1');
      expect(messages(d, tx).map((m) => [m.direction, m.data])).toEqual([
        ['received', 'hello node'],
        ['sent', 'one'],
        ['sent', 'AQID'],
        ['received', 'echo:one'],
        ['received', 'AwIB'],
        ['sent', 'close'],
      ]);
    },
  );
});
