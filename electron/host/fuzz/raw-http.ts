import { connect } from 'node:net';

export interface RawAnswer {
  /** The status of the HTTP response, if one came before the socket closed. */
  status?: number;
  /** Everything received, as latin1 text. */
  text: string;
}

/**
 * Writes `request` as-is to 127.0.0.1:`port` (no client library to tidy it up) and collects what comes
 * back until the server closes, or `settleMs` after the first bytes of an answer (a 101 stays open).
 */
export function rawRequest(port: number, request: string | Buffer, { settleMs = 50, timeoutMs = 3000 } = {}) {
  return new Promise<RawAnswer>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let settle: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(settle);
      clearTimeout(timer);
      socket.destroy();
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      resolve({ status: status ? Number(status) : undefined, text });
    };
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(`no answer and no close within ${timeoutMs} ms to ${JSON.stringify(String(request).slice(0, 80))}`),
      );
    }, timeoutMs);
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
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
