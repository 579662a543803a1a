import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, connect } from '../../../agent/connection.js';
import { example } from '../../../plugins/example/agent/index.js';
import { startTestCore, waitFor } from '../testing.js';
import { serveWithHandler } from './fetch-adapter.js';
import { createMcpServer } from './mcp-server-factory.js';
import { ModernToolsCall } from './modern-tools-call.js';

type TestCore = Awaited<ReturnType<typeof startTestCore>>;
interface Answer {
  status: number;
  contentType: string | undefined;
  body: string;
}

/**
 * `/sdk` answers through the SDK's createMcpHandler as the endpoint does (and teaches the fast
 * path the envelopes it accepted); `/fast` answers what the fast path takes itself, the rest
 * through the SDK. Both on the same ToolService, with a real agent behind it.
 */
function twoPathServer(t: TestCore) {
  const handler = createMcpHandler(() => createMcpServer(t.core.tools, { surface: 'mcp-http', era: 'modern' }).server, {
    legacy: 'reject',
  });
  const fast = new ModernToolsCall(t.core.tools);
  const served = { fast: 0, sdk: 0 };
  const server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as unknown;
    if (req.url === '/fast') {
      const call = fast.match(req, body);
      if (call) {
        served.fast++;
        return fast.serve(res, call, 'mcp-http');
      }
    }
    served.sdk++;
    const status = await serveWithHandler(handler, req, res, body);
    if (req.url === '/sdk') fast.learn(req, body, status);
  });
  return { server, served, close: () => handler.close() };
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

function post(url: string, headers: Record<string, string>, body: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], body: text }),
      );
    });
    req.on('error', reject);
    req.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

/** Each call has its own id in the history (an unknown tool's error names it). */
function withoutCallIds(answer: Answer): Answer {
  return {
    ...answer,
    body: answer.body.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>'),
  };
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'compare', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

function headersFor(name: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    ...(name === undefined ? {} : { 'mcp-name': name }),
    ...extra,
  };
}

function callBody(params: Record<string, unknown>, id: string | number = 7): unknown {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { _meta: ENVELOPE, ...params } };
}

interface Case {
  what: string;
  headers: Record<string, string>;
  body: unknown;
  /** Whether the fast path answers it itself (the rest it leaves to the SDK). */
  fast: boolean;
}

const cases: Case[] = [
  {
    what: 'a valid echo',
    headers: headersFor('example_echo'),
    body: callBody({ name: 'example_echo', arguments: { text: 'hi' } }),
    fast: true,
  },
  {
    what: 'a valid echo with a string id',
    headers: headersFor('example_echo'),
    body: callBody({ name: 'example_echo', arguments: { text: 'über "quoted"' } }, 'req-1'),
    fast: true,
  },
  {
    what: 'a valid echo with id 0',
    headers: headersFor('example_echo'),
    body: callBody({ name: 'example_echo', arguments: { text: 'zero' } }, 0),
    fast: true,
  },
  {
    what: 'a valid echo with a negative id',
    headers: headersFor('example_echo'),
    body: callBody({ name: 'example_echo', arguments: { text: 'minus' } }, -3),
    fast: true,
  },
  {
    what: 'a fractional id',
    headers: headersFor('example_echo'),
    body: callBody({ name: 'example_echo', arguments: { text: 'half' } }, 1.5),
    fast: false,
  },
  {
    what: 'Accept without text/event-stream',
    headers: headersFor('example_echo', { accept: 'application/json' }),
    body: callBody({ name: 'example_echo', arguments: { text: 'hi' } }),
    fast: true,
  },
  {
    what: 'a Content-Type other than JSON',
    headers: headersFor('example_echo', { 'content-type': 'text/plain' }),
    body: callBody({ name: 'example_echo', arguments: { text: 'hi' } }),
    fast: false,
  },
  {
    what: 'an extra member in params',
    headers: headersFor('example_echo'),
    body: callBody({ name: 'example_echo', arguments: { text: 'hi' }, task: { ttl: 1000 } }),
    fast: false,
  },
  {
    what: 'a tool failing (isError, with the arguments it got wrong)',
    headers: headersFor('example_echo'),
    body: callBody({ name: 'example_echo', arguments: { txt: 'hi' } }),
    fast: true,
  },
  {
    what: 'a tool failing (no arguments)',
    headers: headersFor('example_echo'),
    body: callBody({ name: 'example_echo' }),
    fast: true,
  },
  {
    what: 'a host tool',
    headers: headersFor('inspector_list_sessions'),
    body: callBody({ name: 'inspector_list_sessions', arguments: { limit: 1 } }),
    fast: true,
  },
  {
    what: 'Mcp-Name naming another tool',
    headers: headersFor('example_send_ping'),
    body: callBody({ name: 'example_echo', arguments: { text: 'hi' } }),
    fast: false,
  },
  {
    what: 'Mcp-Method naming another method',
    headers: headersFor('example_echo', { 'mcp-method': 'tools/list' }),
    body: callBody({ name: 'example_echo', arguments: { text: 'hi' } }),
    fast: false,
  },
  {
    what: 'no Mcp-Name',
    headers: headersFor(undefined),
    body: callBody({ name: 'example_echo', arguments: { text: 'hi' } }),
    fast: false,
  },
  {
    what: 'a bad _meta envelope (no capabilities)',
    headers: headersFor('example_echo'),
    body: {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'example_echo',
        arguments: { text: 'hi' },
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
      },
    },
    fast: false,
  },
  {
    what: 'a bad _meta envelope (client info not an object)',
    headers: headersFor('example_echo'),
    body: callBody({
      name: 'example_echo',
      arguments: { text: 'hi' },
      _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': 'me' },
    }),
    fast: false,
  },
  {
    what: 'an unknown tool',
    headers: headersFor('example_sendping'),
    body: callBody({ name: 'example_sendping', arguments: {} }),
    fast: false,
  },
  {
    what: 'a nameless call',
    headers: headersFor(undefined),
    body: callBody({ arguments: {} }),
    fast: false,
  },
  {
    what: 'arguments that are not an object',
    headers: headersFor('example_echo'),
    body: callBody({ name: 'example_echo', arguments: ['hi'] }),
    fast: false,
  },
  {
    what: 'a progress token',
    headers: headersFor('example_echo'),
    body: callBody({ name: 'example_echo', arguments: { text: 'hi' }, _meta: { ...ENVELOPE, progressToken: 3 } }),
    fast: false,
  },
  {
    what: 'tools/list',
    headers: headersFor(undefined, { 'mcp-method': 'tools/list' }),
    body: { jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: ENVELOPE } },
    fast: false,
  },
];

describe('the 2026-07-28 tools/call fast path answers exactly as the SDK does', () => {
  let t: TestCore;
  let agent: Agent;
  let paths: ReturnType<typeof twoPathServer>;
  let base: string;

  beforeAll(async () => {
    t = await startTestCore();
    agent = connect({ url: t.urls.debuggeeUrl, app: { id: 'com.test.fast', name: 'fast' }, plugins: [example()] });
    await waitFor(() => agent.status.state === 'connected' && agent.status.sessionId, 'the agent');
    paths = twoPathServer(t);
    await new Promise<void>((resolve) => paths.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(paths.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    agent.disconnect();
    await paths.close();
    await new Promise((resolve) => (paths.server as Server).close(resolve));
    await t.stop();
  });

  it.each(cases)('$what', async ({ headers, body, fast }) => {
    const before = { ...paths.served };
    const sdk = await post(`${base}/sdk`, headers, body);
    const mine = await post(`${base}/fast`, headers, body);
    expect(withoutCallIds(mine)).toEqual(withoutCallIds(sdk));
    expect(paths.served.fast - before.fast).toBe(fast ? 1 : 0);
  });

  it('example_send_ping: the same answer but for the measured times', async () => {
    const headers = headersFor('example_send_ping');
    const body = callBody({ name: 'example_send_ping', arguments: {} });
    const sdk = await post(`${base}/sdk`, headers, body);
    const fastBefore = paths.served.fast;
    const mine = await post(`${base}/fast`, headers, body);
    expect(paths.served.fast).toBe(fastBefore + 1);
    const times = (text: string) =>
      text.replace(/("(?:roundTripMs|agentTime)\\?":)[0-9.e+-]+/g, '$1 0').replace(/in [0-9.]+ ms/g, 'in 0 ms');
    expect({ ...mine, body: times(mine.body) }).toEqual({ ...sdk, body: times(sdk.body) });
    expect(JSON.parse(mine.body).result.structuredContent.roundTripMs).toBeTypeOf('number');
  });

  it('an envelope the SDK has not accepted yet goes to the SDK', async () => {
    const fastBefore = paths.served.fast;
    const unseen = callBody({
      name: 'example_echo',
      arguments: { text: 'hi' },
      _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': { name: 'never-seen', version: '0' } },
    });
    const answer = await post(`${base}/fast`, headersFor('example_echo'), unseen);
    expect(answer.status).toBe(200);
    expect(paths.served.fast).toBe(fastBefore);
  });

  it('both paths record the call in the history with its client', async () => {
    const headers = headersFor('example_echo');
    const body = callBody({ name: 'example_echo', arguments: { text: 'recorded' } });
    await post(`${base}/sdk`, headers, body);
    await post(`${base}/fast`, headers, body);
    const recorded = t.core.history
      .list(2)
      .map((c) => ({ tool: c.tool, client: c.client, surface: c.surface, status: c.status }));
    expect(recorded).toEqual([
      { tool: 'example_echo', client: { name: 'compare', version: '1.0.0' }, surface: 'mcp-http', status: 'succeeded' },
      { tool: 'example_echo', client: { name: 'compare', version: '1.0.0' }, surface: 'mcp-http', status: 'succeeded' },
    ]);
  });
});
