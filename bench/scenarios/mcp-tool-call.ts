import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WebSocket, WebSocketServer } from 'ws';
import { connect } from '../../agent/connection.js';
import { startTestCore, waitFor } from '../../electron/host/testing.js';
import { example } from '../../plugins/example/agent/index.js';
import { type BenchRow, defineScenario, latencyRow, type Stats, sample } from '../harness.js';

const ITERATIONS = 1500;
const TOOLS_LIST_BUDGET = 24 * 1024;

/**
 * An MCP tools/call of example_send_ping over Streamable HTTP: MCP client → core (routing, history)
 * → debuggee → back, in both protocol eras: the 1.x client in a 2025-era session, and the v2
 * client in the 2026-07-28 era (stateless, one fresh server instance per request). Its floor is
 * what the call cannot avoid: a plain loopback HTTP POST round trip plus a raw ws round trip, both
 * measured in this run.
 */
export default defineScenario('MCP tool call', async () => {
  const http = await plainPostRoundTrip();
  const ws = await rawWsRoundTrip();
  const floor: Stats = { median: http.median + ws.median, p95: http.p95 + ws.p95, samples: http.samples };
  const floorNote = `floor: POST ${http.median.toFixed(3)} + ws ${ws.median.toFixed(3)} ms`;

  const t = await startTestCore();
  const agent = connect({ url: t.urls.debuggeeUrl, app: { id: 'bench', name: 'Bench' }, plugins: [example()] });
  const headers = { authorization: `Bearer ${t.core.mcp.token()}` };
  const legacy = new Client({ name: 'porthole-bench', version: '1.0.0' });
  const modern = new ModernClient(
    { name: 'porthole-bench-modern', version: '2.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  try {
    await waitFor(() => agent.status.sessionId, 'the bench agent');
    await legacy.connect(new StreamableHTTPClientTransport(new URL(t.urls.mcpUrl), { requestInit: { headers } }));
    await modern.connect(new ModernTransport(new URL(t.urls.mcpUrl), { requestInit: { headers } }));
    const listed = await legacy.listTools();
    const ping = async (client: {
      callTool(p: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
    }) => {
      const result = (await client.callTool({ name: 'example_send_ping', arguments: {} })) as { isError?: boolean };
      if (result.isError) throw new Error(`example_send_ping failed: ${JSON.stringify(result)}`);
    };
    const legacyCall = await sample(() => ping(legacy), ITERATIONS);
    const modernCall = await sample(() => ping(modern), ITERATIONS);
    return [
      latencyRow(
        'MCP tools/call example_send_ping, 2025-era session (1.x client)',
        legacyCall,
        'HTTP POST + ws round trip',
        floor,
        `n=${legacyCall.samples}; ${floorNote}`,
      ),
      latencyRow(
        'MCP tools/call example_send_ping, 2026-07-28 stateless (v2 client)',
        modernCall,
        'HTTP POST + ws round trip',
        floor,
        `n=${modernCall.samples}; ${floorNote}`,
      ),
      toolsListRow(listed),
    ];
  } finally {
    await legacy.close().catch(() => {});
    await modern.close().catch(() => {});
    agent.disconnect();
    await t.stop();
  }
});

/** tools/list as an agent's context pays for it: the JSON of the result, against the 24 KB budget. */
function toolsListRow(listed: { tools: { name: string }[] }): BenchRow {
  const bytes = Buffer.byteLength(JSON.stringify(listed));
  const biggest = listed.tools
    .map((tool) => ({ name: tool.name, bytes: Buffer.byteLength(JSON.stringify(tool)) }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 3)
    .map((tool) => `${tool.name} ${(tool.bytes / 1024).toFixed(1)}`)
    .join(', ');
  return {
    scenario: `MCP tools/list (${listed.tools.length} tools)`,
    unit: 'KB',
    median: bytes / 1024,
    p95: bytes / 1024,
    floor: { name: 'budget', median: TOOLS_LIST_BUDGET / 1024 },
    ratio: bytes / TOOLS_LIST_BUDGET,
    note: `must be < 1x; biggest: ${biggest}`,
  };
}

async function plainPostRoundTrip(): Promise<Stats> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'example_send_ping', arguments: {} },
  });
  try {
    return await sample(async () => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.text();
    }, ITERATIONS);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

async function rawWsRoundTrip(): Promise<Stats> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  server.on('connection', (socket) => socket.on('message', (data) => socket.send(data.toString())));
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  await new Promise((r) => client.once('open', r));
  const frame = JSON.stringify({ type: 'request', id: 'h1', plugin: 'example', method: 'ping', params: { sentAt: 0 } });
  try {
    return await sample(
      () =>
        new Promise((resolve) => {
          client.once('message', resolve);
          client.send(frame);
        }),
      ITERATIONS,
    );
  } finally {
    client.close();
    server.close();
  }
}
