import type { NodeEmitter, NodeSocket } from './node-builtins.js';
import type { Observation, SeenMessage } from './observed.js';
import { seen } from './websocket-tap.js';

// A WebSocket made over Node's http (the `ws` package, and socket.io-client and the rest built on
// it), once its upgrade request was answered: the http tap reports the handshake; this follows the
// `ws` socket the app got, found on the upgraded net.Socket where `ws` keeps it. On that one socket
// its `emit` (messages, close) and `send` are wrapped, as the http tap wraps a request's emit: no
// listener is added, nothing is sent or read that the app does not. Another library's socket is
// followed to its close, without its messages.

interface WsSocket extends NodeEmitter {
  readonly readyState: number;
  binaryType?: string;
  send(data: unknown, options?: unknown, cb?: unknown): void;
}

const FOLLOWED = Symbol('porthole.ws.followed');
/** Text messages up to this many bytes are read as text when they come. */
const TEXT_AT_ONCE = 4096;

interface Followed {
  obs: Observation;
  emit: WsSocket['emit'];
  send: WsSocket['send'];
  cap: () => number;
  errored: boolean;
}

type Carrier = { [FOLLOWED]?: Followed };

/** The `ws` WebSocket a net.Socket was handed to (ws keeps it under its `websocket` symbol). */
export function wsOf(socket: object | undefined): WsSocket | undefined {
  if (!socket) return undefined;
  const symbol = Object.getOwnPropertySymbols(socket).find((s) => s.description === 'websocket');
  const ws = symbol && (socket as Record<symbol, unknown>)[symbol];
  return ws && typeof (ws as WsSocket).emit === 'function' && typeof (ws as WsSocket).send === 'function'
    ? (ws as WsSocket)
    : undefined;
}

/** Follows an upgraded socket to its end: the `ws` socket whose messages are followed, if it is one. */
export function followUpgraded(
  obs: Observation,
  socket: NodeSocket | undefined,
  cap: () => number,
): WsSocket | undefined {
  const ws = wsOf(socket);
  if (!ws) {
    // Not `ws`: the connection is followed to its close, without messages.
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      obs.complete({});
    };
    (socket as { once?(event: string, listener: () => void): void } | undefined)?.once?.('close', end);
    return undefined;
  }
  const f: Followed = { obs, emit: ws.emit, send: ws.send, cap, errored: false };
  Object.defineProperty(ws, FOLLOWED, { value: f, configurable: true, writable: true });
  Object.defineProperty(ws, 'emit', { value: wsEmit, configurable: true, writable: true });
  Object.defineProperty(ws, 'send', { value: wsSend, configurable: true, writable: true });
  return ws;
}

/** Hands the app a message as if the server had sent it: what `ws` itself emits for one. */
export function injectInto(ws: WsSocket, data: string | Uint8Array): void {
  const Buffer = (globalThis as { Buffer?: { from(d: string | Uint8Array): Uint8Array } }).Buffer!;
  const binary = typeof data !== 'string';
  const buffer = Buffer.from(data);
  const value =
    binary && ws.binaryType === 'arraybuffer'
      ? buffer.slice().buffer
      : binary && ws.binaryType === 'fragments'
        ? [buffer]
        : buffer;
  ws.emit('message', value, binary);
}

function wsEmit(this: WsSocket & Carrier, event: string | symbol, ...args: unknown[]) {
  const f = this[FOLLOWED];
  // biome-ignore lint/complexity/noArguments: passes the call on as it came, without copying it
  if (!f) return (Object.getPrototypeOf(this) as WsSocket).emit.apply(this, arguments as unknown as [string]);
  try {
    if (event === 'message') f.obs.message(wsSeen('received', args[0], args[1], f.cap()));
    else if (event === 'error') f.errored = true;
    else if (event === 'close') {
      const code = typeof args[0] === 'number' ? args[0] : 1005;
      const reason = args[1] === undefined ? '' : String(args[1]);
      const close = { code, reason, wasClean: code !== 1006 };
      if (f.errored || code === 1006)
        f.obs.fail(new Error(`the WebSocket connection broke off (close code ${code})`), false, { close });
      else f.obs.complete({ close });
    }
  } catch {
    // the capture's problem, never the app's
  }
  // biome-ignore lint/complexity/noArguments: passes the call on as it came, without copying it
  return f.emit.apply(this, arguments as unknown as [string]);
}

function wsSend(this: WsSocket & Carrier, data: unknown, options?: unknown, _cb?: unknown) {
  const f = this[FOLLOWED];
  // biome-ignore lint/complexity/noArguments: passes the call on as it came, without copying it
  if (!f) return (Object.getPrototypeOf(this) as WsSocket).send.apply(this, arguments as unknown as [unknown]);
  // biome-ignore lint/complexity/noArguments: passes the call on as it came, without copying it
  const result = f.send.apply(this, arguments as unknown as [unknown]);
  try {
    const binary =
      options && typeof options === 'object' && typeof (options as { binary?: unknown }).binary === 'boolean'
        ? (options as { binary: boolean }).binary
        : typeof data !== 'string';
    f.obs.message(wsSeen('sent', data, binary, f.cap()));
  } catch {
    // the capture's problem, never the app's
  }
  return result;
}

const NodeBuffer = (globalThis as { Buffer?: { isBuffer(v: unknown): boolean } }).Buffer;
const isBuffer = (v: unknown): v is Uint8Array & { toString(encoding: string): string } =>
  NodeBuffer?.isBuffer(v) === true;

/** A `ws` message: text arrives as a Buffer with isBinary false (ws 8) or as a string (ws 7). */
function wsSeen(direction: 'sent' | 'received', data: unknown, isBinary: unknown, cap: number): SeenMessage {
  if (Array.isArray(data)) {
    // binaryType 'fragments': the message's pieces
    const parts = data.filter((p): p is Uint8Array => p instanceof Uint8Array);
    const size = parts.reduce((n, p) => n + p.byteLength, 0);
    const kept = new Uint8Array(Math.min(size, cap));
    let at = 0;
    for (const p of parts) {
      if (at >= kept.byteLength) break;
      const piece = p.subarray(0, kept.byteLength - at);
      kept.set(piece, at);
      at += piece.byteLength;
    }
    return { direction, time: Date.now(), opcode: isBinary === false ? 1 : 2, data: kept, size };
  }
  // A small text message arrives as a Buffer (ws 8): its text at once costs less than a copy decoded later.
  if (isBinary === false && isBuffer(data) && data.byteLength <= Math.min(cap, TEXT_AT_ONCE)) {
    return { direction, time: Date.now(), opcode: 1, data: data.toString('utf8') };
  }
  const m = seen(direction, data, cap);
  if (isBinary === false && typeof m.data !== 'string') m.opcode = 1;
  return m;
}
