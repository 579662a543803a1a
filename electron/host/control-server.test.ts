import { describe, expect, it } from 'vitest';
import { connect } from '../../agent/connection.js';
import { example } from '../../plugins/example/agent/index.js';
import { rawRequest, upgradeRequest } from './fuzz/raw-http.js';
import { cleanupAfterEach } from './test-cleanup.js';
import { startTestCore, waitFor } from './testing.js';
import { uiCookie } from './ui-bridge/bridge-testing.js';

const defer = cleanupAfterEach();

async function started() {
  const t = await startTestCore();
  defer(() => t.stop());
  const port = (url: string) => Number(new URL(url).port);
  return { t, control: port(t.urls.controlUrl), link: port(t.urls.debuggeeUrl) };
}

const get = (target: string, headers = 'Host: 127.0.0.1\r\n') => `GET ${target} HTTP/1.1\r\n${headers}\r\n`;

/** The core still serves: /healthz answers and a real agent gets a session. */
async function stillServing(t: Awaited<ReturnType<typeof started>>['t']) {
  const health = await fetch(`${t.urls.controlUrl}/healthz`);
  expect(health.status).toBe(200);
  const agent = connect({ url: t.urls.debuggeeUrl, app: { id: 'com.after', name: 'After' }, plugins: [example()] });
  defer(() => agent.disconnect());
  await waitFor(() => agent.status.state === 'connected', 'the agent to connect');
}

describe('malformed requests never throw out of a server handler', () => {
  it('answers `GET //` with Upgrade on the control port with 404 instead of dying on new URL()', async () => {
    const { t, control } = await started();
    expect((await rawRequest(control, upgradeRequest('//'))).status).toBe(404);
    expect((await rawRequest(control, upgradeRequest('//evil.test/bridge'))).status).toBe(404);
    expect((await rawRequest(control, get('//'))).status).toBe(404);
    await stillServing(t);
  });

  it('answers the control port with a status for every odd request line, header and path', async () => {
    const { t, control } = await started();
    const cookie = (await uiCookie(t.urls.controlUrl, t.core.ui.token))!;
    // The cookie is per control port, named after the port in Host (browsers always send it).
    const bridge = (headers: Record<string, string> = {}) =>
      upgradeRequest('/bridge', { Host: `127.0.0.1:${control}`, Cookie: cookie, ...headers });
    const cases: [string, string | Buffer, number | 'closed'][] = [
      ['absolute-form target', get('http://127.0.0.1/healthz'), 400],
      ['absolute-form upgrade', upgradeRequest('http://127.0.0.1/bridge'), 400],
      ['asterisk-form', 'OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400],
      ['authority-form CONNECT', 'CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 'closed'],
      ['percent garbage', get('/%zz%%%E0%A4%A'), 400],
      ['percent-encoded NUL', get('/%00'), 404],
      ['encoded traversal', get('/..%2f..%2f..%2fetc%2fpasswd'), 404],
      ['backslash traversal', get('/..\\..\\etc\\passwd'), 404],
      ['a very long path', get(`/${'a'.repeat(8000)}`), 404],
      ['no Host', 'GET /healthz HTTP/1.1\r\n\r\n', 400],
      ['a foreign Host', get('/healthz', 'Host: evil.test\r\n'), 403],
      ['a broken Host', get('/healthz', 'Host: [\r\n'), 403],
      ['user info before a foreign Host', get('/healthz', 'Host: localhost:x@evil.test\r\n'), 403],
      ['a Host with a name for a port', get('/healthz', 'Host: localhost:evil\r\n'), 403],
      ['a Host with a path', get('/healthz', 'Host: 127.0.0.1/evil.test\r\n'), 403],
      ['a loopback Host with a port', get('/healthz', 'Host: localhost:7361\r\n'), 200],
      ['an IPv6 loopback Host', get('/healthz', 'Host: [::1]:7361\r\n'), 200],
      ['user info on a bridge upgrade', upgradeRequest('/bridge', { Host: 'localhost:x@evil.test' }), 403],
      ['huge headers', get('/healthz', `Host: 127.0.0.1\r\nX-Big: ${'b'.repeat(100_000)}\r\n`), 431],
      ['binary request line', Buffer.from([0, 1, 2, 255, 13, 10, 13, 10]), 400],
      ['bad content-length', 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n', 400],
      ['bad chunk, no token', 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 401],
      [
        'a bad chunk after a head that is answered at once',
        'POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
        200,
      ],
      ['upgrade to h2c', upgradeRequest('/bridge', { Upgrade: 'h2c' }), 401],
      ['upgrade without a key', bridge({ 'Sec-WebSocket-Key': '' }), 400],
      ['upgrade with a bad version', bridge({ 'Sec-WebSocket-Version': '99' }), 400],
      ['upgrade by POST', bridge().replace('GET', 'POST'), 405],
      ['a token of percent garbage', upgradeRequest('/bridge?token=%E0%A4%A'), 401],
      ['a cookie of garbage', upgradeRequest('/bridge', { Cookie: `${cookie.split('=')[0]}=%E0.%A4%A` }), 401],
      ['a foreign page on the bridge', bridge({ Origin: 'http://evil.test' }), 403],
      ['a link token of garbage', get('/?token=%E0%A4%A'), 303],
      ['an unknown upgrade path', upgradeRequest('/nope'), 404],
      ['/mcp without a token', 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}', 401],
      ['/mcp from a foreign page', get('/mcp', 'Host: 127.0.0.1\r\nOrigin: http://evil.test\r\n'), 403],
      [
        '/mcp with a huge bearer',
        get('/mcp', `Host: 127.0.0.1\r\nAuthorization: Bearer ${'t'.repeat(15_000)}\r\n`),
        401,
      ],
      ['static file by DELETE', 'DELETE /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 405],
    ];
    for (const [what, request, expected] of cases) {
      const answer = await rawRequest(control, request);
      expect(answer.status ?? 'closed', what).toBe(expected);
    }
    await stillServing(t);
  });

  it('answers the link port with a status for every odd upgrade and plain request', async () => {
    const { t, link } = await started();
    const cases: [string, string | Buffer, number | 'closed'][] = [
      ['`GET //` upgrade (any path is the link)', upgradeRequest('//'), 101],
      ['absolute-form upgrade', upgradeRequest('http://evil.test//'), 101],
      ['plain GET', get('//'), 426],
      ['origin "null"', upgradeRequest('/', { Origin: 'null' }), 403],
      ['a foreign origin', upgradeRequest('/', { Origin: 'http://evil.test' }), 403],
      ['a huge origin', upgradeRequest('/', { Origin: `http://${'o'.repeat(10_000)}.test` }), 403],
      ['upgrade without a key', upgradeRequest('/', { 'Sec-WebSocket-Key': '' }), 400],
      ['upgrade by POST', upgradeRequest('/').replace('GET', 'POST'), 405],
      ['CONNECT', 'CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 'closed'],
      ['huge headers', get('/', `Host: 127.0.0.1\r\nX-Big: ${'b'.repeat(100_000)}\r\n`), 431],
      ['binary', Buffer.from([0, 1, 2, 255, 13, 10, 13, 10]), 400],
    ];
    for (const [what, request, expected] of cases) {
      const answer = await rawRequest(link, request);
      expect(answer.status ?? 'closed', what).toBe(expected);
    }
    await stillServing(t);
  });
});
