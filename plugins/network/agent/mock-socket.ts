import type { MockMark, MockRule } from '../protocol.js';
import { base64ToBytes } from './capture-body.js';
import { builtin } from './node-builtins.js';
import type { Observation, RawHeaders } from './observed.js';
import { seen } from './websocket-tap.js';

// WebSockets answered by a mock rule (loaded with the mock path): a rule's scripted server messages
// and close, or its network error. Two shapes, so that the app's own client code runs as it would:
// - the WHATWG WebSocket (a page's, Node's own): an object of the app's WebSocket class, made here,
//   that opens, delivers the messages and closes as a server would have it;
// - the ws package (and socket.io-client on it) in Node: a socket given to Node's http as the
//   connection, which answers the upgrade request with a 101 and then speaks WebSocket frames, so
//   http, ws and the capture's taps all run unchanged.

type Script = Extract<MockRule['action'], { type: 'websocket' }>;

const sleep = (ms: number | undefined) => new Promise((resolve) => setTimeout(resolve, ms ?? 0));
const text = new TextEncoder();

export interface SocketRecorder {
  observe(request: {
    initiator: 'websocket';
    method: string;
    url: string;
    headers: RawHeaders;
    mock: MockMark;
    inject: (data: string | Uint8Array) => void;
  }): Observation | undefined;
}

const CONNECTING = 0;
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

interface FakeState {
  url: string;
  protocol: string;
  readyState: number;
  binaryType: string;
  bufferedAmount: number;
  handlers: Record<string, ((event: Event) => unknown) | null>;
}

const states = new WeakMap<object, FakeState>();

/** What every fake's class adds on top of the app's WebSocket prototype. */
function fakeClass(Native: new (...args: unknown[]) => object) {
  const state = (self: object) => {
    const s = states.get(self);
    if (!s) throw new TypeError('Illegal invocation');
    return s;
  };
  class MockedWebSocket extends EventTarget {}
  Object.setPrototypeOf(MockedWebSocket.prototype, Native.prototype);
  const proto = MockedWebSocket.prototype as unknown as Record<string, unknown>;
  for (const name of ['url', 'protocol', 'readyState', 'bufferedAmount'] as const) {
    Object.defineProperty(proto, name, {
      get: function (this: object) {
        return state(this)[name];
      },
      configurable: true,
    });
  }
  Object.defineProperty(proto, 'extensions', { get: () => '', configurable: true });
  Object.defineProperty(proto, 'binaryType', {
    get(this: object) {
      return state(this).binaryType;
    },
    set(this: object, value: string) {
      if (value === 'blob' || value === 'arraybuffer' || value === 'nodebuffer') state(this).binaryType = value;
    },
    configurable: true,
  });
  for (const type of ['open', 'message', 'error', 'close']) {
    Object.defineProperty(proto, `on${type}`, {
      get(this: object) {
        return state(this).handlers[type] ?? null;
      },
      set(this: object, handler: unknown) {
        const s = state(this);
        const had = type in s.handlers;
        s.handlers[type] = typeof handler === 'function' ? (handler as (e: Event) => unknown) : null;
        // An event handler attribute is one listener, added when first set (as the platform's are).
        if (!had) EventTarget.prototype.addEventListener.call(this, type, (e) => s.handlers[type]?.call(this, e));
      },
      configurable: true,
    });
  }
  return MockedWebSocket;
}

const classes = new WeakMap<object, new () => EventTarget>();

/**
 * A WebSocket of the app's class (`instanceof WebSocket` holds) that plays the rule: it opens after
 * the rule's delay, delivers its messages, then closes as the rule says (or fails, for a network
 * error). What the app sends is recorded and goes nowhere.
 */
export function fakeWebSocket(
  Native: new (...args: unknown[]) => object,
  args: unknown[],
  rule: MockRule,
  recorder: SocketRecorder,
): object {
  let Mocked = classes.get(Native);
  if (!Mocked) classes.set(Native, (Mocked = fakeClass(Native)));
  const socket = new Mocked();
  const base = (globalThis as { location?: { href: string } }).location?.href;
  const url = new URL(String(args[0]), base).href;
  const protocols = args[1];
  const requested = typeof protocols === 'string' ? [protocols] : Array.isArray(protocols) ? protocols.map(String) : [];
  const s: FakeState = {
    url,
    protocol: '',
    readyState: CONNECTING,
    binaryType: 'blob',
    bufferedAmount: 0,
    handlers: {},
  };
  states.set(socket, s);
  const mark = { ruleId: rule.id, ruleName: rule.name };
  const deliver = (data: string | Uint8Array) => {
    if (s.readyState !== OPEN) throw new Error('the WebSocket is not open');
    const value =
      typeof data === 'string' ? data : s.binaryType === 'blob' ? new Blob([data as BlobPart]) : data.slice().buffer;
    obs?.message(seen('received', value, Number.MAX_SAFE_INTEGER));
    socket.dispatchEvent(messageEvent(value));
  };
  const headers: RawHeaders = requested.length ? [['sec-websocket-protocol', requested.join(', ')]] : [];
  const obs = recorder.observe({ initiator: 'websocket', method: 'GET', url, headers, mock: mark, inject: deliver });
  const close = (code: number, reason: string, wasClean: boolean) => {
    if (s.readyState === CLOSED) return;
    s.readyState = CLOSED;
    const event = Object.assign(new Event('close'), { code, reason, wasClean });
    if (wasClean) obs?.complete({ close: { code, reason, wasClean } });
    socket.dispatchEvent(event);
  };
  (socket as unknown as { send(data: unknown): void }).send = (data: unknown) => {
    if (s.readyState === CONNECTING) throw new DOMException('Still in CONNECTING state.', 'InvalidStateError');
    if (s.readyState !== OPEN) return;
    obs?.message(seen('sent', data, Number.MAX_SAFE_INTEGER));
  };
  (socket as unknown as { close(code?: number, reason?: string): void }).close = (code?: number, reason = '') => {
    if (code !== undefined && code !== 1000 && (code < 3000 || code > 4999)) {
      throw new DOMException(
        `The close code must be either 1000, or between 3000 and 4999. ${code} is neither.`,
        'InvalidAccessError',
      );
    }
    if (s.readyState >= CLOSING) return;
    s.readyState = CLOSING;
    setTimeout(() => close(code ?? 1005, reason, true), 0);
  };
  for (const name of ['send', 'close']) {
    Object.defineProperty(socket, name, { enumerable: false });
  }
  const action = rule.action;
  void (async () => {
    await sleep(action.delayMs);
    if (s.readyState !== CONNECTING) return;
    if (action.type !== 'websocket') {
      // A network error: the connection never opens.
      const error = Object.assign(
        new Error(action.type === 'networkError' ? (action.message ?? 'mocked network error') : 'mocked'),
        {
          code: action.type === 'networkError' ? action.code : undefined,
        },
      );
      obs?.fail(error, false, { close: { code: 1006, reason: '', wasClean: false } });
      socket.dispatchEvent(new Event('error'));
      s.readyState = CLOSED;
      socket.dispatchEvent(Object.assign(new Event('close'), { code: 1006, reason: '', wasClean: false }));
      return;
    }
    s.protocol = requested[0] ?? '';
    s.readyState = OPEN;
    obs?.response({
      status: 101,
      statusText: 'Switching Protocols',
      headers: s.protocol ? [['sec-websocket-protocol', s.protocol]] : [],
    });
    socket.dispatchEvent(new Event('open'));
    await play(action, (data) => {
      if (s.readyState === OPEN) deliver(data);
      return s.readyState === OPEN;
    });
    if (action.close && s.readyState === OPEN) {
      await sleep(action.close.delayMs);
      if (s.readyState === OPEN) close(action.close.code ?? 1000, action.close.reason ?? '', true);
    }
  })();
  return socket;
}

/** Sends the script's messages at their pace while `send` says the socket is open. */
async function play(script: Script, send: (data: string | Uint8Array) => boolean): Promise<void> {
  for (const m of script.messages ?? []) {
    await sleep(m.delayMs);
    if (!send(m.base64 ? base64ToBytes(m.data) : m.data)) return;
  }
}

function messageEvent(data: unknown): Event {
  const Message = (globalThis as { MessageEvent?: typeof MessageEvent }).MessageEvent;
  return Message ? new Message('message', { data }) : Object.assign(new Event('message'), { data });
}

// ─── The ws package: a connection that answers as a WebSocket server ─────────

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

interface NodeDuplex {
  push(chunk: Uint8Array | null): boolean;
  destroy(error?: Error): void;
  destroyed: boolean;
}

type DuplexClass = new (options: {
  read(): void;
  write(chunk: Uint8Array, encoding: string, done: (error?: Error | null) => void): void;
  final?(done: () => void): void;
}) => NodeDuplex;

/**
 * The connection Node's http uses for a ws handshake a rule answers (as `createConnection` gives
 * it): it reads the upgrade request, answers 101 (or fails, for a network error), sends the rule's
 * messages as server frames and its close, and answers the client's close and pings.
 */
export function fakeServerConnection(rule: MockRule): NodeDuplex {
  const stream = builtin<{ Duplex: DuplexClass }>('node:stream');
  const crypto = builtin<{ createHash(name: string): { update(t: string): { digest(e: string): string } } }>(
    'node:crypto',
  );
  if (!stream || !crypto) throw new Error('this Node cannot make a mocked WebSocket connection');
  let head = '';
  let upgraded = false;
  let pending: Uint8Array = new Uint8Array();
  let closing = false;
  const action = rule.action;
  const socket = new stream.Duplex({
    read() {},
    write(chunk, _encoding, done) {
      done();
      if (!upgraded) {
        head += new TextDecoder('latin1').decode(chunk);
        if (!head.includes('\r\n\r\n')) return;
        upgraded = true;
        void answer(head);
        return;
      }
      pending = concat(pending, chunk);
      for (let frame = readFrame(pending); frame; frame = readFrame(pending)) {
        pending = pending.subarray(frame.length);
        if (frame.opcode === 8) {
          // The client's close: answered with the same code, then the server hangs up.
          if (!closing) push(frame.opcode, frame.payload);
          closing = true;
          setTimeout(() => socket.push(null), 0);
        } else if (frame.opcode === 9) push(10, frame.payload);
      }
    },
    final(done) {
      done();
    },
  });
  Object.assign(socket, {
    setTimeout() {},
    setNoDelay() {},
    setKeepAlive() {},
    ref() {},
    unref() {},
    remoteAddress: '127.0.0.1',
    remotePort: 0,
  });
  const push = (opcode: number, payload: Uint8Array) => {
    if (!socket.destroyed) socket.push(frameOf(opcode, payload));
  };
  const answer = async (request: string) => {
    await sleep(action.delayMs);
    if (socket.destroyed) return;
    if (action.type !== 'websocket') {
      const message = action.type === 'networkError' ? (action.message ?? 'mocked network error') : 'mocked';
      socket.destroy(
        Object.assign(new Error(message), { code: action.type === 'networkError' ? action.code : undefined }),
      );
      return;
    }
    const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(request)?.[1]?.trim();
    const key = header('sec-websocket-key') ?? '';
    const protocol = header('sec-websocket-protocol')?.split(',')[0]?.trim();
    const accept = crypto
      .createHash('sha1')
      .update(key + GUID)
      .digest('base64');
    socket.push(
      text.encode(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n${
          protocol ? `Sec-WebSocket-Protocol: ${protocol}\r\n` : ''
        }\r\n`,
      ),
    );
    await play(action, (data) => {
      if (closing || socket.destroyed) return false;
      push(typeof data === 'string' ? 1 : 2, typeof data === 'string' ? text.encode(data) : data);
      return true;
    });
    if (action.close && !closing) {
      await sleep(action.close.delayMs);
      if (closing || socket.destroyed) return;
      closing = true;
      const reason = text.encode(action.close.reason ?? '');
      const payload = new Uint8Array(2 + reason.byteLength);
      new DataView(payload.buffer).setUint16(0, action.close.code ?? 1000);
      payload.set(reason, 2);
      push(8, payload);
    }
  };
  return socket;
}

/** A server frame: FIN, the opcode, the length, unmasked. */
function frameOf(opcode: number, payload: Uint8Array): Uint8Array {
  const n = payload.byteLength;
  const size = n < 126 ? 2 : n < 65_536 ? 4 : 10;
  const frame = new Uint8Array(size + n);
  frame[0] = 0x80 | opcode;
  const view = new DataView(frame.buffer);
  if (n < 126) frame[1] = n;
  else if (n < 65_536) {
    frame[1] = 126;
    view.setUint16(2, n);
  } else {
    frame[1] = 127;
    view.setBigUint64(2, BigInt(n));
  }
  frame.set(payload, size);
  return frame;
}

/** The first whole (masked) client frame in `bytes`, unmasked; undefined until one is whole. */
function readFrame(bytes: Uint8Array): { opcode: number; payload: Uint8Array; length: number } | undefined {
  if (bytes.byteLength < 2) return undefined;
  const opcode = bytes[0]! & 0x0f;
  const masked = (bytes[1]! & 0x80) !== 0;
  let n = bytes[1]! & 0x7f;
  let at = 2;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (n === 126) {
    if (bytes.byteLength < 4) return undefined;
    n = view.getUint16(2);
    at = 4;
  } else if (n === 127) {
    if (bytes.byteLength < 10) return undefined;
    n = Number(view.getBigUint64(2));
    at = 10;
  }
  const mask = masked ? bytes.subarray(at, at + 4) : undefined;
  if (mask) at += 4;
  if (bytes.byteLength < at + n) return undefined;
  const payload = bytes.slice(at, at + n);
  if (mask) for (let i = 0; i < payload.byteLength; i++) payload[i]! ^= mask[i % 4]!;
  return { opcode, payload, length: at + n };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  if (a.byteLength === 0) return new Uint8Array(b);
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}
