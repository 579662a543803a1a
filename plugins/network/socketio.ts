// socket.io and engine.io framing, read from the text of a WebSocket message, for the window and
// the tools. engine.io puts a one-digit packet type before each
// packet; socket.io's packets ride in engine.io "message" packets:
// `<type>[<attachments>-][<namespace>,][<ack id>][<JSON>]`.

import type { Message, SocketIoFrame } from './protocol.js';

type EnginePacket = SocketIoFrame['engine'];
type SocketPacket = NonNullable<SocketIoFrame['socket']>;

const ENGINE: EnginePacket[] = ['open', 'close', 'ping', 'pong', 'message', 'upgrade', 'noop'];
const SOCKET: SocketPacket[] = ['CONNECT', 'DISCONNECT', 'EVENT', 'ACK', 'CONNECT_ERROR', 'BINARY_EVENT', 'BINARY_ACK'];

/** True for a connection that speaks engine.io (socket.io's transport): its URL says so. */
export function isEngineIo(url: string): boolean {
  return /\/(socket|engine)\.io\/|[?&]EIO=\d/.test(url);
}

/** A socket.io (engine.io) connection's messages with their frames decoded; others as they are. */
export function withFrames(messages: Message[], url: string | undefined): Message[] {
  if (!url || !isEngineIo(url)) return messages;
  const socketIo = url.includes('/socket.io/');
  return messages.map((m) => {
    const frame = m.encoding === 'text' ? decodeEngineIo(m.data, socketIo) : undefined;
    return frame ? { ...m, socketio: frame } : m;
  });
}

/** The frame a text message holds, or undefined when it is not engine.io framing. */
export function decodeEngineIo(text: string, socketIo = true): SocketIoFrame | undefined {
  const engine = ENGINE[text.charCodeAt(0) - 48];
  if (!engine) return undefined;
  const rest = text.slice(1);
  if (engine !== 'message') {
    const data = rest ? parse(rest) : undefined;
    return { engine, ...(data !== undefined ? { data } : rest ? { data: rest } : {}) };
  }
  if (!socketIo) return { engine, ...(rest ? { data: rest } : {}) };
  return { engine, ...decodeSocketIo(rest) };
}

function decodeSocketIo(text: string): Omit<SocketIoFrame, 'engine'> {
  const socket = SOCKET[text.charCodeAt(0) - 48];
  if (!socket) return { data: text };
  let i = 1;
  let attachments: number | undefined;
  if (socket === 'BINARY_EVENT' || socket === 'BINARY_ACK') {
    const dash = text.indexOf('-', i);
    if (dash > i && /^\d+$/.test(text.slice(i, dash))) {
      attachments = Number(text.slice(i, dash));
      i = dash + 1;
    }
  }
  let namespace: string | undefined;
  if (text[i] === '/') {
    const comma = text.indexOf(',', i);
    namespace = comma < 0 ? text.slice(i) : text.slice(i, comma);
    i = comma < 0 ? text.length : comma + 1;
  }
  let digits = '';
  while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) digits += text[i++];
  const body = text.slice(i);
  const data = body ? parse(body) : undefined;
  const out: Omit<SocketIoFrame, 'engine'> = { socket };
  if (namespace && namespace !== '/') out.namespace = namespace;
  if (digits) out.ack = Number(digits);
  if (attachments !== undefined) out.attachments = attachments;
  if ((socket === 'EVENT' || socket === 'BINARY_EVENT') && Array.isArray(data) && typeof data[0] === 'string') {
    out.event = data[0];
    out.data = data.slice(1);
  } else if (data !== undefined) out.data = data;
  else if (body) out.data = body;
  return out;
}

/** One line for a frame: `socket.io EVENT "chat" [{"text":"hi"}]`, `engine.io ping`. */
export function describeFrame(frame: SocketIoFrame): string {
  if (!frame.socket) return `engine.io ${frame.engine}${frame.data !== undefined ? ` ${short(frame.data)}` : ''}`;
  const parts = [`socket.io ${frame.socket}`];
  if (frame.namespace) parts.push(frame.namespace);
  if (frame.event !== undefined) parts.push(JSON.stringify(frame.event));
  if (frame.ack !== undefined) parts.push(`#${frame.ack}`);
  if (frame.data !== undefined) parts.push(short(frame.data));
  if (frame.attachments) parts.push(`+${frame.attachments} binary`);
  return parts.join(' ');
}

function short(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
