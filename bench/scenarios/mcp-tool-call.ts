import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, Agent as HttpAgent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpHandler, McpServer as ModernMcpServer } from '@modelcontextprotocol/server';
import { WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import { connect } from '../../agent/connection.js';
import { startTestCore, waitFor } from '../../electron/host/testing.js';
import { example } from '../../plugins/example/agent/index.js';
import { type BenchRow, defineScenario, latencyRow, type Stats, stats } from '../harness.js';

const ITERATIONS = 1500;
/** DESIGN.md, MCP: with every built-in plugin, tools/list stays within 45 tools and 36 KB. */
const TOOLS_LIST_BUDGET = 36 * 1024;
const TOOLS_BUDGET = 45;

/**
 * An MCP tools/call of example_send_ping over Streamable HTTP: MCP client → core (routing, history)
 * → debuggee → back, in both protocol eras: the 1.x client in a 2025-era session, and the v2
 * client in the 2026-07-28 era (stateless; tools/call on the core's fast path, modern-tools-call.ts,
 * once the SDK has accepted the client's envelope in a first call). Its floor is
 * what the call cannot avoid: a plain loopback HTTP POST round trip plus a raw ws round trip.
 * All are measured in alternating blocks (a block of each, ten times over): each block runs
 * warm, and a machine busy with other work slows floor and calls alike, so the ratios stay
 * comparable from run to run. Peers show what the SDK's clients cost by themselves: the same 1.x
 * client calling a tool of the SDK's own McpServer (sessions, JSON answers), and the same v2 client
 * calling one of the v2 SDK's own createMcpHandler (2026-07-28), each answering at once, with no
 * debuggee behind it.
 */
export default defineScenario('MCP tool call', async () => {
  const post = await plainPostServer();
  const ws = await rawWsEcho();
  const peer = await sdkPeerServer();
  const modernPeer = await sdkModernPeerServer();
  const t = await startTestCore();
  const agent = connect({ url: t.urls.debuggeeUrl, app: { id: 'bench', name: 'Bench' }, plugins: [example()] });
  const headers = { authorization: `Bearer ${t.core.mcp.token()}` };
  const legacy = new Client({ name: 'porthole-bench', version: '1.0.0' });
  const peerClient = new Client({ name: 'porthole-bench-peer', version: '1.0.0' });
  const modernClient = (name: string) =>
    new ModernClient({ name, version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const modern = modernClient('porthole-bench-modern');
  const modernPeerClient = modernClient('porthole-bench-modern-peer');
  try {
    await waitFor(() => agent.status.sessionId, 'the bench agent');
    await legacy.connect(new StreamableHTTPClientTransport(new URL(t.urls.mcpUrl), { requestInit: { headers } }));
    await modern.connect(new ModernTransport(new URL(t.urls.mcpUrl), { requestInit: { headers } }));
    await peerClient.connect(new StreamableHTTPClientTransport(new URL(peer.url)));
    await modernPeerClient.connect(new ModernTransport(new URL(modernPeer.url)));
    const listed = await legacy.listTools();
    await modern.listTools();
    await peerClient.listTools();
    await modernPeerClient.listTools();
    const ping = async (client: {
      callTool(p: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
    }) => {
      const result = (await client.callTool({ name: 'example_send_ping', arguments: {} })) as { isError?: boolean };
      if (result.isError) throw new Error(`example_send_ping failed: ${JSON.stringify(result)}`);
    };
    const raw = await rawMcpCalls(t.urls.mcpUrl, t.core.mcp.token()!);
    const measured = await sampleInterleaved(
      [
        post.roundTrip,
        ws.roundTrip,
        () => ping(legacy),
        () => ping(modern),
        post.rawRoundTrip,
        raw.legacy,
        raw.modern,
        () => ping(peerClient),
        () => ping(modernPeerClient),
      ],
      ITERATIONS,
    );
    const [postRt, wsRt, legacyCall, modernCall, rawPostRt, rawLegacy, rawModern, peerCall, modernPeerCall] =
      measured as [Measured, Measured, Measured, Measured, Measured, Measured, Measured, Measured, Measured];
    const rawFloor: Stats = { ...rawPostRt, median: rawPostRt.median + wsRt.median, p95: rawPostRt.p95 + wsRt.p95 };
    const rawFloorCpu = rawPostRt.cpuMs + wsRt.cpuMs;
    const rawNote = `node:http client, no SDK; floor: POST ${rawPostRt.median.toFixed(3)} + ws ${wsRt.median.toFixed(3)} ms`;
    const floorCpu = postRt.cpuMs + wsRt.cpuMs;
    const floor: Stats = {
      median: postRt.median + wsRt.median,
      p95: postRt.p95 + wsRt.p95,
      samples: postRt.samples,
    };
    const floorNote = `floor: POST ${postRt.median.toFixed(3)} + ws ${wsRt.median.toFixed(3)} ms`;
    const peerNote = (call: Measured, peerOf: Measured) =>
      `${(call.median / peerOf.median).toFixed(2)}x the SDK's own server with the same client and no debuggee (${peerOf.median.toFixed(3)} ms)`;
    return [
      latencyRow(
        'MCP tools/call example_send_ping, 2025-era session (1.x client)',
        legacyCall,
        'HTTP POST + ws round trip',
        floor,
        `n=${legacyCall.samples}; ${floorNote}; ${peerNote(legacyCall, peerCall)}`,
      ),
      latencyRow(
        'MCP tools/call example_send_ping, 2026-07-28 stateless (v2 client)',
        modernCall,
        'HTTP POST + ws round trip',
        floor,
        `n=${modernCall.samples}; ${floorNote}; ${peerNote(modernCall, modernPeerCall)}`,
      ),
      latencyRow(
        '  peer: the 1.x client, SDK McpServer, no debuggee',
        peerCall,
        'HTTP POST + ws round trip',
        floor,
        `the SDK client's own cost: a tool of @modelcontextprotocol/sdk's McpServer answering at once; ${(peerCall.median / postRt.median).toFixed(2)}x the POST alone`,
      ),
      latencyRow(
        '  peer: the v2 client, SDK createMcpHandler, no debuggee',
        modernPeerCall,
        'HTTP POST + ws round trip',
        floor,
        `the v2 SDK at both ends: a tool of @modelcontextprotocol/server's McpServer (createMcpHandler, 2026-07-28, node:http bridge) answering at once; ${(modernPeerCall.median / postRt.median).toFixed(2)}x the POST alone`,
      ),
      cpuRow('  CPU: tools/call, 2025-era session', legacyCall, floorCpu),
      cpuRow('  CPU: tools/call, 2026-07-28 stateless', modernCall, floorCpu),
      latencyRow(
        '  server only: 2025-era session, raw client',
        rawLegacy,
        'HTTP POST + ws round trip',
        rawFloor,
        rawNote,
      ),
      latencyRow('  server only: 2026-07-28, raw client', rawModern, 'HTTP POST + ws round trip', rawFloor, rawNote),
      cpuRow('  CPU: server only, 2025-era session', rawLegacy, rawFloorCpu),
      cpuRow('  CPU: server only, 2026-07-28', rawModern, rawFloorCpu),
      toolsListRow(listed),
    ];
  } finally {
    await legacy.close().catch(() => {});
    await peerClient.close().catch(() => {});
    peer.close();
    await modern.close().catch(() => {});
    await modernPeerClient.close().catch(() => {});
    await modernPeer.close();
    agent.disconnect();
    await t.stop();
    post.close();
    ws.close();
  }
});

const BLOCKS = 10;

interface Measured extends Stats {
  /** CPU time of the main thread per run, in ms (client and server both run on it). */
  cpuMs: number;
}

/**
 * Times each of `fns` `iterations` times, in BLOCKS alternating blocks, each after a few
 * unrecorded runs; also the main thread's CPU time per run, which other processes' load does not
 * inflate the way it does wall time.
 */
async function sampleInterleaved(fns: (() => Promise<unknown>)[], iterations: number): Promise<Measured[]> {
  const times = fns.map(() => [] as number[]);
  const cpu = fns.map(() => 0);
  const perBlock = Math.ceil(iterations / BLOCKS);
  for (let block = 0; block < BLOCKS; block++) {
    for (const [i, fn] of fns.entries()) {
      for (let n = 0; n < perBlock / 10; n++) await fn();
      const cpuStart = mainThreadCpuMs();
      for (let n = 0; n < perBlock; n++) {
        const start = performance.now();
        await fn();
        times[i]!.push(performance.now() - start);
      }
      cpu[i]! += mainThreadCpuMs() - cpuStart;
    }
  }
  return times.map((t, i) => ({ ...stats(t), cpuMs: cpu[i]! / t.length }));
}

/** This thread's user + system CPU time (Linux: /proc/thread-self; elsewhere the whole process's). */
function mainThreadCpuMs(): number {
  try {
    const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in ticks of 1/100 s
  } catch {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
}

/** The main thread's CPU per call against the floor's: the same comparison, robust to a busy machine. */
function cpuRow(scenario: string, measured: Measured, floor: number): BenchRow {
  return {
    scenario,
    unit: 'ms',
    median: measured.cpuMs,
    p95: measured.cpuMs,
    floor: { name: 'CPU of POST + ws round trip', median: floor },
    ratio: measured.cpuMs / floor,
    note: 'mean main-thread CPU per call (client and core in one process)',
  };
}

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
    scenario: `MCP tools/list (${listed.tools.length} of at most ${TOOLS_BUDGET} tools)`,
    unit: 'KB',
    median: bytes / 1024,
    p95: bytes / 1024,
    floor: { name: 'budget', median: TOOLS_LIST_BUDGET / 1024 },
    ratio: bytes / TOOLS_LIST_BUDGET,
    note: `must be < 1x; biggest: ${biggest}`,
  };
}

/** A loopback HTTP server that echoes a POST body, and one POST of a tools/call-sized body to it. */
async function plainPostServer(): Promise<{
  roundTrip(): Promise<void>;
  rawRoundTrip(): Promise<void>;
  close(): void;
}> {
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
  return {
    async roundTrip() {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.text();
    },
    rawRoundTrip: () => rawPost(url, {}, body).then(() => undefined),
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

const keepAlive = new HttpAgent({ keepAlive: true, maxSockets: 1 });

/** A POST over node:http with a kept-alive socket: the least a client can do. */
function rawPost(url: string, headers: Record<string, string>, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent: keepAlive, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * tools/call of example_send_ping as bare HTTP requests, in each era: what the core costs without
 * an SDK client's own work (its JSON-RPC bookkeeping, schema checks, fetch).
 */
async function rawMcpCalls(mcpUrl: string, token: string) {
  const base = { accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` };
  const call = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'example_send_ping', arguments: {}, ...extra },
    });
  const sessionId = await new Promise<string>((resolve, reject) => {
    const req = request(mcpUrl, { method: 'POST', headers: { ...base, 'content-type': 'application/json' } }, (res) => {
      res.resume();
      resolve(String(res.headers['mcp-session-id']));
    });
    req.on('error', reject);
    req.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench-raw', version: '1' } },
      }),
    );
  });
  const legacyHeaders = { ...base, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
  const legacyBody = call();
  const modernHeaders = {
    ...base,
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'example_send_ping',
  };
  const modernBody = call({
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'bench-raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  });
  const checked = (text: string) => {
    if (!text.includes('roundTripMs')) throw new Error(`example_send_ping failed: ${text}`);
  };
  return {
    legacy: () => rawPost(mcpUrl, legacyHeaders, legacyBody).then(checked),
    modern: () => rawPost(mcpUrl, modernHeaders, modernBody).then(checked),
  };
}

/** A raw ws echo server, and one frame's round trip to it. */
async function rawWsEcho(): Promise<{ roundTrip(): Promise<void>; close(): void }> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  server.on('connection', (socket) => socket.on('message', (data) => socket.send(data.toString())));
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  await new Promise((r) => client.once('open', r));
  const frame = JSON.stringify({ type: 'request', id: 'h1', plugin: 'example', method: 'ping', params: { sentAt: 0 } });
  return {
    roundTrip: () =>
      new Promise<void>((resolve) => {
        client.once('message', () => resolve());
        client.send(frame);
      }),
    close() {
      client.close();
      server.close();
    },
  };
}

/** The peer's tool: answers at once with a result shaped like example_send_ping's. */
const peerTool = {
  config: {
    description: 'answers at once',
    inputSchema: {},
    outputSchema: { roundTripMs: z.number(), agentTime: z.number() },
  },
  async handler() {
    const answer = { roundTripMs: 0.1, agentTime: Date.now() };
    return { content: [{ type: 'text' as const, text: JSON.stringify(answer) }], structuredContent: answer };
  },
};

/**
 * The v2 SDK's own 2026-07-28 endpoint (createMcpHandler, a McpServer per request) with the same
 * tool, on node:http through the plainest bridge: the request's body read, a web Request made,
 * the Response written back.
 */
async function sdkModernPeerServer(): Promise<{ url: string; close(): Promise<void> }> {
  const handler = createMcpHandler(
    () => {
      const mcp = new ModernMcpServer({ name: 'peer', version: '1.0.0' });
      mcp.registerTool('example_send_ping', peerTool.config, peerTool.handler);
      return mcp;
    },
    { legacy: 'reject' },
  );
  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const response = await handler.fetch(
      new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: text || undefined }),
    );
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      out[name] = value;
    });
    res.writeHead(response.status, out).end(await response.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    async close() {
      await handler.close();
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * The SDK's own Streamable HTTP server (sessions, JSON answers) with one tool shaped like
 * example_send_ping's answer, answering at once.
 */
async function sdkPeerServer(): Promise<{ url: string; close(): void }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (!transport) {
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id): void => void transports.set(id, created),
      });
      const mcp = new McpServer({ name: 'peer', version: '1.0.0' });
      mcp.registerTool('example_send_ping', peerTool.config, peerTool.handler);
      await mcp.connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, text ? JSON.parse(text) : undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close() {
      for (const transport of transports.values()) void transport.close();
      server.closeAllConnections();
      server.close();
    },
  };
}
