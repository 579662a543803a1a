import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  isInitializeRequest,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { type McpSurface, McpSurfaceSchema } from '../../../shared/tool.js';
import { originAllowed } from '../link/origins.js';
import { secretMatches } from '../secrets.js';
import { narrowedPlugins } from '../tools/plugin-listing.js';
import type { ToolService } from '../tools/tool-service.js';
import { claimsModernEra } from './era-routing.js';
import { serveWithHandler } from './fetch-adapter.js';
import { createMcpServer, type McpToolsServer } from './mcp-server-factory.js';
import type { McpClientInfo } from './mcp-status.js';
import { bearerToken } from './mcp-token.js';
import { ModernToolsCall } from './modern-tools-call.js';
import { SessionTransport } from './session-transport.js';
import { ONE_SHOT_PRESENCE_MS, ONE_SHOT_REQUESTS, StatelessClients } from './stateless-clients.js';

/**
 * Set by `porthole mcp` (`mcp-stdio`), `porthole call` (`cli`) and `porthole/client` (`script`) on
 * their requests, so their calls are recorded with that surface; the last two get raw values.
 */
export const SURFACE_HEADER = 'x-porthole-surface';

export interface McpHttpOptions {
  /** `none` turns the bearer token off (`--mcp-auth none`). */
  auth: 'token' | 'none';
  /** Browser origins allowed to call /mcp; a request with any other Origin is refused (403). */
  allowedOrigins: readonly string[];
  /** 2025-era MCP sessions kept at once; past it (or past `sessionBudgetBytes`) a new client takes the place of the least needed one. */
  maxSessions: number;
  /** Estimated memory all 2025-era sessions may hold: each costs `SESSION_BASE_BYTES` plus its initialize request. */
  sessionBudgetBytes: number;
  /** Sessions one client (its name, version and transport) may hold; its next initialize closes its own least needed one. */
  maxSessionsPerClient: number;
  /** An MCP session with no request and no call running for this long is closed. */
  idleTimeoutMs: number;
  /** A client counts as connected while it has a stream open, a call running, or sent a request this recently. */
  presenceMs: number;
  /** Largest request body, in bytes (413 above it). */
  maxBodyBytes: number;
}

export const DEFAULT_MCP_OPTIONS: McpHttpOptions = {
  auth: 'token',
  allowedOrigins: ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'],
  maxSessions: 1024,
  sessionBudgetBytes: 64 * 1024 * 1024,
  maxSessionsPerClient: 64,
  idleTimeoutMs: 60 * 60_000,
  presenceMs: 60_000,
  maxBodyBytes: 4 * 1024 * 1024,
};

/** What one 2025-era session costs in the inspector's heap beside its initialize request (measured: about 38 KB). */
export const SESSION_BASE_BYTES = 40 * 1024;

interface HttpSession {
  id: string;
  /** Whose it is: the client's name and version from its initialize, and its transport. */
  client: string;
  /** Estimated bytes held: SESSION_BASE_BYTES plus the initialize request. */
  bytes: number;
  /** The client sent anything after its initialize (an unused session is the first to go). */
  used: boolean;
  transport: SessionTransport;
  mcp: McpToolsServer;
  surface: McpSurface;
  connectedAt: number;
  lastActivityAt: number;
  callsInFlight: number;
  /** HTTP exchanges of this session still open (a GET stream, a POST being answered). */
  openRequests: number;
  /**
   * Messages posted so far: a session of a few (initialize, initialized, one call) is a one-shot
   * client. GET streams are not counted (the SDK opens one after initialize and its close() ends it).
   */
  requests: number;
}

/**
 * `/mcp` on the control server: MCP over Streamable HTTP in both protocol eras. A 2025-era client
 * (initialize, then Mcp-Session-Id) gets a session with its own server instance; a 2026-07-28
 * request (version and client info in its `_meta`) is answered by a fresh instance of its own,
 * with no session. Both eras answer from the same tools through the same ToolService, so results
 * and the call history are the same. Every request passes the Origin allowlist, the bearer token
 * and the body cap before anything of MCP sees it (the control server has already refused
 * non-loopback Host headers).
 */
export class McpHttpEndpoint {
  private readonly sessions = new Map<string, HttpSession>();
  private readonly stateless: StatelessClients;
  /** The SDK's 2026-07-28 entry, strict: 2025-era traffic never reaches it (the sessions above serve it). */
  private readonly modern: McpHttpHandler;
  /** tools/call of that era answered as the SDK does, without its per-request server (the hot path). */
  private readonly modernCalls: ModernToolsCall;
  private readonly unsubscribe: () => void;
  private readonly sweeper: NodeJS.Timeout;
  private readonly presence: NodeJS.Timeout;
  /** The ids of the clients last announced as connected. */
  private announced = '';

  constructor(
    private readonly tools: ToolService,
    private readonly options: McpHttpOptions,
    private readonly token: () => string | undefined,
    private readonly onClientsChanged: () => void,
  ) {
    this.stateless = new StatelessClients(options.presenceMs);
    this.modern = createMcpHandler(
      ({ requestInfo }) =>
        createMcpServer(tools, {
          surface: surfaceOf(requestInfo?.headers.get(SURFACE_HEADER)),
          era: 'modern',
          plugins: narrowedPlugins(pluginsParam(requestInfo?.url)),
        }).server,
      { legacy: 'reject', maxRequestBodySize: options.maxBodyBytes },
    );
    this.modernCalls = new ModernToolsCall(tools);
    // 2026-07-28 clients hear of a changed tool set on their subscriptions/listen streams.
    this.unsubscribe = tools.onListChanged(() => this.modern.notify.toolsChanged());
    this.sweeper = setInterval(() => this.sweep(), Math.min(options.idleTimeoutMs / 2, 60_000));
    this.sweeper.unref();
    this.presence = setInterval(() => this.refreshPresence(), Math.min(1000, options.presenceMs / 2));
    this.presence.unref();
  }

  readonly handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin, this.options.allowedOrigins)) {
      return refuse(
        res,
        403,
        `Forbidden: requests from the origin ${origin} may not use the MCP endpoint (MCP clients send no Origin header)`,
      );
    }
    if (this.options.auth === 'token') {
      const given = bearerToken(req.headers.authorization);
      const expected = this.token();
      if (!given || !expected || !secretMatches(expected, given)) {
        return refuse(
          res,
          401,
          `Unauthorized: ${given ? 'the bearer token is wrong' : 'send the header Authorization: Bearer <token>'}; the token is in the file mcp-token in the inspector's data dir (shown in the window's MCP area)`,
          { 'www-authenticate': 'Bearer realm="porthole"' },
        );
      }
    }

    let body: unknown;
    if (req.method === 'POST') {
      const read = await readJsonBody(req, res, this.options.maxBodyBytes);
      if (read.error) {
        return refuse(res, read.error.status, read.error.message, read.error.headers ?? {}, read.error.code);
      }
      body = read.body;
    } else if (req.method !== 'GET' && req.method !== 'DELETE') {
      return refuse(res, 405, `Method ${req.method} is not allowed on /mcp; use POST, GET or DELETE`, {
        allow: 'POST, GET, DELETE',
      });
    }

    if (req.method === 'POST' && claimsModernEra(req, body)) return this.handleModern(req, res, body);

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.get(sessionId);
      if (!session) {
        // The spec's answer for a session the server ended: the client must initialize a new one.
        return refuse(
          res,
          404,
          'Session not found: this MCP session is unknown or was closed; initialize a new session',
          {},
          SESSION_NOT_FOUND,
        );
      }
      session.used = true;
      this.track(session, req, res);
      return session.transport.handle(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return refuse(
        res,
        400,
        'Bad request: send an initialize request first (protocol 2025-06-18 or 2025-11-25), then the Mcp-Session-Id header it returns; or send 2026-07-28 requests, each with the protocol version and client info in its params._meta',
      );
    }
    const surface = surfaceOf(req.headers[SURFACE_HEADER]);
    const client = clientKey(body, surface);
    // The SDK's server keeps what the initialize request declared (client info, capabilities).
    const bytes = SESSION_BASE_BYTES + JSON.stringify(body).length;
    if (!this.makeRoom(client, bytes)) {
      return refuse(
        res,
        503,
        `All ${this.sessions.size} MCP sessions are running a call right now; retry when one has finished`,
        { 'retry-after': '1' },
      );
    }
    await this.open(req, res, body, { surface, client, bytes });
  };

  /** A 2026-07-28 request: no session; the client counts as connected while it sends requests. */
  private async handleModern(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const surface = surfaceOf(req.headers[SURFACE_HEADER]);
    const seen = this.stateless.seen(clientInfoOf(body), surface);
    if (seen.isNew) this.refreshPresence();
    res.once('close', () => {
      seen.done();
      this.refreshPresence();
    });
    const call = this.modernCalls.match(req, body);
    if (call) return this.modernCalls.serve(res, call, surface);
    const status = await serveWithHandler(this.modern, req, res, body);
    this.modernCalls.learn(req, body, status);
  }

  /**
   * The MCP clients really there. A session: with a stream open, a call running, or a request in
   * the last `presenceMs`. A stateless (2026-07-28) client, keyed by the client info in its
   * requests' `_meta` and its surface: with a request open or one in the last `presenceMs`.
   */
  clients(): McpClientInfo[] {
    const now = Date.now();
    const sessions = [...this.sessions.values()]
      .filter((s) => this.present(s, now))
      .map((s) => {
        const client = s.mcp.client();
        return {
          id: s.id,
          name: client?.name ?? 'unknown',
          version: client?.version ?? '',
          surface: s.surface,
          connectedAt: s.connectedAt,
          lastActivityAt: s.lastActivityAt,
          callsInFlight: s.callsInFlight,
        };
      });
    return [...sessions, ...this.stateless.present(now)];
  }

  /** Every MCP session kept, connected or not, and the bytes they are estimated to hold. */
  sessionUse(): { count: number; bytes: number } {
    let bytes = 0;
    for (const s of this.sessions.values()) bytes += s.bytes;
    return { count: this.sessions.size, bytes };
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    clearInterval(this.presence);
    this.unsubscribe();
    this.modernCalls.close();
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled([...sessions.map((s) => this.closeSession(s)), this.modern.close()]);
  }

  private async open(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    { surface, client, bytes }: { surface: McpSurface; client: string; bytes: number },
  ): Promise<void> {
    const now = Date.now();
    const id = randomUUID();
    const session: HttpSession = {
      id,
      client,
      bytes,
      used: false,
      surface,
      connectedAt: now,
      lastActivityAt: now,
      callsInFlight: 0,
      openRequests: 0,
      requests: 0,
      transport: new SessionTransport(id),
      mcp: createMcpServer(this.tools, {
        surface,
        era: 'legacy',
        plugins: narrowedPlugins(pluginsParam(req.url)),
        onCallsInFlight: (delta) => {
          session.callsInFlight += delta;
          session.lastActivityAt = Date.now();
        },
      }),
    };
    session.transport.onclose = () => this.forget(id);
    const initialized = session.mcp.server.oninitialized;
    session.mcp.server.oninitialized = () => {
      initialized?.();
      this.refreshPresence();
    };
    this.sessions.set(id, session);
    this.track(session, req, res);
    await session.mcp.server.connect(session.transport);
    session.transport.handle(req, res, body);
  }

  private forget(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    session.mcp.dispose();
    this.refreshPresence();
  }

  private async closeSession(session: HttpSession): Promise<void> {
    session.mcp.dispose();
    await session.transport.close().catch(() => {});
  }

  private track(session: HttpSession, req: IncomingMessage, res: ServerResponse): void {
    session.openRequests++;
    if (req.method !== 'GET') session.requests++;
    session.lastActivityAt = Date.now();
    res.once('close', () => {
      session.openRequests--;
      session.lastActivityAt = Date.now();
      this.refreshPresence();
    });
  }

  private present(s: HttpSession, now: number): boolean {
    const presence =
      s.requests <= ONE_SHOT_REQUESTS
        ? Math.min(ONE_SHOT_PRESENCE_MS, this.options.presenceMs)
        : this.options.presenceMs;
    return s.openRequests > 0 || s.callsInFlight > 0 || now - s.lastActivityAt < presence;
  }

  /** Tells the window when the set of connected clients changed. */
  private refreshPresence(): void {
    const ids = this.clients()
      .map((c) => c.id)
      .sort()
      .join(' ');
    if (ids === this.announced) return;
    this.announced = ids;
    this.onClientsChanged();
  }

  /**
   * Makes room for a new session of `client` costing `bytes`: within the client's own share first
   * (a client that initializes in a loop closes its own sessions, nobody else's), then within the
   * count and the byte budget. False when nothing may go (every candidate runs a call).
   */
  private makeRoom(client: string, bytes: number): boolean {
    const own = [...this.sessions.values()].filter((s) => s.client === client);
    if (own.length >= this.options.maxSessionsPerClient && !this.evictOne(own)) return false;
    let held = 0;
    for (const s of this.sessions.values()) held += s.bytes;
    while (this.sessions.size >= this.options.maxSessions || held + bytes > this.options.sessionBudgetBytes) {
      const victim = this.evictOne([...this.sessions.values()]);
      if (!victim) return this.sessions.size === 0;
      held -= victim.bytes;
    }
    return true;
  }

  /**
   * Closes the least needed of `candidates`, never one running a call. Least needed first: never
   * used after its initialize (a flood, an aborted client); then idle for longer than presenceMs;
   * then used recently; a session holding a stream or a request open goes last. Within each, the
   * least recently used.
   */
  private evictOne(candidates: HttpSession[]): HttpSession | undefined {
    const now = Date.now();
    const rank = (s: HttpSession) =>
      s.openRequests > 0 ? 3 : !s.used ? 0 : now - s.lastActivityAt >= this.options.presenceMs ? 1 : 2;
    const [victim] = candidates
      .filter((s) => s.callsInFlight === 0)
      .sort((a, b) => rank(a) - rank(b) || a.lastActivityAt - b.lastActivityAt);
    if (!victim) return undefined;
    this.sessions.delete(victim.id);
    void this.closeSession(victim);
    return victim;
  }

  /** Closes sessions idle for longer than the timeout (a client holding a stream open is not idle). */
  private sweep(): void {
    const now = Date.now();
    for (const session of [...this.sessions.values()]) {
      const busy = session.callsInFlight > 0 || session.openRequests > 0;
      if (busy || now - session.lastActivityAt <= this.options.idleTimeoutMs) continue;
      this.sessions.delete(session.id);
      void this.closeSession(session);
    }
    this.refreshPresence();
  }
}

type BodyRead =
  | { body: unknown; error?: undefined }
  | { error: { status: number; code: number; message: string; headers?: Record<string, string> } };

/**
 * The request's JSON body, to `maxBytes`. A body announced larger is refused at its headers (413, no
 * byte of it read first); the rest is still read and thrown away, to a bound, because a client that
 * is busy sending reads the answer only when it has sent it all (Node fetch does). Past that bound,
 * or when the announced size is past it, the connection closes once the 413 is out.
 */
async function readJsonBody(req: IncomingMessage, res: ServerResponse, maxBytes: number): Promise<BodyRead> {
  const drainLimit = Math.max(maxBytes * 16, 64 * 1024 * 1024);
  const declared = Number(req.headers['content-length']);
  const tooLarge = (close: boolean): BodyRead => ({
    error: {
      status: 413,
      code: -32600,
      message: `Payload too large: MCP request bodies are limited to ${maxBytes} bytes; send less in one request (smaller arguments, or split the work into several calls)`,
      headers: close ? { connection: 'close' } : undefined,
    },
  });
  if (Number.isFinite(declared) && declared > maxBytes) {
    let drained = 0;
    req.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > drainLimit) req.destroy();
    });
    req.on('error', () => {});
    return tooLarge(declared > drainLimit);
  }
  // `Expect: 100-continue`: the client waits for this before it sends the body.
  if (/100-continue/i.test(req.headers.expect ?? '')) res.writeContinue();
  const chunks: Buffer[] = [];
  const outcome = await new Promise<'ok' | 'too-large' | 'failed'>((resolve) => {
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) over = true;
      if (!over) chunks.push(chunk);
      else if (size > drainLimit) req.destroy();
    });
    req.once('end', () => resolve(over ? 'too-large' : 'ok'));
    req.once('error', () => resolve(over ? 'too-large' : 'failed'));
    req.once('close', () => resolve(over ? 'too-large' : 'failed'));
  });
  if (outcome === 'too-large') return tooLarge(true);
  if (outcome === 'failed')
    return {
      error: {
        status: 400,
        code: -32600,
        message: 'Bad request: the body could not be read',
        headers: { connection: 'close' },
      },
    };
  try {
    return { body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch (e) {
    return {
      error: { status: 400, code: -32700, message: `Parse error: the body is not JSON (${(e as Error).message})` },
    };
  }
}

/** An HTTP error with a JSON-RPC error body, which MCP clients show to the user. */
function refuse(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): void {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The JSON-RPC error code MCP SDK servers answer a 404 for an unknown session with. */
const SESSION_NOT_FOUND = -32001;

/** A session's owner for the per-client share: the client info of its initialize and its transport. */
function clientKey(body: unknown, surface: McpSurface): string {
  const info = (body as { params?: { clientInfo?: { name?: unknown; version?: unknown } } }).params?.clientInfo;
  const name = typeof info?.name === 'string' ? info.name.slice(0, 200) : '';
  const version = typeof info?.version === 'string' ? info.version.slice(0, 100) : '';
  return JSON.stringify([name, version, surface]);
}

function surfaceOf(value: unknown): McpSurface {
  const marked = McpSurfaceSchema.safeParse(value);
  return marked.success ? marked.data : 'mcp-http';
}

/** The client info a 2026-07-28 request carries in its `_meta` (a SHOULD of the spec, so maybe absent). */
function clientInfoOf(body: unknown): { name: string; version: string } | undefined {
  const meta = (body as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params?._meta;
  const info = meta?.[CLIENT_INFO_META_KEY] as { name?: unknown; version?: unknown } | undefined;
  if (typeof info?.name !== 'string') return undefined;
  return { name: info.name, version: typeof info.version === 'string' ? info.version : '' };
}

/** The `plugins` query parameter of the MCP URL a request was sent to (`/mcp?plugins=network,console`). */
function pluginsParam(url: string | URL | undefined): string | null {
  if (url === undefined) return null;
  return new URL(url, 'http://localhost').searchParams.get('plugins');
}
