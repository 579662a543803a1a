import type { Duplex } from 'node:stream';

const REASONS = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
} as const;

/** Answers a WebSocket upgrade with a plain-text HTTP error and closes the socket. */
export function refuseUpgrade(
  socket: Duplex,
  status: keyof typeof REASONS,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = `${message}\n`;
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
}
