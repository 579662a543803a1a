import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../test-cleanup.js';
import { startTestCore } from '../testing.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** The first bytes of a response that stays open (an SSE stream), then the socket is dropped. */
function peek(url: string, headers: Record<string, string>): Promise<{ status: number; type?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers }, (res) => {
      resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] });
      if (res.statusCode !== 200) res.resume();
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a 2025-era session over HTTP, message by message', () => {
  const defer = cleanupAfterEach();

  it('answers JSON, batches, notifications, the session stream and DELETE as the 2025 transport says', async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    const base = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${t.core.mcp.token()}`,
    };
    const init = await send(t.urls.mcpUrl, 'POST', base, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(init.status).toBe(200);
    expect(init.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(init.body)).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
    const id = init.headers['mcp-session-id'] as string;
    const session = { ...base, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };

    const initialized = await send(t.urls.mcpUrl, 'POST', session, {
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    });
    expect(initialized.status).toBe(202);

    const batch = await send(t.urls.mcpUrl, 'POST', session, [
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'inspector_get_status', arguments: {} } },
    ]);
    expect(batch.status).toBe(200);
    const answers = JSON.parse(batch.body) as { id: number; result: { isError?: boolean } }[];
    expect(answers.map((a) => a.id).sort()).toEqual([2, 3]);
    expect(answers.find((a) => a.id === 3)?.result.isError).toBe(false);

    const refusals: [string, Record<string, string>, number][] = [
      ['no event-stream in Accept', { ...session, accept: 'application/json' }, 406],
      ['a body that is not JSON', { ...session, 'content-type': 'text/plain' }, 415],
      ['an unknown protocol version', { ...session, 'mcp-protocol-version': '1999-01-01' }, 400],
    ];
    for (const [what, headers, status] of refusals) {
      const reply = await send(t.urls.mcpUrl, 'POST', headers, { jsonrpc: '2.0', id: 4, method: 'ping' });
      expect(reply.status, what).toBe(status);
      expect(JSON.parse(reply.body), what).toMatchObject({ jsonrpc: '2.0', error: { message: expect.any(String) } });
    }
    const notJsonRpc = await send(t.urls.mcpUrl, 'POST', session, { hello: 'world' });
    expect(notJsonRpc.status).toBe(400);

    const stream = await peek(t.urls.mcpUrl, session);
    expect(stream).toEqual({ status: 200, type: 'text/event-stream' });
    expect((await peek(t.urls.mcpUrl, session)).status).toBe(409); // one session stream at a time

    const ended = await send(t.urls.mcpUrl, 'DELETE', session);
    expect(ended.status).toBe(200);
    const after = await send(t.urls.mcpUrl, 'POST', session, { jsonrpc: '2.0', id: 5, method: 'ping' });
    expect(after.status).toBe(404);
  });
});
