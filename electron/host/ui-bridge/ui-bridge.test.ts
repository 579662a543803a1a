import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect } from '../../../agent/connection.js';
import { example } from '../../../plugins/example/agent/index.js';
import { cleanupAfterEach } from '../test-cleanup.js';
import { startTestCore, waitFor } from '../testing.js';
import { BridgeClient, type Started, uiCookie } from './bridge-testing.js';
import { uiCookieName } from './ui-auth.js';

describe('UI bridge over WebSocket', () => {
  const defer = cleanupAfterEach();
  const core = async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    return t;
  };
  const client = async (t: Started) => {
    const c = await BridgeClient.open(t);
    defer(() => c.ws.close());
    return c;
  };

  it('prints a UI link whose token works once, and refuses no cookie, a used or wrong link, or a foreign origin', async () => {
    const t = await core();
    const link = t.urls.uiUrl;
    const token = new URL(link).searchParams.get('token')!;
    expect(link).toBe(`${t.urls.controlUrl}/?token=${token}`);
    expect(token.length).toBeGreaterThanOrEqual(32);
    // The browser opens the link: a cookie for the bridge only, the token out of the address bar.
    const opened = await fetch(link, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe('/');
    expect(opened.headers.get('cache-control')).toBe('no-store');
    const setCookie = opened.headers.get('set-cookie')!;
    const port = new URL(t.urls.controlUrl).port;
    expect(setCookie).toMatch(
      new RegExp(`^porthole_ui_${port}=[\\w-]+\\.[\\w-]+; Path=/bridge; HttpOnly; SameSite=Strict$`),
    );
    const cookie = setCookie.split(';')[0]!;
    // A copy of the same link, opened anywhere after that, gets nothing.
    const copied = await fetch(link, { redirect: 'manual' });
    expect(copied.status).toBe(303);
    expect(copied.headers.get('location')).toBe('/#link-used');
    expect(copied.headers.get('set-cookie')).toBeNull();
    await expect(BridgeClient.open(t, { token })).rejects.toMatchObject({ status: 401 });
    // The next link is a new one.
    expect(t.urls.uiUrl).not.toBe(link);
    await expect(BridgeClient.open(t, { token: '' })).rejects.toMatchObject({ status: 401 });
    await expect(BridgeClient.open(t, { token: `${t.core.ui.token}x` })).rejects.toMatchObject({ status: 401 });
    await expect(BridgeClient.open(t, { cookie: `${cookie}x` })).rejects.toMatchObject({ status: 401 });
    await expect(BridgeClient.open(t, { cookie: `porthole_ui_1=${cookie.split('=')[1]}` })).rejects.toMatchObject({
      status: 401,
    });
    // The old way in, the token on the bridge's URL, is no way in.
    const ws = `${t.urls.controlUrl.replace('http', 'ws')}/bridge?token=${t.core.ui.token}`;
    expect((await fetch(ws.replace('ws', 'http'))).status).toBe(401);
    await expect(BridgeClient.open(t, { cookie, origin: 'http://evil.example' })).rejects.toMatchObject({
      status: 403,
    });
    await expect(BridgeClient.open(t, { cookie, origin: 'http://127.0.0.1:1' })).rejects.toMatchObject({ status: 403 });
    const ok = await BridgeClient.open(t, { cookie, origin: `http://127.0.0.1:${port}` });
    const again = await BridgeClient.open(t, { cookie });
    for (const c of [ok, again]) c.ws.close();
  });

  it('keeps the UI key in the data dir (0600), so an open window reconnects after a restart, until --new-ui-token', async () => {
    const first = await startTestCore();
    const cookie = await uiCookie(first.urls.controlUrl, first.core.ui.token);
    const key = readFileSync(join(first.dataDir, 'ui-token'), 'utf8').trim();
    expect(key.length).toBeGreaterThanOrEqual(32);
    await first.stop({ keepData: true });
    if (process.platform !== 'win32') expect(statSync(join(first.dataDir, 'ui-token')).mode & 0o777).toBe(0o600);
    const second = await startTestCore({ dataDir: first.dataDir });
    // The same browser after a restart (the cookie is per port; this test keeps the value).
    const renamed = `${uiCookieName(new URL(second.urls.controlUrl).host)}=${cookie!.split('=')[1]}`;
    const back = await BridgeClient.open(second, { cookie: renamed });
    back.ws.close();
    await second.stop({ keepData: true });
    const third = await startTestCore({ dataDir: first.dataDir, ui: { newKey: true } });
    defer(() => third.stop());
    const renamedAgain = `${uiCookieName(new URL(third.urls.controlUrl).host)}=${cookie!.split('=')[1]}`;
    await expect(BridgeClient.open(third, { cookie: renamedAgain })).rejects.toMatchObject({ status: 401 });
    expect(readFileSync(join(first.dataDir, 'ui-token'), 'utf8').trim()).not.toBe(key);
  });

  it("renews the UI key from the window: every window's access ends, the one that asked comes back through its new link", async () => {
    const t = await core();
    const asking = await client(t);
    const other = await client(t);
    const printed = t.urls.uiUrl;
    const { path } = await asking.result<{ path: string }>('ui.newLink');
    expect(path).toMatch(/^\/\?token=[\w-]{43}$/);
    await waitFor(() => asking.closed && other.closed, 'both bridges to close');
    expect(asking.closed?.code).toBe(4009);
    expect(other.closed?.code).toBe(4009);
    // Their cookies are worthless now, and so is the link printed before.
    await expect(BridgeClient.open(t, { token: new URL(printed).searchParams.get('token')! })).rejects.toMatchObject({
      status: 401,
    });
    expect(t.urls.uiUrl).not.toBe(printed);
    const back = await BridgeClient.open(t, { token: new URL(path, t.urls.controlUrl).searchParams.get('token')! });
    defer(() => back.ws.close());
    expect(await back.result('app.snapshot')).toMatchObject({ mode: 'headless' });
  });

  it('answers the snapshot and pushes session events as a debuggee comes and goes', async () => {
    const t = await core();
    const c = await client(t);
    const snapshot = await c.result<{ sessions: unknown[]; plugins: { id: string; panelMethods: string[] }[] }>(
      'app.snapshot',
    );
    expect(snapshot.sessions).toEqual([]);
    expect(snapshot.plugins.find((p) => p.id === 'example')?.panelMethods).toEqual([
      'ping',
      'log',
      'captureScreenshot',
    ]);

    const agent = connect({
      url: t.urls.debuggeeUrl,
      app: { id: 'com.test.ui', name: 'UI Test' },
      plugins: [example()],
    });
    defer(() => agent.disconnect());
    await waitFor(() => c.events('session:connected').length === 1, 'session:connected');
    expect(c.events('session:connected')[0]!.data).toMatchObject({
      session: { app: { name: 'UI Test' }, active: true },
    });
    agent.disconnect();
    await waitFor(() => c.events('session:disconnected').length === 1, 'session:disconnected');
    expect(c.events('session:disconnected')[0]!.data).toMatchObject({ session: { active: false } });
  });

  it("lets a panel call its plugin's host and forwards the plugin's events", async () => {
    const t = await core();
    const c = await client(t);
    const plugin = example({
      captureScreenshot: () => ({ base64: 'iVBORw0KGgo=', mimeType: 'image/png', width: 1, height: 1 }),
    });
    const agent = connect({ url: t.urls.debuggeeUrl, app: { id: 'com.test.ui', name: 'UI Test' }, plugins: [plugin] });
    defer(() => agent.disconnect());
    const sessionId = await waitFor(() => agent.status.sessionId, 'the agent to connect');

    const pong = await c.result<{ roundTripMs: number }>('panel.call', {
      sessionId,
      plugin: 'example',
      method: 'ping',
    });
    expect(pong.roundTripMs).toBeGreaterThanOrEqual(0);
    const shot = await c.result('panel.call', { sessionId, plugin: 'example', method: 'captureScreenshot' });
    expect(shot).toEqual({ base64: 'iVBORw0KGgo=', mimeType: 'image/png', width: 1, height: 1 });

    plugin.log('warn', 'disk almost full', { free: 3 });
    await waitFor(() => c.events('plugin:event').length === 1, 'the log event');
    expect(c.events('plugin:event')[0]!.data).toMatchObject({
      sessionId,
      plugin: 'example',
      event: 'log',
      data: { level: 'warn', message: 'disk almost full', data: { free: 3 } },
    });
    const log = await c.result<{ entries: unknown[] }>('panel.call', { sessionId, plugin: 'example', method: 'log' });
    expect(log.entries).toHaveLength(1);

    agent.disconnect();
    await waitFor(() => !t.core.sessions.get(sessionId)?.info.active, 'the session to go inactive');
    const gone = await c.request('panel.call', { sessionId, plugin: 'example', method: 'ping' });
    expect(gone).toMatchObject({ ok: false, error: { code: 'failed' } });
    expect(!gone.ok && gone.error.message).toMatch(/disconnected/);
  });

  it('opens an offline session for a file: its own session, filled through the panel, cleared like any inactive one', async () => {
    const t = await core();
    const c = await client(t);
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'other tool', version: '1' },
        entries: [
          {
            startedDateTime: new Date(1_700_000_000_000).toISOString(),
            time: 12,
            request: {
              method: 'GET',
              url: 'https://a.test/x',
              httpVersion: 'HTTP/1.1',
              cookies: [],
              headers: [],
              queryString: [],
              headersSize: -1,
              bodySize: 0,
            },
            response: {
              status: 204,
              statusText: 'No Content',
              httpVersion: 'HTTP/1.1',
              cookies: [],
              headers: [],
              content: { size: 0, mimeType: 'text/plain' },
              redirectURL: '',
              headersSize: -1,
              bodySize: 0,
            },
            cache: {},
            timings: { send: 0, wait: 10, receive: 2 },
          },
        ],
      },
    };
    const { session } = await c.result<{ session: { id: string; active: boolean; offline?: { source: string } } }>(
      'sessions.openOffline',
      { plugin: 'network', source: 'trace.har' },
    );
    expect(session).toMatchObject({ active: false, offline: { source: 'trace.har' } });
    await waitFor(() => c.events('session:updated').length > 0, 'the session to be announced');
    const imported = await c.result('panel.call', {
      sessionId: session.id,
      plugin: 'network',
      method: 'importHar',
      params: { har, source: 'trace.har' },
    });
    expect(imported).toEqual({ imported: 1 });
    const page = await c.result<{ total: number }>('panel.call', {
      sessionId: session.id,
      plugin: 'network',
      method: 'list',
      params: { limit: 10 },
    });
    expect(page.total).toBe(1);
    const unknown = await c.request('sessions.openOffline', { plugin: 'nope', source: 'x' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await c.result('sessions.remove', { sessionId: session.id })).toEqual({ removed: true });
  });

  it('lists the history up to its capacity and searches arguments and results', async () => {
    const t = await core();
    const c = await client(t);
    await t.core.tools.run('inspector_list_sessions', {}, new AbortController().signal);
    const listed = await c.result<{ calls: unknown[]; capacity: number }>('history.list', {});
    expect(listed.calls).toHaveLength(1);
    expect(listed.capacity).toBe(1000);
    expect(await c.result('history.search', { text: 'INSPECTOR_LIST' })).toMatchObject({ ids: [expect.any(String)] });
    expect(await c.result('history.search', { text: 'no such words' })).toEqual({ ids: [] });
  });

  it('answers bad frames with errors that say what was wrong, and keeps serving', async () => {
    const t = await core();
    const c = await client(t);
    c.sendRaw('not json');
    c.sendRaw(JSON.stringify({ hello: 1 }));
    c.sendRaw(JSON.stringify({ type: 'request', id: 'x1', method: 42 }));
    await waitFor(() => c.frames.filter((f) => f.type === 'frame-error').length === 2, 'two frame errors');
    expect(c.frames.filter((f) => f.type === 'frame-error').map((f) => f.type === 'frame-error' && f.message)).toEqual([
      'the frame is not JSON',
      expect.stringMatching(/^invalid request frame/),
    ]);
    expect(await waitFor(() => c.frames.find((f) => f.type === 'reply' && f.id === 'x1'))).toMatchObject({
      ok: false,
      error: { code: 'invalid-frame' },
    });

    expect(await c.request('no.such.method')).toMatchObject({ ok: false, error: { code: 'unknown-method' } });
    expect(await c.request('__proto__')).toMatchObject({ ok: false, error: { code: 'unknown-method' } });
    expect(await c.request('sessions.remove', { sessionId: 7 })).toMatchObject({
      ok: false,
      error: { code: 'invalid-params' },
    });
    expect(await c.request('panel.call', { sessionId: 's', plugin: 'nope', method: 'ping' })).toMatchObject({
      ok: false,
      error: { code: 'not-found', message: 'this inspector has no "nope" plugin' },
    });
    expect(await c.request('panel.call', { sessionId: 's', plugin: 'example', method: 'constructor' })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
    expect(await c.request('history.get', { id: 'c1' })).toMatchObject({ ok: false });
    c.sendRaw(`{"type":"request","id":"big","method":"app.snapshot","params":"${'x'.repeat(17 * 1024 * 1024)}"}`);
    await waitFor(() => c.closed, 'the oversized frame to close the socket');
    expect(c.closed?.code).toBe(1009);

    const again = await client(t);
    expect(await again.result('app.snapshot')).toMatchObject({ bridgeVersion: 1, mode: 'headless' });
  });
});

describe('the window over HTTP', () => {
  it('serves the page with a strict CSP and nothing outside the renderer folder', async () => {
    const t = await startTestCore();
    try {
      const page = await fetch(`${t.urls.controlUrl}/`);
      expect([200, 503]).toContain(page.status);
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain(`ws://${new URL(t.urls.controlUrl).host}`);
      expect(csp).not.toContain('unsafe-inline');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect((await fetch(`${t.urls.controlUrl}/..%2f..%2fpackage.json`)).status).toBe(404);
      expect((await fetch(`${t.urls.controlUrl}/assets/nope.js`)).status).toBe(404);
      expect((await fetch(`${t.urls.controlUrl}/`, { method: 'POST' })).status).toBe(405);
    } finally {
      await t.stop();
    }
  });
});
