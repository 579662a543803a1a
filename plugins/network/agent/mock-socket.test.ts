import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { io as socketIo } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { startNetworkDebuggee } from '../host/testing.js';

// Mock rules that answer WebSockets (issue 35): scripted server messages and a close, or a network
// error with its code, for the ws package (socket.io-client on it) and Node's own WebSocket; no
// server is needed, and a socket no rule matches reaches its server as before.

/** A port nothing listens on: a mocked socket never needs one. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const script = {
  type: 'websocket' as const,
  messages: [{ data: '{"price":1}' }, { data: 'AQID', base64: true, delayMs: 30 }, { data: 'last', delayMs: 30 }],
  close: { code: 4000, reason: 'done', delayMs: 30 },
};

describe('mock rules answering WebSockets in Node', () => {
  const defer = cleanupAfterEach();
  const debuggee = async () => {
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    return d;
  };

  it('plays a scripted server to the ws package: open, messages, close; recorded as mocked', async () => {
    const d = await debuggee();
    const { rule } = await d.host.addMockRule({
      name: 'prices',
      match: { url: { kind: 'contains', value: '/prices' } },
      action: script,
    });
    const port = await freePort();
    const ws = new WebSocket(`ws://127.0.0.1:${port}/prices`, ['v1']);
    const got: string[] = [];
    ws.on('message', (data, isBinary) =>
      got.push(isBinary ? `bin:${Buffer.from(data as Buffer).toString('hex')}` : data.toString()),
    );
    ws.on('open', () => ws.send('subscribe'));
    const closed = await new Promise<string>((resolve) =>
      ws.on('close', (code, reason) => resolve(`${code} ${reason}`)),
    );
    expect(got).toEqual(['{"price":1}', 'bin:010203', 'last']);
    expect(closed).toBe('4000 done');
    expect(ws.protocol).toBe('v1');

    const tx = await waitFor(
      () => d.host.transactions({ urlContains: '/prices' }).find((t) => t.state === 'complete'),
      'the mocked socket',
    );
    expect(tx).toMatchObject({
      initiator: 'websocket',
      mock: { ruleId: rule.id },
      response: { status: 101 },
      close: { code: 4000, reason: 'done' },
      messages: { sent: 1, received: 3 },
    });
    expect(d.host.mockConfig().hits[rule.id]).toBe(1);
  });

  it('fails a ws socket with the rule’s error code, and lets others reach their server', async () => {
    const d = await debuggee();
    await d.host.addMockRule({
      match: { url: { kind: 'contains', value: '/down' } },
      action: { type: 'networkError', code: 'ECONNRESET' },
    });
    const port = await freePort();
    const ws = new WebSocket(`ws://127.0.0.1:${port}/down`);
    const error = await new Promise<Error & { code?: string }>((resolve) => ws.on('error', resolve));
    expect(error.code).toBe('ECONNRESET');

    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    defer(() => new Promise<void>((resolve) => wss.close(() => resolve())));
    await new Promise((resolve) => wss.once('listening', resolve));
    wss.on('connection', (s) => s.send('real'));
    const real = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}/up`);
    const first = await new Promise<string>((resolve) => real.on('message', (m) => resolve(m.toString())));
    real.close();
    expect(first).toBe('real');
  });

  it('plays engine.io and socket.io packets to socket.io-client', async () => {
    const d = await debuggee();
    await d.host.addMockRule({
      match: { url: { kind: 'contains', value: '/socket.io/' } },
      action: {
        type: 'websocket',
        messages: [
          { data: '0{"sid":"mock","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}' },
          { data: '40{"sid":"s1"}', delayMs: 10 },
          { data: '42["chat",{"text":"from the mock"}]', delayMs: 10 },
        ],
      },
    });
    const port = await freePort();
    const client = socketIo(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false });
    defer(() => client.close());
    const message = await new Promise((resolve) => client.on('chat', resolve));
    expect(message).toEqual({ text: 'from the mock' });
    expect(client.connected).toBe(true);
  });

  it.runIf(typeof globalThis.WebSocket === 'function')("plays a scripted server to Node's own WebSocket", async () => {
    const d = await debuggee();
    const { rule } = await d.host.addMockRule({
      match: { url: { kind: 'glob', value: 'ws://*/native*' } },
      action: script,
    });
    const ws = new globalThis.WebSocket(`ws://127.0.0.1:${await freePort()}/native`);
    ws.binaryType = 'arraybuffer';
    expect(ws).toBeInstanceOf(globalThis.WebSocket);
    const got: string[] = [];
    ws.onmessage = (e) =>
      got.push(typeof e.data === 'string' ? e.data : `bin:${Buffer.from(e.data as ArrayBuffer).toString('hex')}`);
    ws.addEventListener('open', () => ws.send('hello'));
    const closed = await new Promise<string>((resolve) => {
      ws.onclose = (e) => resolve(`${e.code} ${e.reason} ${e.wasClean}`);
    });
    expect(got).toEqual(['{"price":1}', 'bin:010203', 'last']);
    expect(closed).toBe('4000 done true');
    const tx = await waitFor(
      () => d.host.transactions({ urlContains: '/native' }).find((t) => t.state === 'complete'),
      'it recorded',
    );
    expect(tx).toMatchObject({ mock: { ruleId: rule.id }, messages: { sent: 1, received: 3 } });
  });
});
