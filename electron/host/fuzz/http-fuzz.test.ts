import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { connect } from '../../../agent/connection.js';
import { startInspector } from '../../../e2e/support/inspector.js';
import { example } from '../../../plugins/example/agent/index.js';
import { cleanupAfterEach } from '../test-cleanup.js';
import { waitFor } from '../testing.js';
import { fuzzSeed } from './link-frames.js';
import { rawRequest, WS_KEY } from './raw-http.js';

const REQUESTS = Number(process.env.PORTHOLE_FUZZ_REQUESTS ?? 1500);
const defer = cleanupAfterEach();

type Port = 'link' | 'control';

interface Secrets {
  uiToken: string;
  mcpToken: string;
}

/** One generated request: its parts, so the security rules can be checked against what was sent. */
interface Request {
  port: Port;
  method: string;
  target: string;
  version: string;
  headers: [string, string][];
  body: string;
}

const tokenChoice = fc.constantFrom<'right' | 'wrong' | 'none' | 'garbage'>('right', 'wrong', 'none', 'garbage');
const hostValue = fc.constantFrom(
  '127.0.0.1',
  'localhost',
  '[::1]',
  'evil.test',
  '127.0.0.1.evil.test',
  '[',
  '',
  ':::',
  'localhost:abc',
);

const target = fc.oneof(
  fc.constantFrom(
    '/',
    '//',
    '/mcp',
    '/mcp/',
    '/healthz',
    '/index.html',
    '/assets/index.js',
    '/bridge',
    '///bridge',
    '/%2e%2e/%2e%2e/etc/passwd',
  ),
  fc.tuple(fc.constantFrom('/bridge?token=', '/?token=', '/mcp?token='), tokenChoice).map(([p, t]) => `${p}{${t}}`),
  fc.constantFrom('*', 'http://127.0.0.1/mcp', 'http://evil.test//', '127.0.0.1:7361', 'ws://127.0.0.1/bridge', ''),
  fc.string({ maxLength: 40 }).map((s) => `/${encodeURI(s)}`),
  fc.string({ maxLength: 20 }).map((s) => `/${s.replace(/[\s]/g, '')}%${s.slice(0, 2)}%%`),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => `/${'a'.repeat(n)}`),
  fc.uint8Array({ minLength: 1, maxLength: 20 }).map(
    (b) =>
      `/${Buffer.from(b)
        .toString('latin1')
        .replace(/[\r\n ]/g, '')}`,
  ),
);

const header = fc.oneof(
  fc.tuple(fc.constant('Host'), hostValue),
  fc.tuple(fc.constant('Upgrade'), fc.constantFrom('websocket', 'WebSocket', 'h2c', '', 'websocket, h2c')),
  fc.tuple(fc.constant('Connection'), fc.constantFrom('Upgrade', 'upgrade, keep-alive', 'close', 'keep-alive')),
  fc.tuple(fc.constant('Sec-WebSocket-Key'), fc.constantFrom(WS_KEY, '', 'short', '!!!!')),
  fc.tuple(fc.constant('Sec-WebSocket-Version'), fc.constantFrom('13', '8', '', 'x')),
  fc.tuple(
    fc.constant('Sec-WebSocket-Extensions'),
    fc.constantFrom('permessage-deflate', 'permessage-deflate; client_max_window_bits=99', 'x;;;'),
  ),
  fc.tuple(
    fc.constant('Origin'),
    fc.constantFrom(
      'http://localhost:5173',
      'http://evil.test',
      'null',
      'file://',
      '%%%',
      'http://127.0.0.1:{control}',
    ),
  ),
  fc.tuple(
    fc.constant('Authorization'),
    tokenChoice.map((t) => `Bearer {${t}}`),
  ),
  fc.tuple(fc.constant('Authorization'), fc.constantFrom('Basic abc', 'Bearer', 'bearer  ', 'Bearer a b')),
  fc.tuple(fc.constant('Content-Length'), fc.constantFrom('0', '5', '-1', 'abc', '99999999999', '1, 2')),
  fc.tuple(fc.constant('Transfer-Encoding'), fc.constantFrom('chunked', 'gzip', 'chunked, chunked')),
  fc.tuple(fc.constant('Content-Type'), fc.constantFrom('application/json', 'text/plain', '')),
  fc.tuple(fc.constant('Accept'), fc.constantFrom('application/json, text/event-stream', 'text/event-stream', '*/*')),
  fc.tuple(fc.constant('Mcp-Session-Id'), fc.constantFrom('nope', '', 'x'.repeat(300))),
  fc.tuple(fc.constant('Mcp-Protocol-Version'), fc.constantFrom('2025-06-18', '1999-01-01', 'x')),
  fc.tuple(
    fc.constant('X-Big'),
    fc.integer({ min: 1, max: 40_000 }).map((n) => 'b'.repeat(n)),
  ),
  fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 30 })),
);

const body = fc.oneof(
  fc.constant(''),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? ''),
  fc.constant(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
    }),
  ),
  fc.constant(
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'inspector_get_status' } }),
  ),
  fc
    .integer({ min: 100, max: 20_000 })
    .map((n) => `{"jsonrpc":"2.0","id":1,"method":"x","params":${'['.repeat(n)}${']'.repeat(n)}}`),
  fc.constant('zz\r\n0\r\n\r\n'),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
);

const often = <T>(usual: fc.Arbitrary<T>, odd: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 12, arbitrary: usual }, { weight: 1, arbitrary: odd });

/** Mostly requests Node's parser lets through to the handlers, each with something odd about it. */
const request: fc.Arbitrary<Request> = fc
  .record({
    port: fc.constantFrom<Port>('link', 'control', 'control'),
    method: often(
      fc.constantFrom('GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH'),
      fc.constantFrom('get', 'G\u0000T', 'PRI', 'CONNECT', 'TRACE', '', 'X'.repeat(100)),
    ),
    target,
    version: often(fc.constant('HTTP/1.1'), fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/9', 'FOO', '')),
    host: often(
      fc.constantFrom('127.0.0.1', 'localhost', '[::1]', '127.0.0.1:{control}'),
      hostValue.map((h) => h as string | undefined),
    ).chain((h) =>
      fc.oneof({ weight: 20, arbitrary: fc.constant(h) }, { weight: 1, arbitrary: fc.constant(undefined) }),
    ),
    upgrade: fc.boolean(),
    headers: fc.array(header, { maxLength: 5 }),
    body,
  })
  .map(({ host, upgrade, headers, ...rest }) => ({
    ...rest,
    headers: [
      ...(host === undefined ? [] : ([['Host', host]] as [string, string][])),
      ...(upgrade
        ? ([
            ['Upgrade', 'websocket'],
            ['Connection', 'Upgrade'],
            ['Sec-WebSocket-Key', WS_KEY],
            ['Sec-WebSocket-Version', '13'],
          ] as [string, string][])
        : []),
      ...headers,
    ],
  }));

/** The wire text, with the tokens filled in (the right one, a wrong one, garbage). */
function render(r: Request, secrets: Secrets, controlPort: number): string {
  const fill = (text: string) =>
    text
      .replaceAll(
        '{right}',
        r.target.startsWith('/mcp') || text.startsWith('Bearer') ? secrets.mcpToken : secrets.uiToken,
      )
      .replaceAll('{wrong}', 'x'.repeat(43))
      .replaceAll('{none}', '')
      .replaceAll('{garbage}', '%E0%A4%A%%\u00ff')
      .replaceAll('{control}', String(controlPort));
  const framed = r.headers.some(([k]) => /^(content-length|transfer-encoding)$/i.test(k));
  const length: [string, string][] =
    r.body && !framed ? [['Content-Length', String(Buffer.byteLength(r.body, 'latin1'))]] : [];
  const headers = [...r.headers, ...length].map(([k, v]) => `${k}: ${fill(v)}\r\n`).join('');
  return `${r.method} ${fill(r.target)} ${r.version}\r\n${headers}\r\n${r.body}`;
}

/** What no request may get, whatever else is wrong with it. */
function broken(r: Request, status: number | undefined): string | undefined {
  if (status === undefined) return undefined; // closed without an answer (Node does that to CONNECT)
  // 503: too many MCP sessions, or the window not built; 505: Node's own answer to an unknown HTTP version.
  if (status >= 500 && status !== 503 && status !== 505) return `a server error (${status}): a handler failed`;
  // Node keeps the first Host header of a request.
  const host = r.headers.find(([k]) => k.toLowerCase() === 'host')?.[1];
  const loopback = host !== undefined && /^(127\.0\.0\.1|localhost|\[::1\])(:.*)?$/i.test(host);
  if (r.port === 'control' && status < 300 && !loopback) {
    return `answered ${status} to a request whose Host is not loopback`;
  }
  const target = r.target;
  if (r.port === 'control' && status === 101 && !(target.includes('/bridge') && target.includes('{right}'))) {
    return 'upgraded a bridge connection without the UI token';
  }
  const bearer = r.headers.some(([k, v]) => k === 'Authorization' && v === 'Bearer {right}');
  if (r.port === 'control' && target.startsWith('/mcp') && status < 300 && !bearer) {
    return `answered ${status} on /mcp without the bearer token`;
  }
  return undefined;
}

it(`answers ${REQUESTS} malformed HTTP and WebSocket requests on every port without failing`, {
  timeout: 120_000,
}, async () => {
  const seed = fuzzSeed('HTTP requests → inspector');
  const started = Date.now();
  const inspector = await startInspector();
  defer(() => inspector.stop());
  const secrets: Secrets = {
    uiToken: readFileSync(join(inspector.dataDir, 'ui-token'), 'utf8').trim(),
    mcpToken: readFileSync(join(inspector.dataDir, 'mcp-token'), 'utf8').trim(),
  };
  const ports = {
    link: Number(new URL(inspector.info.debuggeeUrl).port),
    control: Number(new URL(inspector.info.controlUrl).port),
  };
  const statuses: Record<string, number> = {};
  const requests = fc.sample(request, { seed, numRuns: REQUESTS });
  // Sixteen at a time, as a page or a script hammering the ports would.
  for (let i = 0; i < requests.length; i += 16) {
    await Promise.all(
      requests.slice(i, i + 16).map(async (r, j) => {
        const wire = render(r, secrets, ports.control);
        const answer = await rawRequest(ports[r.port], Buffer.from(wire, 'latin1'), { timeoutMs: 10_000, idleMs: 300 });
        const key = `${r.port} ${answer.status ?? (answer.waiting ? 'waits for the rest' : 'closed')}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
        const problem = broken(r, answer.status);
        if (problem) {
          throw new Error(
            `seed ${seed}, request ${i + j}: ${problem}\n${wire.slice(0, 600)}\n--- answer:\n${answer.text.slice(0, 300)}`,
          );
        }
      }),
    );
    expect(inspector.process.exitCode, `seed ${seed}: the inspector exited`).toBeNull();
  }

  // Still up and serving every port: health, the MCP endpoint with its token, a real agent.
  expect(inspector.process.exitCode).toBeNull();
  expect((await fetch(`${inspector.info.controlUrl}/healthz`)).status).toBe(200);
  const mcp = await fetch(inspector.info.mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${secrets.mcpToken}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'after', version: '1' } },
    }),
  });
  expect(mcp.status).toBe(200);
  await mcp.body?.cancel();
  const agent = connect({
    url: inspector.info.debuggeeUrl,
    app: { id: 'com.after', name: 'After' },
    plugins: [example()],
  });
  defer(() => agent.disconnect());
  await waitFor(() => agent.status.state === 'connected', 'the agent to connect', 10_000);
  // No handler failed: the core logs nothing of the kind.
  expect(inspector.output()).not.toMatch(/control request failed|link failed|TypeError|RangeError|Unhandled/);
  console.log(
    `[fuzz] HTTP requests → inspector: ${JSON.stringify({ requests: REQUESTS, statuses, ms: Date.now() - started })}`,
  );
});
