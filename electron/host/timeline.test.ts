import { describe, expect, it } from 'vitest';
import { connect } from '../../agent/connection.js';
import { console as consolePlugin } from '../../plugins/console/agent/index.js';
import { network } from '../../plugins/network/agent/index.js';
import { httpServer } from '../../plugins/network/host/testing.js';
import { cleanupAfterEach } from './test-cleanup.js';
import { helloFrame, RawPeer, startTestCore, waitFor } from './testing.js';
import { BridgeClient } from './ui-bridge/bridge-testing.js';

describe("a session's timeline", () => {
  const defer = cleanupAfterEach();

  it('counts a new load only when the app starts a new run, not on a reconnect of the same run', async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    const hello = async (load: string, resume?: { sessionId: string; secret: string }) => {
      const peer = await RawPeer.open(t.urls.debuggeeUrl);
      defer(() => peer.close());
      peer.send(helloFrame({ load: { id: load, startedAt: Date.now() }, ...(resume ? { resume } : {}) }));
      const welcome = await peer.next<{ sessionId: string; resumeSecret: string }>((f) => f.type === 'welcome');
      return { peer, resume: { sessionId: welcome.sessionId, secret: welcome.resumeSecret } };
    };
    const first = await hello('run-a');
    const { sessionId } = first.resume;
    const load = () => t.core.sessions.get(sessionId)?.info.load;
    expect(load()).toMatchObject({ seq: 1, id: 'run-a' });

    first.peer.close();
    await waitFor(() => !t.core.sessions.get(sessionId)?.info.active, 'the session to go inactive');
    const again = await hello('run-a', first.resume);
    expect(again.resume.sessionId).toBe(sessionId);
    expect(load()).toMatchObject({ seq: 1, id: 'run-a' });

    again.peer.close();
    await waitFor(() => !t.core.sessions.get(sessionId)?.info.active, 'the session to go inactive');
    await hello('run-b', again.resume);
    expect(load()).toMatchObject({ seq: 2, id: 'run-b' });

    const loads = t.core.plugins.timeline(sessionId).query({ plugins: ['inspector'], limit: 10 });
    expect(loads.entries.map((e) => [e.kind, e.ref])).toEqual([
      ['load', '1'],
      ['load', '2'],
    ]);
  });

  it("merges the plugins' entries by time, with failed requests and console errors as errors", async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    const server = await httpServer((req, res) => {
      res.statusCode = req.url === '/broken' ? 500 : 200;
      res.end('x');
    });
    defer(() => server.close());
    const agent = connect({
      url: t.urls.debuggeeUrl,
      app: { id: 'com.test.timeline', name: 'Timeline' },
      plugins: [network(), consolePlugin()],
    });
    defer(() => agent.disconnect());
    await waitFor(() => agent.status.state === 'connected', 'the app to connect');
    const sessionId = agent.status.sessionId!;
    const timeline = t.core.plugins.timeline(sessionId);
    let changes = 0;
    defer(timeline.onChange(() => changes++));

    const since = Date.now();
    await (await fetch(`${server.url}/ok`)).text();
    globalThis.console.error('the cart failed to load');
    await (await fetch(`${server.url}/broken`)).text();

    const ours = () =>
      timeline
        .query({ since, limit: 50 })
        .entries.filter((e) => e.plugin !== 'network' || e.summary.includes(server.url));
    const entries = await waitFor(() => {
      const found = ours();
      return found.length === 3 && found.every((e) => !e.pending) && found;
    }, 'the two requests and the message');
    expect(entries.map((e) => [e.plugin, e.kind, e.level])).toEqual([
      ['network', 'request', 'info'],
      ['console', 'message', 'error'],
      ['network', 'request', 'error'],
    ]);
    expect(entries[2]!.summary).toBe(`GET ${server.url}/broken → 500`);
    expect(entries.map((e) => e.time)).toEqual([...entries.map((e) => e.time)].sort((a, b) => a - b));
    expect(changes).toBeGreaterThan(0);

    const errors = timeline.query({ since, minLevel: 'error', limit: 1 });
    expect(errors.entries).toHaveLength(1);
    expect(errors.more).toBeGreaterThanOrEqual(1);
  });

  it("answers the window's timeline.query in pages, oldest first, and names a session it does not know", async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    const server = await httpServer((_req, res) => res.end('x'));
    defer(() => server.close());
    const agent = connect({
      url: t.urls.debuggeeUrl,
      app: { id: 'com.test.timeline', name: 'Timeline' },
      plugins: [network(), consolePlugin()],
    });
    defer(() => agent.disconnect());
    await waitFor(() => agent.status.state === 'connected', 'the app to connect');
    const sessionId = agent.status.sessionId!;
    for (let i = 0; i < 5; i++) await (await fetch(`${server.url}/n${i}`)).text();
    globalThis.console.warn('five requests made');
    const window = await BridgeClient.open(t);
    defer(() => window.ws.close());

    type Page = { entries: { plugin: string; kind: string; summary: string; time: number }[]; more: number };
    const all = await waitFor(async () => {
      const page = await window.result<Page>('timeline.query', { sessionId });
      return page.entries.some((e) => e.plugin === 'console' && e.summary === 'five requests made') && page;
    }, 'the requests and the message on the timeline');
    const requests = all.entries.filter((e) => e.plugin === 'network' && e.summary.includes(server.url));
    expect(requests.map((e) => e.summary.split(' ')[1]!.slice(server.url.length))).toEqual([
      '/n0',
      '/n1',
      '/n2',
      '/n3',
      '/n4',
    ]);

    const first = await window.result<Page>('timeline.query', { sessionId, plugins: ['network'], limit: 2 });
    expect(first.entries).toHaveLength(2);
    expect(first.more).toBeGreaterThanOrEqual(3);
    const warnings = await window.result<Page>('timeline.query', { sessionId, minLevel: 'warn' });
    expect(warnings.entries.map((e) => e.summary)).toEqual(['five requests made']);

    const unknown = await window.request('timeline.query', { sessionId: 'nope' });
    expect(unknown).toMatchObject({
      ok: false,
      error: { code: 'not-found', message: expect.stringContaining('nope') },
    });
    const bad = await window.request('timeline.query', { sessionId, limit: 1_000_000 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-params' } });
  });
});
