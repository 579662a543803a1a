import { connect } from 'node:net';

export interface RawAnswer {
  /** The status of the HTTP response, if one came before the socket closed. */
  status?: number;
  /** Nothing came back for `idleMs`: the server waits for the rest of an incomplete request. */
  waiting?: boolean;
  /** Everything received, as latin1 text. */
  text: string;
}

/**
 * Writes `request` as-is to 127.0.0.1:`port` (no client library to tidy it up) and collects what comes
 * back until a response head is complete, the server closes, or `settleMs` after bytes that are not one.
 */
export function rawRequest(
  port: number,
  request: string | Buffer,
  { settleMs = 50, timeoutMs = 3000, idleMs }: { settleMs?: number; timeoutMs?: number; idleMs?: number } = {},
) {
  return new Promise<RawAnswer>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let settle: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(idle);
      clearTimeout(settle);
      clearTimeout(timer);
      socket.destroy();
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      resolve({ status: status ? Number(status) : undefined, text });
    };
    const idle =
      idleMs === undefined
        ? undefined
        : setTimeout(() => {
            if (text) return;
            clearTimeout(timer);
            socket.destroy();
            resolve({ text, waiting: true });
          }, idleMs);
    const timer = setTimeout(() => {
      clearTimeout(idle);
      socket.destroy();
      reject(
        new Error(`no answer and no close within ${timeoutMs} ms to ${JSON.stringify(String(request).slice(0, 80))}`),
      );
    }, timeoutMs);
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      // A whole response head is enough; a kept-alive or upgraded socket would not close by itself.
      if (/^HTTP\/1\.[01] \d{3}/.test(text) && text.includes('\r\n\r\n')) return done();
      clearTimeout(settle);
      settle = setTimeout(done, settleMs);
    });
    socket.on('close', done);
    socket.on('error', () => {
      // a reset counts as closed: 'close' follows
    });
    socket.write(request);
  });
}

export const WS_KEY = 'dGhlIHNhbXBsZSBub25jZQ==';

/** A WebSocket upgrade request line and headers for `target`, ending the head. */
export function upgradeRequest(target: string, headers: Record<string, string> = {}): string {
  const all = {
    Host: '127.0.0.1',
    Upgrade: 'websocket',
    Connection: 'Upgrade',
    'Sec-WebSocket-Key': WS_KEY,
    'Sec-WebSocket-Version': '13',
    ...headers,
  };
  return `GET ${target} HTTP/1.1\r\n${Object.entries(all)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
}
