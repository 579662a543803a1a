import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../electron/host/test-cleanup.js';
import { startTestCore, waitFor } from '../electron/host/testing.js';
import { example } from '../plugins/example/agent/index.js';
import type { ExampleHost } from '../plugins/example/host/index.js';
import { exampleProtocol } from '../plugins/example/protocol.js';
import { decodeBinaryFrame } from '../shared/protocol/binary-frame.js';
import { Limits } from '../shared/protocol/limits.js';
import { RequestError } from '../shared/protocol/messenger.js';
import { type Agent, connect } from './connection.js';
import { backoffDelay } from './link.js';
import { type AgentPluginContext, defineAgentPlugin } from './plugin.js';
import { startFakeInspector } from './testing.js';

const app = { id: 'com.test.agent', name: 'Agent Test' };
const fastReconnect = { initialDelayMs: 20, maxDelayMs: 100 };

describe('agent ↔ inspector', () => {
  const defer = cleanupAfterEach();
  const core = async (options?: Parameters<typeof startTestCore>[0]) => {
    const t = await startTestCore(options);
    defer(() => t.stop());
    return t;
  };
  const agent = (options: Parameters<typeof connect>[0]) => {
    const a = connect(options);
    defer(() => a.disconnect());
    return a;
  };
  const connected = (a: Agent) =>
    waitFor(() => a.status.state === 'connected' && a.status.sessionId, 'the agent to connect');
  const exampleHost = (t: Awaited<ReturnType<typeof core>>, sessionId: string) =>
    t.core.plugins.instance(sessionId, 'example') as ExampleHost;

  it('gives up a connection that neither opens nor fails, and tries again', async () => {
    // An inspector gone half-way: it takes the TCP connection and never answers the upgrade.
    const held: Socket[] = [];
    const server = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    defer(() => {
      for (const socket of held) socket.destroy();
      server.close();
    });
    const { port } = server.address() as { port: number };
    const a = agent({ url: `ws://127.0.0.1:${port}`, app, plugins: [example()], reconnect: fastReconnect });
    await waitFor(() => held.length === 2, 'a second attempt', Limits.handshakeTimeoutMs * 2 + 3000);
    expect(a.status).toMatchObject({ state: 'connecting' });
    expect(a.status.error).toBe(`no answer from the inspector within ${(Limits.handshakeTimeoutMs * 2) / 1000} s`);
  }, 20_000);

  it('connects, is welcomed, and answers a ping round trip', async () => {
    const t = await core();
    const a = agent({ url: t.urls.debuggeeUrl, app, plugins: [example()] });
    const sessionId = await connected(a);
    const session = t.core.sessions.get(sessionId)!.info;
    expect(session).toMatchObject({ active: true, app, security: 'loopback' });
    expect(session.device.platform).toBe('node');

    const before = Date.now();
    const pong = await exampleHost(t, sessionId).ping();
    expect(pong.agentTime).toBeGreaterThanOrEqual(before);
    expect(pong.roundTripMs).toBeGreaterThanOrEqual(0);
  });

  it('delivers a notification with bytes attached through the real inspector, as the text they stand for', async () => {
    const t = await core();
    let ctx: AgentPluginContext<typeof exampleProtocol> | undefined;
    const plugin = defineAgentPlugin(exampleProtocol, (c) => {
      ctx = c;
    });
    const a = agent({ url: t.urls.debuggeeUrl, app, plugins: [plugin] });
    const sessionId = await connected(a);
    const bytes = new TextEncoder().encode('café '.repeat(1500));
    ctx!.notify(
      'log',
      { level: 'info', message: '', time: 1 },
      { path: ['message'], as: 'utf8', chunks: [bytes], size: bytes.byteLength },
    );
    // The same with a path that leads nowhere: refused by the inspector, and the link stays up.
    ctx!.notify(
      'log',
      { level: 'info', message: 'not empty', time: 2 },
      { path: ['message'], as: 'utf8', chunks: [bytes], size: bytes.byteLength },
    );
    ctx!.notify('log', { level: 'warn', message: 'after', time: 3 });
    const host = exampleHost(t, sessionId);
    await waitFor(() => host.log().length === 2, 'two log entries');
    expect(host.log().map((e) => [e.level, e.message])).toEqual([
      ['info', 'café '.repeat(1500)],
      ['warn', 'after'],
    ]);
    expect(t.core.sessions.get(sessionId)!.info.active).toBe(true);
  });

  it('keeps bytes attached while offline as bytes and delivers them, in order, once connected', async () => {
    const t = await core();
    let ctx: AgentPluginContext<typeof exampleProtocol> | undefined;
    const plugin = defineAgentPlugin(exampleProtocol, (c) => {
      ctx = c;
    });
    const bytes = new TextEncoder().encode('héllo '.repeat(1500));
    const attached = { path: ['message'], as: 'utf8' as const, chunks: [bytes], size: bytes.byteLength };
    // Made before connect(): the plugin's offline buffer holds them.
    ctx!.notify('log', { level: 'info', message: 'before', time: 1 });
    ctx!.notify('log', { level: 'info', message: '', time: 2 }, attached);
    expect(plugin.runtime.buffer.heldBytes).toBeGreaterThan(bytes.byteLength);
    const a = agent({ url: t.urls.debuggeeUrl, app, plugins: [plugin] });
    const sessionId = await connected(a);
    const host = exampleHost(t, sessionId);
    await waitFor(() => host.log().length === 2, 'two log entries');
    expect(host.log().map((e) => e.message)).toEqual(['before', 'héllo '.repeat(1500)]);
  });

  it('delivers the example event log to the host in order', async () => {
    const t = await core();
    const plugin = example();
    const a = agent({ url: t.urls.debuggeeUrl, app, plugins: [plugin] });
    const sessionId = await connected(a);
    plugin.log('info', 'first');
    plugin.log('warn', 'second', { n: 2 });
    const host = exampleHost(t, sessionId);
    await waitFor(() => host.log().length === 2, 'two log entries');
    expect(host.log().map((e) => [e.level, e.message, e.data])).toEqual([
      ['info', 'first', undefined],
      ['warn', 'second', { n: 2 }],
    ]);
  });

  it('sends notifications made close together as batches the inspector unpacks in order, ahead of a later reply', async () => {
    const t = await core();
    const plugin = example();
    const a = agent({ url: t.urls.debuggeeUrl, app, plugins: [plugin] });
    const sessionId = await connected(a);
    const host = exampleHost(t, sessionId);
    // More than one batch holds (Limits.maxBatchFrames); the host keeps the newest 1000.
    for (let i = 0; i < 1500; i++) plugin.log('info', `entry ${i}`);
    await waitFor(() => host.log().at(-1)?.message === 'entry 1499', 'the last log entry');
    expect(host.log().map((e) => e.message)).toEqual(Array.from({ length: 1000 }, (_, i) => `entry ${i + 500}`));
    // A reply written in the same turn as a notification does not overtake it.
    const echoing = defineAgentPlugin(exampleProtocol, (ctx) => {
      ctx.handle('echo', ({ text }) => {
        ctx.notify('log', { level: 'info', message: `before ${text}`, time: Date.now() });
        return { text };
      });
    });
    const b = agent({ url: t.urls.debuggeeUrl, app: { ...app, id: 'com.test.echo' }, plugins: [echoing] });
    const echoHost = exampleHost(t, await connected(b));
    await echoHost.echo('x');
    expect(echoHost.log().map((e) => e.message)).toEqual(['before x']);
  });

  it('fails a pending request at once with peer-gone when the agent disconnects mid-request', async () => {
    const t = await core();
    const slow = defineAgentPlugin(exampleProtocol, (ctx) => {
      ctx.handle('ping', () => new Promise(() => {}));
    });
    const a = agent({ url: t.urls.debuggeeUrl, app, plugins: [slow] });
    const sessionId = await connected(a);
    const started = Date.now();
    const pending = exampleHost(t, sessionId).ping();
    await new Promise((r) => setTimeout(r, 50));
    a.disconnect();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).code).toBe('peer-gone');
    expect(Date.now() - started).toBeLessThan(2000); // the default timeout is 5 s
    await expect(exampleHost(t, sessionId).ping()).rejects.toMatchObject({ code: 'peer-gone' });
  });

  it('times out an unanswered request with its own error', async () => {
    const t = await core({ link: { requestTimeoutMs: 150 } });
    const silent = defineAgentPlugin(exampleProtocol, (ctx) => {
      ctx.handle('ping', () => new Promise(() => {}));
    });
    const sessionId = await connected(agent({ url: t.urls.debuggeeUrl, app, plugins: [silent] }));
    await expect(exampleHost(t, sessionId).ping()).rejects.toMatchObject({ code: 'timeout' });
  });

  it('fails fast with no-handler when the agent part does not handle the method', async () => {
    const t = await core();
    const bare = defineAgentPlugin(exampleProtocol, () => {});
    const sessionId = await connected(agent({ url: t.urls.debuggeeUrl, app, plugins: [bare] }));
    await expect(exampleHost(t, sessionId).ping()).rejects.toMatchObject({ code: 'no-handler' });
  });

  it('resumes the same session after a dropped connection (right secret)', async () => {
    const t = await core();
    const a = agent({ url: t.urls.debuggeeUrl, app, plugins: [example()], reconnect: fastReconnect });
    const sessionId = await connected(a);
    t.core.sessions.get(sessionId)!.link!.close(4999, 'test drops the link');
    await waitFor(() => a.status.state === 'waiting', 'the agent to notice');
    await waitFor(() => a.status.state === 'connected', 'the agent to reconnect');
    expect(a.status.sessionId).toBe(sessionId);
    expect(t.core.sessions.list()).toHaveLength(1);
    expect(t.core.sessions.get(sessionId)!.info.connections).toBe(2);
  });

  it('starts a new session when another connection takes its session over, instead of fighting for it', async () => {
    const t = await core();
    const a = agent({ url: t.urls.debuggeeUrl, app, plugins: [example()], reconnect: fastReconnect });
    const sessionId = await connected(a);
    const { RawPeer, helloFrame } = await import('../electron/host/testing.js');
    const usurper = await RawPeer.open(t.urls.debuggeeUrl);
    usurper.send(helloFrame({ resume: { sessionId, secret: t.core.sessions.get(sessionId)!.secret } }));
    expect(await usurper.next((f) => f.type === 'welcome')).toMatchObject({ sessionId, resumed: true });
    await waitFor(() => a.status.state === 'connected' && a.status.sessionId !== sessionId, 'a new session');
    await new Promise((r) => setTimeout(r, 200));
    expect(usurper.closed).toBeUndefined();
    expect(t.core.sessions.list().filter((s) => s.active)).toHaveLength(2);
    usurper.close();
  });

  it('gives a new session to a resume with a wrong secret', async () => {
    const t = await core();
    const { RawPeer, helloFrame } = await import('../electron/host/testing.js');
    const first = await RawPeer.open(t.urls.debuggeeUrl);
    first.send(helloFrame());
    const welcome = await first.next((f) => f.type === 'welcome');
    first.close();
    await waitFor(() => t.core.sessions.list()[0]?.active === false, 'inactive');

    const forged = await RawPeer.open(t.urls.debuggeeUrl);
    forged.send(helloFrame({ resume: { sessionId: welcome.sessionId, secret: 'guess' } }));
    const second = await forged.next((f) => f.type === 'welcome');
    expect(second.sessionId).not.toBe(welcome.sessionId);
    expect(second.resumed).toBe(false);

    const honest = await RawPeer.open(t.urls.debuggeeUrl);
    honest.send(helloFrame({ resume: { sessionId: welcome.sessionId, secret: welcome.resumeSecret } }));
    const third = await honest.next((f) => f.type === 'welcome');
    expect(third).toMatchObject({ sessionId: welcome.sessionId, resumed: true });
    forged.close();
    honest.close();
  });

  it('makes params given as a function when they leave, online and offline alike, in order with the others', async () => {
    let ctx: AgentPluginContext<typeof exampleProtocol> | undefined;
    const lazy = defineAgentPlugin(exampleProtocol, (c) => {
      ctx = c;
    });
    const made: string[] = [];
    const log = (message: string, lazily: boolean) => {
      const params = () => {
        made.push(message);
        return { level: 'info' as const, message, time: Date.now() };
      };
      ctx!.notify('log', lazily ? params : params());
    };
    const t = await core();
    const a = agent({ url: t.urls.debuggeeUrl, app, plugins: [lazy] });
    log('offline', true); // not connected yet: made at once, kept in the offline buffer
    expect(made).toEqual(['offline']);
    const host = exampleHost(t, await connected(a));
    log('eager', false);
    log('lazy', true);
    expect(made).toEqual(['offline', 'eager']); // the lazy one waits for its batch
    await waitFor(() => host.log().length === 3, 'three log entries');
    expect(made).toEqual(['offline', 'eager', 'lazy']);
    expect(host.log().map((e) => e.message)).toEqual(['offline', 'eager', 'lazy']);
  });

  it('reconnects by itself after the inspector restarts; buffered notifications arrive in order, drops counted', async () => {
    const first = await startTestCore();
    const { debuggeeUrl } = first.urls;
    const port = Number(new URL(debuggeeUrl).port);
    const plugin = example();
    const a = agent({ url: debuggeeUrl, app, plugins: [plugin], reconnect: fastReconnect, offlineBufferSize: 5 });
    await connected(a);
    await first.stop();
    await waitFor(() => a.status.state === 'waiting', 'the agent to notice the restart');

    for (let i = 1; i <= 8; i++) plugin.log('info', `offline ${i}`);
    const second = await core({ debuggeePort: port });
    const sessionId = await connected(a);
    const host = exampleHost(second, sessionId);
    await waitFor(() => host.log().length === 5, 'five buffered entries');
    expect(host.log().map((e) => e.message)).toEqual(['offline 4', 'offline 5', 'offline 6', 'offline 7', 'offline 8']);
    expect(second.core.sessions.get(sessionId)!.info.droppedNotifications).toBe(3);
  });

  it('bounds its offline buffer in bytes: the newest entries that fit arrive, the others are counted', async () => {
    const first = await startTestCore();
    const { debuggeeUrl } = first.urls;
    const port = Number(new URL(debuggeeUrl).port);
    const plugin = example();
    const a = agent({
      url: debuggeeUrl,
      app,
      plugins: [plugin],
      reconnect: fastReconnect,
      offlineBufferBytes: 1024 * 1024,
    });
    await connected(a);
    await first.stop();
    await waitFor(() => a.status.state === 'waiting', 'the agent to notice the restart');

    for (let i = 1; i <= 8; i++) plugin.log('info', `offline ${i}`, { blob: 'z'.repeat(300_000) });
    const second = await core({ debuggeePort: port });
    const sessionId = await connected(a);
    const host = exampleHost(second, sessionId);
    await waitFor(() => host.log().length === 3, 'the three entries that fit in 1 MiB');
    expect(host.log().map((e) => e.message)).toEqual(['offline 6', 'offline 7', 'offline 8']);
    expect(second.core.sessions.get(sessionId)!.info.droppedNotifications).toBe(5);
  });

  it('keeps retrying after too-many-sessions and connects once a place frees', async () => {
    const t = await core({ maxActiveSessions: 1 });
    const holder = agent({ url: t.urls.debuggeeUrl, app, plugins: [example()] });
    await connected(holder);
    const waiting = agent({
      url: t.urls.debuggeeUrl,
      app: { id: 'com.test.other', name: 'Other' },
      reconnect: fastReconnect,
    });
    await waitFor(() => waiting.status.state === 'waiting' && waiting.status.attempt >= 2, 'a refused attempt or two');
    holder.disconnect();
    await connected(waiting);
  });

  it('stops for good when the inspector rejects its protocol version, saying why', async () => {
    const { WebSocketServer } = await import('ws');
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    defer(() => new Promise((r) => server.close(r)));
    let connections = 0;
    server.on('connection', (ws) => {
      connections++;
      ws.on('message', () => {
        ws.send(
          JSON.stringify({ type: 'reject', reason: 'unsupported-version', message: 'only v2', supportedVersions: [2] }),
        );
        ws.close(4001, 'unsupported-version');
      });
    });
    await new Promise((r) => server.once('listening', r));
    const port = (server.address() as { port: number }).port;
    const a = agent({ url: `ws://127.0.0.1:${port}`, app, plugins: [example()], reconnect: fastReconnect });
    await waitFor(() => a.status.state === 'stopped', 'the agent to stop');
    expect(a.status.error).toContain('unsupported-version');
    await new Promise((r) => setTimeout(r, 200));
    expect(connections).toBe(1);
  });
});

describe('agent against an inspector that misbehaves', () => {
  const defer = cleanupAfterEach();
  const setup = async (welcome?: Parameters<typeof startFakeInspector>[0]) => {
    const inspector = await startFakeInspector(welcome);
    defer(() => inspector.close());
    const plugin = example();
    const a = connect({ url: inspector.url, app, plugins: [plugin], reconnect: fastReconnect });
    defer(() => a.disconnect());
    const link = await inspector.link();
    await waitFor(() => a.status.state === 'connected', 'the agent to connect');
    return { inspector, a, link, plugin };
  };

  it('answers binary, deep, huge and out-of-place frames with protocol errors and stays connected', async () => {
    const { a, link } = await setup({ maxFrameBytes: 64 * 1024 });
    const deep = `${'['.repeat(8000)}${']'.repeat(8000)}`;
    const cases: [unknown, Record<string, unknown>][] = [
      [
        Buffer.from('{"type":"heartbeat","t":1}'),
        { code: 'invalid-message', message: expect.stringContaining('binary') },
      ],
      [`{"type":${deep}}`, { code: 'invalid-message', message: expect.stringContaining('deeper than 64') }],
      [
        JSON.stringify({ type: 'heartbeat', t: 1, pad: 'x'.repeat(70 * 1024) }),
        { message: expect.stringContaining('limit') },
      ],
      ['{"type":"welcome"}', { code: 'unexpected-message' }],
      [
        JSON.stringify({ type: 'reject', reason: 'invalid-hello', message: 'late', supportedVersions: [1] }),
        { code: 'unexpected-message' },
      ],
      [JSON.stringify({ type: 'reply-ok', id: 'nobody', result: 1 }), { code: 'unknown-correlation-id', id: 'nobody' }],
      [JSON.stringify({ type: 'x'.repeat(20_000), id: 'y'.repeat(20_000) }), { code: 'unknown-type' }],
    ];
    for (const [frame, expected] of cases) {
      link.send(frame);
      const error = await link.next((f) => f.type === 'protocol-error');
      expect(error).toMatchObject(expected);
      expect(JSON.stringify(error).length).toBeLessThan(1000);
    }
    // A broken protocol-error is not answered (no error loop); the next request still is.
    link.send('{"type":"protocol-error","code":"???"}');
    link.send({ type: 'request', id: 'h1', plugin: 'example', method: 'echo', params: { text: 'still here' } });
    expect(await link.next()).toMatchObject({ type: 'reply-ok', id: 'h1', result: { text: 'still here' } });
    expect(a.status).toMatchObject({ state: 'connected', sessionId: 's1' });
  });

  it('batches only for an inspector that says it takes batch frames', async () => {
    const plain = await setup();
    const logs = async (link: Awaited<ReturnType<typeof setup>>['link'], plugin: ReturnType<typeof example>) => {
      for (const n of [1, 2, 3]) plugin.log('info', `m${n}`);
      await waitFor(() => link.received.length > 0, 'frames from the agent');
      await new Promise((r) => setTimeout(r, 50));
      return link.received.splice(0).map((f) => f.type);
    };
    expect(await logs(plain.link, plain.plugin)).toEqual(['notification', 'notification', 'notification']);
    const batching = await setup({ batches: true });
    expect(await logs(batching.link, batching.plugin)).toEqual(['batch']);
  });

  it('sends bytes attached to a notification in a binary frame only to an inspector that takes them', async () => {
    const bytes = new TextEncoder().encode('wörld'.repeat(1500));
    const attached = {
      path: ['message'],
      as: 'utf8' as const,
      chunks: [bytes.subarray(0, 7), bytes.subarray(7)],
      size: bytes.byteLength,
    };
    const sendOne = async (welcome: Parameters<typeof startFakeInspector>[0]) => {
      const inspector = await startFakeInspector(welcome);
      defer(() => inspector.close());
      let ctx: AgentPluginContext<typeof exampleProtocol> | undefined;
      const plugin = defineAgentPlugin(exampleProtocol, (c) => {
        ctx = c;
      });
      const a = connect({ url: inspector.url, app, plugins: [plugin] });
      defer(() => a.disconnect());
      const link = await inspector.link();
      await waitFor(() => a.status.state === 'connected', 'the agent to connect');
      ctx!.notify('log', { level: 'info', message: '', time: 1 }, attached);
      return link.next();
    };
    const binary = await sendOne({ batches: true, binaryNotifications: true });
    expect(binary.type).toBe('(binary)');
    expect(decodeBinaryFrame(binary.bytes as Buffer)).toEqual({
      ok: true,
      message: {
        type: 'notification',
        plugin: 'example',
        method: 'log',
        params: { level: 'info', message: 'wörld'.repeat(1500), time: 1 },
      },
    });
    const text = await sendOne({ batches: true });
    expect(text).toMatchObject({ type: 'notification', params: { message: 'wörld'.repeat(1500) } });
  });

  it('gives up on an inspector that stops answering within 3 heartbeat intervals and reconnects', async () => {
    const heartbeatIntervalMs = 300;
    const { inspector, a, link } = await setup({ heartbeatIntervalMs });
    const hungAt = Date.now();
    // The inspector hangs: it reads nothing and sends nothing more.
    (link.ws as unknown as { _socket: Socket })._socket.pause();
    await waitFor(() => a.status.state !== 'connected', 'the agent to notice', 5000);
    const after = Date.now() - hungAt;
    const silence = heartbeatIntervalMs * Limits.heartbeatMissesAllowed;
    expect(a.status.error).toContain('no frames from the inspector');
    expect(after).toBeGreaterThanOrEqual(silence - 50);
    expect(after).toBeLessThan(silence + heartbeatIntervalMs);
    await inspector.link(2);
    await waitFor(() => a.status.state === 'connected', 'the agent to reconnect');
  });
});

describe('backoffDelay', () => {
  it('grows exponentially, is capped, and jitters within the upper half', () => {
    expect(backoffDelay(0, 100, 10_000, () => 0)).toBe(50);
    expect(backoffDelay(0, 100, 10_000, () => 1)).toBe(100);
    expect(backoffDelay(3, 100, 10_000, () => 1)).toBe(800);
    expect(backoffDelay(20, 100, 10_000, () => 1)).toBe(10_000);
    expect(backoffDelay(20, 100, 10_000, () => 0)).toBe(5_000);
  });
});
