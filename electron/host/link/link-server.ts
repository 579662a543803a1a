import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import type { LinkStatus } from '../../../shared/link-status.js';
import { decodeBinaryFrame } from '../../../shared/protocol/binary-frame.js';
import { boundMessage, decode, encode } from '../../../shared/protocol/codec.js';
import { CloseCode, Limits } from '../../../shared/protocol/limits.js';
import {
  type Hello,
  type Message,
  PROTOCOL_VERSION,
  type ProtocolError,
  type Reject,
  SESSION_FRAME_TYPES,
  type SessionFrame,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../../../shared/protocol/messages.js';
import { Messenger } from '../../../shared/protocol/messenger.js';
import { watchSilence } from '../../../shared/protocol/silence-watch.js';
import type { EventBus } from '../event-bus.js';
import type { PluginHost } from '../plugin-host.js';
import type { Session, SessionLink, SessionRegistry } from '../sessions.js';
import { refuseUpgrade } from '../upgrade-refusal.js';
import { DEFAULT_ALLOWED_ORIGINS, isLoopbackAddress, originAllowed } from './origins.js';
import { PairingGuard, type PairingOptions } from './pairing.js';

export interface LinkServerOptions {
  port: number;
  /** Loopback unless the user opted in to LAN. */
  host?: string;
  /** With LAN on, peers that are not on loopback must present this token in their hello. */
  pairingToken?: string | (() => string);
  /** How wrong pairing tokens are slowed down and logged. */
  pairing?: PairingOptions;
  allowedOrigins?: readonly string[];
  maxFrameBytes?: number;
  handshakeTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  requestTimeoutMs?: number;
  maxRequestsInFlight?: number;
  /** Bytes waiting unsent to one app before its link is terminated with 4005 (default Limits.maxBufferedBytes). */
  maxBufferedBytes?: number;
}

interface Deps {
  sessions: SessionRegistry;
  plugins: PluginHost;
  bus: EventBus;
}

/** The debuggee link: a WebSocket server that handshakes agents into sessions and carries their plugin frames. */
export class LinkServer {
  private readonly http: Server;
  private readonly wss: WebSocketServer;
  private readonly maxFrameBytes: number;
  private readonly sockets = new Set<WebSocket>();
  private closing = false;
  private notReading = 0;
  /** Checks LAN apps' pairing tokens; undefined while the link is loopback only. */
  private readonly pairing: PairingGuard | undefined;
  private statusTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: LinkServerOptions,
    private readonly deps: Deps,
  ) {
    this.maxFrameBytes = options.maxFrameBytes ?? Limits.maxFrameBytes;
    const { pairingToken } = options;
    if (pairingToken !== undefined) {
      const token = typeof pairingToken === 'function' ? pairingToken : () => pairingToken;
      this.pairing = new PairingGuard(token, options.pairing, () => this.statsChanged());
    }
    this.wss = new WebSocketServer({ noServer: true, maxPayload: this.maxFrameBytes });
    this.http = createServer((_req, res) => {
      res
        .writeHead(426, { 'content-type': 'text/plain' })
        .end('This is the Porthole debuggee link; connect with a WebSocket.\n');
    });
    this.http.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
  }

  async listen(): Promise<string> {
    const host = this.options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.options.port, host, () => {
        this.http.off('error', reject);
        // Past the start (e.g. out of file descriptors on accept) an error is reported, never fatal.
        this.http.on('error', (e) => console.error(`[porthole] the debuggee link: ${(e as Error).message}`));
        resolve();
      });
    });
    const { port } = this.http.address() as AddressInfo;
    return `ws://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`;
  }

  get port(): number {
    return (this.http.address() as AddressInfo).port;
  }

  get stats(): LinkStatus {
    return { notReading: this.notReading, ...(this.pairing && { pairing: this.pairing.status() }) };
  }

  /** Tells the window (at most 4 times a second: a flood of refusals must not become a flood of events). */
  private statsChanged(): void {
    this.statusTimer ??= setTimeout(() => {
      this.statusTimer = undefined;
      this.deps.bus.emit('link:stats', this.stats);
    }, 250);
    this.statusTimer.unref?.();
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.statusTimer);
    for (const socket of this.sockets) socket.close(CloseCode.goingAway, 'the inspector is shutting down');
    await new Promise<void>((resolve) => setTimeout(resolve, 50));
    for (const socket of this.sockets) socket.terminate();
    this.wss.close();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    try {
      const address = req.socket.remoteAddress ?? 'unknown';
      const wait = this.pairing && !isLoopbackAddress(address) ? this.pairing.waitFor(address) : 0;
      if (wait > 0) {
        const seconds = Math.ceil(wait / 1000);
        return refuseUpgrade(
          socket,
          429,
          `Too many wrong pairing tokens from ${address}; try again in ${seconds} s with the token the inspector printed`,
          { 'retry-after': String(seconds) },
        );
      }
      const origin = req.headers.origin;
      const allowed = [...DEFAULT_ALLOWED_ORIGINS, ...(this.options.allowedOrigins ?? [])];
      if (origin !== undefined && !originAllowed(origin, allowed)) {
        const shown = origin.slice(0, 200);
        return refuseUpgrade(
          socket,
          403,
          `Origin ${shown} is not allowed to connect; start the inspector with --allow-origin ${shown}`,
        );
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, address, origin));
    } catch (e) {
      console.error(`[porthole] the debuggee link refused an upgrade it could not handle: ${(e as Error).message}`);
      socket.destroy();
    }
  }

  private accept(ws: WebSocket, remoteAddress: string, connectionOrigin: string | undefined): void {
    this.sockets.add(ws);
    const { sessions, plugins, bus } = this.deps;
    const heartbeatMs = this.options.heartbeatIntervalMs ?? Limits.heartbeatIntervalMs;
    const loopback = isLoopbackAddress(remoteAddress);
    let session: Session | undefined;
    let link: SessionLink | undefined;
    let protocolErrors = 0;
    /** Why this side ended the link without a closing handshake (ws then reports 1006). */
    let terminated: { code: number; reason: string } | undefined;

    const maxBuffered = this.options.maxBufferedBytes ?? Limits.maxBufferedBytes;
    const send = (message: Message) => {
      if (ws.readyState !== WebSocket.OPEN) throw new Error('the debuggee connection is closed');
      if (ws.bufferedAmount > maxBuffered) {
        // An app that does not read its socket would make the inspector queue without bound.
        this.notReading++;
        this.statsChanged();
        terminated = {
          code: CloseCode.notReading,
          reason: `the app did not read what the inspector sent (over ${maxBuffered} bytes waiting)`,
        };
        close(terminated.code, terminated.reason);
        ws.terminate();
        throw new Error(`the debuggee connection was cut: ${terminated.reason}`);
      }
      ws.send(encode(message, this.maxFrameBytes));
    };
    const close = (code: number, reason: string) => {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(code, reason);
    };
    const trySend = (message: Message) => {
      try {
        send(message);
      } catch {
        // the close handler cleans up
      }
    };
    const reject = (reason: Reject['reason'], message: string) => {
      trySend({
        type: 'reject',
        reason,
        message: boundMessage(message),
        supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      });
      close(CloseCode.rejected, reason);
    };
    const countError = (error: ProtocolError) => {
      protocolErrors++;
      if (session) sessions.countProtocolError(session);
      bus.emit('link:protocol-error', {
        sessionId: session?.info.id,
        remoteAddress,
        code: error.code,
        message: error.message,
      });
      if (protocolErrors >= Limits.maxProtocolErrors)
        close(CloseCode.tooManyProtocolErrors, 'too many protocol errors');
    };
    const refuse = (error: ProtocolError, answer = true) => {
      if (answer) trySend(error);
      countError(error);
    };

    const handshakeTimer = setTimeout(
      () => close(CloseCode.handshakeTimeout, 'no hello within the handshake timeout'),
      this.options.handshakeTimeoutMs ?? Limits.handshakeTimeoutMs,
    );
    // A peer that stops answering cannot finish a closing handshake either: cut it off at once.
    const silence = watchSilence(heartbeatMs * Limits.heartbeatMissesAllowed, () => {
      terminated = {
        code: CloseCode.heartbeatTimeout,
        reason: `no frames from the debuggee for ${Limits.heartbeatMissesAllowed} heartbeat intervals`,
      };
      close(terminated.code, terminated.reason);
      ws.terminate();
    });
    const heartbeat = setInterval(() => {
      if (session) trySend({ type: 'heartbeat', t: Date.now() });
      if (ws.readyState === WebSocket.OPEN) ws.ping();
    }, heartbeatMs);

    const welcome = (hello: Hello) => {
      if (hello.protocolVersion !== PROTOCOL_VERSION) {
        return reject(
          'unsupported-version',
          `protocol version ${hello.protocolVersion} is not supported; this inspector speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`,
        );
      }
      if (this.closing) return reject('shutting-down', 'the inspector is shutting down');
      if (!loopback && this.pairing && !this.pairing.check(remoteAddress, hello.pairingToken)) {
        return reject(
          'pairing-required',
          'connections from the LAN need the pairing token the inspector printed at its start (also in <data-dir>/lan-token); wrong tokens make this address wait longer each time',
        );
      }
      if (sessions.full(hello)) {
        return reject(
          'too-many-sessions',
          `the inspector already has ${sessions.maxActive} apps connected (its limit); disconnect one or start it with --max-sessions <n>`,
        );
      }
      const negotiated = plugins.negotiate(hello.plugins);
      const accepted = new Set(negotiated.accepted.map((p) => p.id));
      const messenger = new Messenger({
        send,
        idPrefix: 'h',
        defaultTimeoutMs: this.options.requestTimeoutMs,
        maxInFlight: this.options.maxRequestsInFlight,
        isPluginActive: (plugin) => accepted.has(plugin),
        onNotification: (plugin, method, params) => plugins.handleNotification(current.info.id, plugin, method, params),
        onRequest: (request) => plugins.handleRequest(current.info.id, request),
        onProtocolError: countError,
      });
      link = { messenger, close };
      const attached = sessions.attach({
        hello,
        ...negotiated,
        remoteAddress,
        security: loopback ? 'loopback' : 'lan',
        link,
        connectionOrigin,
      });
      const current = attached.session;
      session = current;
      send({
        type: 'welcome',
        protocolVersion: PROTOCOL_VERSION,
        sessionId: current.info.id,
        resumeSecret: current.secret,
        resumed: attached.resumed,
        plugins: {
          accepted: negotiated.accepted.map((p) => ({ ...p, host: plugins.speaks(p.id) })),
          incompatible: negotiated.incompatible,
        },
        heartbeatIntervalMs: heartbeatMs,
        maxFrameBytes: this.maxFrameBytes,
        batches: true,
        binaryNotifications: true,
      });
      bus.emit('session:connected', { session: current.info, resumed: attached.resumed });
      plugins.connected(current).catch((e) => console.error('[porthole] a plugin failed to start its session:', e));
    };

    const handshake = (data: RawData, isBinary: boolean) => {
      clearTimeout(handshakeTimer);
      if (isBinary) return reject('invalid-hello', 'the first frame must be a hello as UTF-8 JSON text, not binary');
      const bytes = rawLength(data);
      if (bytes > Limits.maxHelloBytes) {
        return reject('invalid-hello', `the hello is ${bytes} bytes; hellos are limited to ${Limits.maxHelloBytes}`);
      }
      const decoded = decode(rawToString(data), { accept: ['hello'] });
      if (!decoded.ok)
        return reject('invalid-hello', `the first frame must be a valid hello: ${decoded.error.message}`);
      welcome(decoded.message as Hello);
    };

    const receive = (data: RawData, isBinary: boolean) => {
      // A binary frame is a notification with bytes attached (docs/protocol.md, "binary notification").
      const decoded = isBinary
        ? decodeBinaryFrame(rawToBytes(data))
        : decode(rawToString(data), { accept: SESSION_FRAME_TYPES });
      if (!decoded.ok) return refuse(decoded.error, decoded.answer);
      const message = decoded.message as SessionFrame;
      if (message.type === 'heartbeat') return;
      if (message.type === 'protocol-error') {
        bus.emit('link:protocol-error', {
          sessionId: session?.info.id,
          remoteAddress,
          code: message.code,
          message: boundMessage(`the debuggee refused a frame: ${message.message}`),
        });
        return;
      }
      link?.messenger.receive(message);
    };

    // Browsers answer protocol pings without running page scripts, so throttled background tabs stay alive.
    ws.on('pong', () => silence.heard());
    ws.on('message', (data: RawData, isBinary: boolean) => {
      silence.heard();
      // Frames already on the wire when this side closed (a reject, 4004) are not answered.
      if (ws.readyState !== WebSocket.OPEN) return;
      try {
        if (session) receive(data, isBinary);
        else handshake(data, isBinary);
      } catch (e) {
        console.error('[porthole] the debuggee link failed on a frame:', e);
        close(CloseCode.internalError, 'the inspector failed on this frame');
      }
    });

    ws.on('close', (code, reasonBuffer) => {
      clearTimeout(handshakeTimer);
      clearInterval(heartbeat);
      silence.stop();
      this.sockets.delete(ws);
      if (!session || !link) return;
      const ended = terminated ?? {
        code,
        reason:
          reasonBuffer.toString() || (code === 1006 ? 'the connection dropped without a close' : 'connection closed'),
      };
      link.messenger.close(`the debuggee disconnected (${ended.code}: ${ended.reason})`);
      if (sessions.detach(session, link)) {
        plugins.disconnected(session.info.id);
        bus.emit('session:disconnected', { session: session.info, ...ended });
      }
    });
    ws.on('error', () => {
      // 'close' follows; a frame over maxPayload arrives here first and ws closes with 1009.
    });
  }
}

function rawLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, chunk) => n + chunk.length, 0);
  return (data as Buffer | ArrayBuffer).byteLength;
}

function rawToBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
