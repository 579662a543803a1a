import { makingOwnLink } from '../../../agent/websocket.js';
import type { Handshake, Hub, RawHeaders, SeenMessage } from './observed.js';

// The WHATWG WebSocket, observed: a page's, and Node's own global one (undici inside). The global
// constructor is replaced by a Proxy of it that makes the very same socket (same class, prototype,
// statics, `instanceof`), and each socket is followed with listeners of its own (open, message,
// error, close) that only note what they see; `send` on the prototype notes what it sent after
// sending it. Nothing about the connection changes. The inspector's own link is never followed.
// In Node, the handshake's headers come from the undici tap (the socket's upgrade request).

interface Socket extends EventTarget {
  readonly url: string;
  readonly protocol: string;
  readonly extensions: string;
  binaryType: string;
  send(data: unknown): void;
}

type Constructor = new (...args: unknown[]) => Socket;

export function installWebSocketTap(hub: Hub): boolean {
  const g = globalThis as { WebSocket?: Constructor };
  const Native = g.WebSocket;
  if (typeof Native !== 'function') return false;
  if (hub.taps.has('websocket')) return true;
  hub.taps.add('websocket');
  const followed = new WeakMap<object, (data: unknown) => void>();
  const proto = Native.prototype as Socket;
  const send = proto.send;
  proto.send = function send_(this: Socket, ...args: unknown[]) {
    const result = send.apply(this, args as [unknown]);
    const sent = followed.get(this);
    if (sent) {
      try {
        sent(args[0]);
      } catch {
        // the capture's problem, never the app's
      }
    }
    return result;
  };
  const Tapped: Constructor = new Proxy(Native, {
    construct(target, args, newTarget): object {
      const mocked: object | undefined = hub.mockSocket?.(
        args,
        newTarget === Tapped ? target : (newTarget as Constructor),
      );
      if (mocked) return mocked;
      const socket = Reflect.construct(target, args, newTarget) as Socket;
      if (hub.active && !makingOwnLink()) {
        try {
          follow(hub, socket, args, followed);
        } catch {
          // the capture's problem, never the app's
        }
      }
      return socket;
    },
  });
  // The global (and `WebSocket.prototype.constructor`) now name the Proxy, which makes the same sockets.
  g.WebSocket = Tapped;
  try {
    Object.defineProperty(proto, 'constructor', { value: Tapped, writable: true, configurable: true });
  } catch {
    // a frozen prototype keeps its constructor
  }
  return true;
}

function follow(hub: Hub, socket: Socket, args: unknown[], followed: WeakMap<object, (data: unknown) => void>): void {
  const url = socket.url;
  const protocols = args[1];
  const headers: RawHeaders = [];
  if (typeof protocols === 'string' ? protocols : Array.isArray(protocols) && protocols.length > 0) {
    headers.push(['sec-websocket-protocol', Array.isArray(protocols) ? protocols.join(', ') : String(protocols)]);
  }
  const cap = () => hub.maxMessageBytes;
  const inject = (data: string | Uint8Array) => {
    const value =
      typeof data === 'string'
        ? data
        : socket.binaryType === 'blob'
          ? new Blob([data as BlobPart])
          : data.slice().buffer;
    socket.dispatchEvent(new MessageEvent('message', { data: value }));
  };
  const o = hub.observe({ initiator: 'websocket', method: 'GET', url, headers, inject });
  if (!o) return;
  const handshake: Handshake = { url: url.replace(/^ws/i, 'http'), obs: o, responded: false };
  hub.handshakes.push(handshake);
  const settled = () => {
    const at = hub.handshakes.indexOf(handshake);
    if (at >= 0) hub.handshakes.splice(at, 1);
  };
  let opened = false;
  let errored = false;
  followed.set(socket, (data) => o.message(seen('sent', data, cap())));
  socket.addEventListener('open', () => {
    opened = true;
    settled();
    if (handshake.responded) return;
    const known: RawHeaders = [];
    if (socket.protocol) known.push(['sec-websocket-protocol', socket.protocol]);
    if (socket.extensions) known.push(['sec-websocket-extensions', socket.extensions]);
    o.response({ status: 101, statusText: 'Switching Protocols', headers: known });
  });
  socket.addEventListener('message', (event) => {
    o.message(seen('received', (event as MessageEvent).data, cap()));
  });
  socket.addEventListener('error', () => {
    errored = true;
  });
  socket.addEventListener('close', (event) => {
    settled();
    followed.delete(socket);
    const { code, reason, wasClean } = event as CloseEvent;
    const close = { code, reason, wasClean };
    if (!opened) {
      o.fail(new Error('the WebSocket connection could not be opened (a page is not told why)'), false, { close });
    } else if (errored || !wasClean) {
      o.fail(new Error(`the WebSocket connection broke off (close code ${code})`), false, { close });
    } else {
      o.complete({ close });
    }
  });
}

/** A message as the app sent or got it, its bytes copied (up to `cap`) where the app could change them. */
export function seen(direction: 'sent' | 'received', data: unknown, cap: number): SeenMessage {
  const time = Date.now();
  if (typeof data === 'string') return { direction, time, opcode: 1, data };
  if (typeof Blob === 'function' && data instanceof Blob) return { direction, time, opcode: 2, data };
  if (data instanceof ArrayBuffer) {
    return { direction, time, opcode: 2, data: new Uint8Array(data.slice(0, cap)), size: data.byteLength };
  }
  if (ArrayBuffer.isView(data)) {
    const n = Math.min(data.byteLength, cap);
    const bytes = new Uint8Array(data.buffer, data.byteOffset, n).slice();
    return { direction, time, opcode: 2, data: bytes, size: data.byteLength };
  }
  return { direction, time, opcode: 1, data: String(data) };
}
