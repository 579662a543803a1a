import type { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CloseCode, Limits } from '../../../shared/protocol/limits.js';
import { cleanupAfterEach } from '../test-cleanup.js';
import { helloFrame, RawPeer, startTestCore, waitFor } from '../testing.js';

type TestCore = Awaited<ReturnType<typeof startTestCore>>;

describe('debuggee link', () => {
  let t: TestCore;
  const peers: RawPeer[] = [];
  const open = async (headers?: Record<string, string>) => {
    const peer = await RawPeer.open(t.urls.debuggeeUrl, headers);
    peers.push(peer);
    return peer;
  };
  const handshake = async () => {
    const peer = await open();
    peer.send(helloFrame());
    const welcome = await peer.next((f) => f.type === 'welcome');
    return { peer, welcome };
  };

  beforeEach(async () => {
    t = await startTestCore({ link: { handshakeTimeoutMs: 300, maxFrameBytes: 64 * 1024 } });
  });
  afterEach(async () => {
    for (const peer of peers.splice(0)) peer.close();
    await t.stop();
  });

  it('welcomes a valid hello with a session id, a resume secret and the accepted plugins', async () => {
    const { welcome } = await handshake();
    expect(welcome).toMatchObject({
      type: 'welcome',
      protocolVersion: 1,
      resumed: false,
      plugins: { accepted: [{ id: 'example', version: '1.0.0' }], incompatible: [] },
      maxFrameBytes: 64 * 1024,
    });
    expect(welcome.sessionId).toEqual(expect.any(String));
    expect(welcome.resumeSecret).toEqual(expect.any(String));
    expect(t.core.sessions.list()).toHaveLength(1);
  });

  it('lists unknown and major-mismatched plugins as incompatible, with reasons', async () => {
    const peer = await open();
    peer.send(
      helloFrame({
        plugins: [
          { id: 'example', version: '2.0.0' },
          { id: 'nope', version: '1.0.0' },
        ],
      }),
    );
    const welcome = await peer.next((f) => f.type === 'welcome');
    expect(welcome.plugins).toEqual({
      accepted: [],
      incompatible: [
        expect.objectContaining({ id: 'example', reason: expect.stringContaining('major versions must match') }),
        expect.objectContaining({ id: 'nope', reason: expect.stringContaining('no "nope" plugin') }),
      ],
    });
  });

  it('rejects a wrong protocol version with the supported versions, then closes', async () => {
    const peer = await open();
    peer.send(helloFrame({ protocolVersion: 99 }));
    const reject = await peer.next((f) => f.type === 'reject');
    expect(reject).toMatchObject({ reason: 'unsupported-version', supportedVersions: [1] });
    expect((await peer.waitClosed()).code).toBe(CloseCode.rejected);
  });

  it('rejects a first frame that is not a hello', async () => {
    const peer = await open();
    peer.send({ type: 'heartbeat', t: 1 });
    expect(await peer.next((f) => f.type === 'reject')).toMatchObject({ reason: 'invalid-hello' });
    expect((await peer.waitClosed()).code).toBe(CloseCode.rejected);
  });

  it('closes a connection that never says hello (handshake timeout)', async () => {
    const peer = await open();
    expect((await peer.waitClosed()).code).toBe(CloseCode.handshakeTimeout);
    expect(t.core.sessions.list()).toHaveLength(0);
  });

  it('answers non-JSON and unknown types with protocol errors and keeps the session', async () => {
    const { peer } = await handshake();
    peer.send('this is not json');
    expect(await peer.next((f) => f.type === 'protocol-error')).toMatchObject({ code: 'malformed-json' });
    peer.send(JSON.stringify({ type: 'teleport', id: 'x1' }));
    expect(await peer.next((f) => f.type === 'protocol-error')).toMatchObject({ code: 'unknown-type', id: 'x1' });
    peer.send(JSON.stringify({ type: 'request', id: 'r1', plugin: 'example' }));
    expect(await peer.next((f) => f.type === 'protocol-error')).toMatchObject({ code: 'invalid-message', id: 'r1' });
    expect(peer.closed).toBeUndefined();
    expect(t.core.sessions.list()[0]).toMatchObject({ active: true, protocolErrors: 3 });
  });

  it('answers a reply to an unknown correlation id with a protocol error', async () => {
    const { peer } = await handshake();
    peer.send({ type: 'reply-ok', id: 'never-sent', result: 1 });
    expect(await peer.next((f) => f.type === 'protocol-error')).toMatchObject({
      code: 'unknown-correlation-id',
      id: 'never-sent',
    });
    expect(peer.closed).toBeUndefined();
  });

  it('answers a notification with invalid params with a protocol error', async () => {
    const { peer } = await handshake();
    peer.send({ type: 'notification', plugin: 'example', method: 'log', params: { level: 'loud' } });
    const error = await peer.next((f) => f.type === 'protocol-error');
    expect(error).toMatchObject({ code: 'invalid-message' });
    expect(error.message).toContain('level');
  });

  it('takes a batch of notifications in order, says so in its welcome, and refuses a batch holding anything else', async () => {
    const { peer, welcome } = await handshake();
    expect(welcome.batches).toBe(true);
    const log = (message: string) => ({
      type: 'notification' as const,
      plugin: 'example',
      method: 'log',
      params: { level: 'info', message, time: 1 },
    });
    peer.send({ type: 'batch', frames: [log('a'), log('b'), log('c')] });
    peer.send(log('d')); // single frames still work
    const sessionId = welcome.sessionId as string;
    const host = t.core.plugins.instance(sessionId, 'example') as unknown as { log(): { message: string }[] };
    await waitFor(() => host.log().length === 4, 'the four log entries');
    expect(host.log().map((e) => e.message)).toEqual(['a', 'b', 'c', 'd']);

    peer.send(JSON.stringify({ type: 'batch', frames: [log('e'), { type: 'request', id: 'r1', plugin: 'example' }] }));
    expect(await peer.next((f) => f.type === 'protocol-error')).toMatchObject({ code: 'invalid-message' });
    peer.send({ type: 'batch', frames: [] });
    expect(await peer.next((f) => f.type === 'protocol-error')).toMatchObject({ code: 'invalid-message' });
    expect(host.log()).toHaveLength(4);
  });

  it('closes with 1009 on a frame over the size limit, and other sessions keep working', async () => {
    const { peer: bystander, welcome } = await handshake();
    const { peer } = await handshake();
    peer.send(JSON.stringify({ type: 'heartbeat', t: 1, pad: 'x'.repeat(70 * 1024) }));
    expect((await peer.waitClosed()).code).toBe(CloseCode.frameTooLarge);

    const host = t.core.plugins.instance(welcome.sessionId as string, 'example') as unknown as {
      echo(text: string): Promise<string>;
    };
    const echoed = host.echo('still here');
    const request = await bystander.next((f) => f.type === 'request');
    bystander.send({ type: 'reply-ok', id: request.id as string, result: { text: 'still here' } });
    expect(await echoed).toBe('still here');
  });

  it('refuses a browser connection from a foreign Origin before the upgrade', async () => {
    await expect(open({ origin: 'http://evil.example' })).rejects.toMatchObject({ status: 403 });
    const local = await open({ origin: 'http://localhost:5173' });
    local.send(helloFrame());
    await local.next((f) => f.type === 'welcome');
  });

  it('counts a request to the host that no handler takes as a no-handler reply', async () => {
    const { peer } = await handshake();
    peer.send({ type: 'request', id: 'q1', plugin: 'example', method: 'whatever' });
    expect(await peer.next((f) => f.type === 'reply-error')).toMatchObject({ id: 'q1', error: { code: 'no-handler' } });
    peer.send({ type: 'request', id: 'q2', plugin: 'nope', method: 'x' });
    expect(await peer.next((f) => f.type === 'reply-error')).toMatchObject({
      id: 'q2',
      error: { code: 'plugin-not-active' },
    });
  });

  it('keeps a disconnected session listed as inactive', async () => {
    const { peer } = await handshake();
    peer.close();
    await waitFor(() => t.core.sessions.list()[0]?.active === false, 'the session to go inactive');
    expect(t.core.sessions.list()[0]?.disconnectedAt).toEqual(expect.any(Number));
  });

  it('rejects a binary first frame with invalid-hello and closes 4001', async () => {
    const peer = await open();
    peer.ws.send(Buffer.from(JSON.stringify(helloFrame())));
    expect(await peer.next((f) => f.type === 'reject')).toMatchObject({
      reason: 'invalid-hello',
      message: expect.stringContaining('not binary'),
    });
    expect((await peer.waitClosed()).code).toBe(CloseCode.rejected);
    expect(t.core.sessions.list()).toHaveLength(0);
  });

  it('rejects a deeply nested first frame, answers it on a session, and never echoes it back', async () => {
    const deep = `${'['.repeat(8000)}${']'.repeat(8000)}`;
    const first = await open();
    first.send(`{"type":${deep},"pairingToken":"x"}`);
    const reject = await first.next((f) => f.type === 'reject');
    expect(reject).toMatchObject({ reason: 'invalid-hello', message: expect.stringContaining('deeper than 64') });
    expect(JSON.stringify(reject).length).toBeLessThan(1000);
    expect((await first.waitClosed()).code).toBe(CloseCode.rejected);

    const { peer } = await handshake();
    peer.send(`{"type":"notification","plugin":"example","method":"log","params":{"data":${deep}}}`);
    const error = await peer.next((f) => f.type === 'protocol-error');
    expect(error).toMatchObject({ code: 'invalid-message', message: expect.stringContaining('deeper than 64') });
    expect(peer.closed).toBeUndefined();
  });

  it('answers nothing that was already on the wire once it rejected (no crash on a closing socket)', async () => {
    const peer = await open();
    // Three frames in one go: the first is rejected, the others arrive while the socket is closing.
    peer.send('not a hello');
    peer.send(helloFrame());
    peer.send('still not a hello');
    expect((await peer.waitClosed()).code).toBe(CloseCode.rejected);
    expect(peer.received.filter((f) => (f as { type?: string }).type === 'reject')).toHaveLength(1);
    expect(peer.received.filter((f) => (f as { type?: string }).type === 'welcome')).toHaveLength(0);
    expect(t.core.sessions.list()).toHaveLength(0);
  });

  it('closes with 4004 at the 50th protocol error, not before', async () => {
    const { peer } = await handshake();
    for (let i = 1; i < Limits.maxProtocolErrors; i++) peer.send(`garbage ${i}`);
    await waitFor(() => peer.received.length === Limits.maxProtocolErrors - 1, '49 protocol errors');
    expect(peer.closed).toBeUndefined();
    peer.send('the fiftieth');
    expect((await peer.waitClosed()).code).toBe(CloseCode.tooManyProtocolErrors);
  });
});

describe('a debuggee that stops answering, or says too much', () => {
  const defer = cleanupAfterEach();

  it('rejects a hello over the hello size limit before parsing it', async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    const peer = await RawPeer.open(t.urls.debuggeeUrl);
    defer(() => peer.close());
    peer.send(JSON.stringify({ ...helloFrame(), pad: 'x'.repeat(Limits.maxHelloBytes) }));
    const reject = await peer.next((f) => f.type === 'reject');
    expect(reject).toMatchObject({ reason: 'invalid-hello', message: expect.stringContaining('hellos are limited') });
    expect((await peer.waitClosed()).code).toBe(CloseCode.rejected);
  });

  it('is terminated and listed as disconnected within 3 heartbeat intervals, not after a closing handshake', async () => {
    const heartbeatIntervalMs = 300;
    const t = await startTestCore({ link: { heartbeatIntervalMs } });
    defer(() => t.stop());
    const disconnected: { at: number; code: number }[] = [];
    t.core.bus.on('session:disconnected', ({ code }) => disconnected.push({ at: Date.now(), code }));
    const peer = await RawPeer.open(t.urls.debuggeeUrl);
    defer(() => peer.ws.terminate());
    peer.send(helloFrame());
    await peer.next((f) => f.type === 'welcome');
    // The app hangs: its socket is not read any more, so pings go unanswered and nothing is sent.
    const hungAt = Date.now();
    (peer.ws as unknown as { _socket: Socket })._socket.pause();

    await waitFor(() => disconnected.length > 0, 'the session to be disconnected', 5000);
    const after = disconnected[0]!.at - hungAt;
    const silence = heartbeatIntervalMs * Limits.heartbeatMissesAllowed;
    expect(disconnected[0]!.code).toBe(CloseCode.heartbeatTimeout);
    expect(after).toBeGreaterThanOrEqual(silence - 50);
    // One interval of slack for a loaded machine; a closing handshake with a hung peer takes 30 s.
    expect(after).toBeLessThan(silence + heartbeatIntervalMs);
    expect(t.core.sessions.list()[0]).toMatchObject({ active: false });
    // The connection is really gone: once the app reads again it finds the socket closed.
    (peer.ws as unknown as { _socket: Socket })._socket.resume();
    await peer.waitClosed();
  });

  it('is kept while it answers protocol pings, even if it sends no frames (a throttled background tab)', async () => {
    const heartbeatIntervalMs = 100;
    const t = await startTestCore({ link: { heartbeatIntervalMs } });
    defer(() => t.stop());
    const peer = await RawPeer.open(t.urls.debuggeeUrl);
    defer(() => peer.close());
    peer.send(helloFrame());
    await peer.next((f) => f.type === 'welcome');
    await new Promise((r) => setTimeout(r, heartbeatIntervalMs * Limits.heartbeatMissesAllowed * 3));
    expect(peer.closed).toBeUndefined();
    expect(t.core.sessions.list()[0]).toMatchObject({ active: true });
  });
});

describe('an app that never reads its socket', () => {
  const defer = cleanupAfterEach();

  it('is cut off with 4005 once 16 MiB wait unsent, counted, and its session goes inactive', async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    const disconnected: { code: number; reason: string }[] = [];
    t.core.bus.on('session:disconnected', (e) => disconnected.push(e));
    const peer = await RawPeer.open(t.urls.debuggeeUrl);
    defer(() => peer.ws.terminate());
    peer.send(helloFrame());
    const welcome = await peer.next((f) => f.type === 'welcome');
    // The app stops reading but keeps writing (its heartbeats go out): only the backlog can tell.
    (peer.ws as unknown as { _socket: Socket })._socket.pause();
    const host = t.core.plugins.instance(welcome.sessionId as string, 'example') as unknown as {
      echo(text: string): Promise<string>;
    };
    const text = 'x'.repeat(1024 * 1024);
    const answers: Promise<unknown>[] = [];
    // Bounded: 64 MiB at most, four times the cap plus what the kernel's buffers take.
    for (let i = 0; i < 64 && disconnected.length === 0; i++) {
      peer.send({ type: 'heartbeat', t: Date.now() });
      answers.push(host.echo(text).catch((e: Error) => e));
      await new Promise((r) => setTimeout(r, 5));
    }
    await waitFor(() => disconnected.length > 0, 'the session to be cut off', 5000);
    expect(disconnected[0]).toMatchObject({
      code: CloseCode.notReading,
      reason: expect.stringContaining('did not read'),
    });
    expect(t.core.link.stats.notReading).toBe(1);
    expect(t.core.sessions.list()[0]).toMatchObject({ active: false });
    // Every request waiting on it fails at once with a reason, none hangs until its timeout.
    const settled = await Promise.all(answers);
    expect(settled.every((a) => a instanceof Error)).toBe(true);
    expect(String(settled.at(-1))).toMatch(/did not read|disconnected|closed/);
  });
});
