import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../shared/tool.js';
import { rawRequest } from '../fuzz/raw-http.js';
import { cleanupAfterEach } from '../test-cleanup.js';
import { startTestCore, waitFor } from '../testing.js';
import { connectMcpClient, connectModernClient, ROOT } from './mcp-testing.js';
import { tokenPath } from './mcp-token.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request, so that Host and Origin can be anything. */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<Reply> {
  return new Promise((resolvePromise, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const jsonrpc = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

describe('the MCP endpoint refuses what it must, before any tool or the history sees it', () => {
  const defer = cleanupAfterEach();

  it('answers 401/401/403/403/413 and runs nothing; the same request done right reaches the tool', async () => {
    const t = await startTestCore({ mcp: { maxBodyBytes: 64 * 1024 } });
    defer(() => t.stop());
    let reached = 0;
    t.core.tools.register([
      defineTool({
        name: 'inspector_test_spy',
        title: 'Test: spy',
        description: 'Counts its calls.',
        input: z.object({ pad: z.string().optional() }),
        annotations: {},
        handler: () => `reached ${++reached}`,
      }),
    ]);
    const token = t.core.mcp.token()!;
    const base = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    };

    const init = await send(t.urls.mcpUrl, {
      headers: base,
      body: jsonrpc(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '0' },
      }),
    });
    expect(init.status).toBe(200);
    const sessionId = init.headers['mcp-session-id'] as string;
    const session = { ...base, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
    await send(t.urls.mcpUrl, {
      headers: session,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    const callSpy = (pad = '') => jsonrpc(2, 'tools/call', { name: 'inspector_test_spy', arguments: { pad } });
    const historyBefore = t.core.history.size;

    const { authorization: _, ...noToken } = session;
    const cases: [string, Record<string, string>, string, number, RegExp][] = [
      ['no token', noToken, callSpy(), 401, /Authorization: Bearer/],
      ['a wrong token', { ...session, authorization: `Bearer ${token}x` }, callSpy(), 401, /token is wrong/],
      ['a foreign Host', { ...session, host: 'evil.example' }, callSpy(), 403, /Host header/],
      [
        'a foreign Origin',
        { ...session, origin: 'http://evil.example' },
        callSpy(),
        403,
        /origin http:\/\/evil\.example/,
      ],
      ['an oversized body', session, callSpy('x'.repeat(100 * 1024)), 413, /limited to 65536 bytes/],
    ];
    for (const [what, headers, body, status, message] of cases) {
      const reply = await send(t.urls.mcpUrl, { headers, body });
      expect(reply.status, what).toBe(status);
      expect(reply.body, what).toMatch(message);
    }
    const chunked = await new Promise<number>((resolvePromise, reject) => {
      const req = request(t.urls.mcpUrl, { method: 'POST', headers: session }, (res) => {
        res.resume();
        resolvePromise(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write('x'.repeat(8 * 1024)); // no Content-Length: counted as it arrives
      req.end();
    });
    expect(chunked).toBe(413);
    expect(reached).toBe(0);
    expect(t.core.history.size).toBe(historyBefore);

    const ok = await send(t.urls.mcpUrl, { headers: { ...session, origin: 'http://localhost:5173' }, body: callSpy() });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('reached 1');
    expect(reached).toBe(1);
    expect(t.core.history.size).toBe(historyBefore + 1);
  });

  it('answers a body over the cap with a 413 that Node fetch reads (the body is drained, not cut off)', async () => {
    const t = await startTestCore({ mcp: { maxBodyBytes: 64 * 1024 } });
    defer(() => t.stop());
    const body = jsonrpc(1, 'tools/call', { name: 'inspector_get_status', arguments: { pad: 'x'.repeat(2_000_000) } });
    const res = await fetch(t.urls.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${t.core.mcp.token()}`,
      },
      body,
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toMatch(/limited to 65536 bytes; send less/);
  });

  it('refuses a body announced at 1 GiB at its headers (413 at once, not after a timeout), also behind Expect: 100-continue', async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    const port = Number(new URL(t.urls.controlUrl).port);
    const head = (extra: string) =>
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.core.mcp.token()}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${extra}\r\n`;
    // A few bytes of the announced GiB, then nothing: the answer must not wait for the rest.
    const started = Date.now();
    const answer = await rawRequest(port, `${head('Content-Length: 1073741824\r\n')}{"jsonrpc":`, { timeoutMs: 2000 });
    expect(answer.status).toBe(413);
    expect(answer.text).toMatch(/limited to 4194304 bytes/);
    expect(answer.text.toLowerCase()).toContain('connection: close');
    expect(Date.now() - started).toBeLessThan(2000);
    // A client that asks first is told no before it sends a byte.
    const asked = await rawRequest(port, head('Content-Length: 1073741824\r\nExpect: 100-continue\r\n'), {
      timeoutMs: 2000,
    });
    expect(asked.status).toBe(413);
    expect(asked.text).not.toContain('100 Continue');
    // A small body behind Expect: 100-continue is let in.
    const body = jsonrpc(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'curl-like', version: '1' },
    });
    const small = await rawRequest(
      port,
      head(`Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n`),
      { timeoutMs: 2000 },
    );
    expect(small.status).toBe(100);
  });

  it.each(['http', 'stdio'] as const)(
    'tells an SDK client over %s why a body over the cap was refused, and the next call works',
    async (kind) => {
      const t = await startTestCore({ mcp: { maxBodyBytes: 64 * 1024 } });
      defer(() => t.stop());
      const { client, close, stderr } = await connectMcpClient(kind, {
        mcpUrl: t.urls.mcpUrl,
        dataDir: t.dataDir,
        token: t.core.mcp.token(),
      });
      defer(close);
      const big = client.callTool({ name: 'inspector_get_status', arguments: { pad: 'x'.repeat(1_000_000) } }).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      const error = await big;
      expect(error?.message).toMatch(/limited to 65536 bytes; send less in one request/);
      expect(error?.message).not.toMatch(/fetch failed|still running/);
      if (kind === 'stdio') expect(stderr()).toMatch(/refused the request \(HTTP 413\)/);
      const status = await client.callTool({ name: 'inspector_get_status', arguments: {} });
      expect(status.isError ?? false).toBe(false);
    },
  );

  it('keeps the token in <data-dir>/mcp-token with mode 0600, the same across restarts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'porthole-token-'));
    defer(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await startTestCore({ dataDir });
    const token = first.core.mcp.token();
    await first.stop({ keepData: true });
    expect(token).toMatch(/^[\w-]{40,}$/);
    expect(statSync(tokenPath(dataDir)).mode & 0o777).toBe(0o600);
    const second = await startTestCore({ dataDir });
    defer(() => second.stop({ keepData: true }));
    expect(second.core.mcp.token()).toBe(token);
    expect(second.core.mcp.status()).toMatchObject({ running: true, auth: 'token', url: second.urls.mcpUrl });
  });

  it('with auth "none" (--mcp-auth none) needs no token and writes none', async () => {
    const t = await startTestCore({ mcp: { auth: 'none' } });
    defer(() => t.stop());
    const { client, close } = await connectMcpClient('http', { mcpUrl: t.urls.mcpUrl, dataDir: t.dataDir });
    defer(close);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(t.core.mcp.token()).toBeUndefined();
    expect(existsSync(tokenPath(t.dataDir))).toBe(false);
  });

  it('lets 100 one-shot clients in a row in, none closing its session: the least recently used makes room', async () => {
    const t = await startTestCore({ mcp: { maxSessions: 8 } });
    defer(() => t.stop());
    const target = { mcpUrl: t.urls.mcpUrl, dataDir: t.dataDir, token: t.core.mcp.token() };
    const clients: Awaited<ReturnType<typeof connectMcpClient>>[] = [];
    for (let i = 0; i < 100; i++) {
      const c = await connectMcpClient('http', target, { name: `one-shot-${i}`, version: '1' });
      const status = await c.client.callTool({ name: 'inspector_get_status', arguments: {} });
      expect(status.isError ?? false, `client ${i}`).toBe(false);
      clients.push(c); // never closed: like the Inspector CLI or a script that just exits
    }
    expect(t.core.mcp.clients().length).toBeLessThanOrEqual(8);
    expect(t.core.mcp.clients().map((c) => c.name)).toContain('one-shot-99');
    // The oldest lost its session; it is told to initialize again.
    await expect(clients[0]!.client.listTools()).rejects.toThrow(/unknown or was closed/);
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
  });

  it('counts as connected only the clients really there, and sweeps idle sessions', async () => {
    const t = await startTestCore({ mcp: { idleTimeoutMs: 400, presenceMs: 300 } });
    defer(() => t.stop());
    const target = { mcpUrl: t.urls.mcpUrl, dataDir: t.dataDir, token: t.core.mcp.token() };
    const counts: number[] = [];
    defer(t.core.mcp.onStatus((s) => counts.push(s.clients.length)));

    // A raw client: initialize and one call, no stream left open, then gone without DELETE.
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${target.token}`,
    };
    const init = await send(t.urls.mcpUrl, {
      headers,
      body: jsonrpc(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'gone', version: '1' },
      }),
    });
    expect(init.status).toBe(200);
    expect(t.core.mcp.clients()).toMatchObject([{ name: 'gone' }]);
    await waitFor(() => counts.at(-1) === 0, 'the window to be told the departed client is gone', 5_000);
    expect(t.core.mcp.clients()).toEqual([]);
    const session = { ...headers, 'mcp-session-id': init.headers['mcp-session-id'] as string };
    await new Promise((r) => setTimeout(r, 800)); // past idleTimeoutMs, with the sweeper running every 200 ms
    const swept = await send(t.urls.mcpUrl, { headers: session, body: jsonrpc(2, 'tools/list', {}) });
    expect(swept.status).toBe(404);
    expect(swept.body).toMatch(/initialize a new session/);

    // An SDK client keeps its GET stream open: it stays connected past presenceMs and the idle timeout.
    const held = await connectMcpClient('http', target, { name: 'held', version: '1' });
    defer(held.close);
    await new Promise((r) => setTimeout(r, 900));
    expect(t.core.mcp.clients()).toMatchObject([{ name: 'held' }]);
    expect((await held.client.listTools()).tools.length).toBeGreaterThan(0);
  });
});

describe('porthole mcp (stdio bridge)', () => {
  it('fails with a clear message when no inspector runs for the data dir', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'porthole-none-'));
    try {
      const run = spawnSync(process.execPath, [resolve(ROOT, 'bin/porthole.js'), 'mcp', '--data-dir', dataDir], {
        cwd: ROOT,
        input: '',
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`no Porthole inspector is running for the data dir ${dataDir}`);
      expect(run.stderr).toContain('porthole serve');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.each(['legacy', 'modern'] as const)(
    'carries on when the inspector restarts, without the MCP client restarting (%s era)',
    async (era) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'porthole-restart-'));
      const first = await startTestCore({ dataDir });
      const connectClient = era === 'legacy' ? connectMcpClient : connectModernClient;
      const clientInfo = { name: `restart-${era}`, version: '1.2.3' };
      const { client, close } = await connectClient('stdio', { mcpUrl: first.urls.mcpUrl, dataDir }, clientInfo);
      try {
        expect((await client.callTool({ name: 'inspector_get_status', arguments: {} })).isError).toBeFalsy();
        await first.stop({ keepData: true });
        const second = await startTestCore({ dataDir });
        try {
          const status = await client.callTool({ name: 'inspector_get_status', arguments: {} });
          expect(status.isError).toBeFalsy();
          expect(status.structuredContent).toMatchObject({ urls: { mcp: second.urls.mcpUrl } });
          expect(second.core.history.list(1)[0]).toMatchObject({
            tool: 'inspector_get_status',
            surface: 'mcp-stdio',
            client: clientInfo,
          });
        } finally {
          await close();
          await second.stop();
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
