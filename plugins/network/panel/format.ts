import { type Grpc, isFailure, type TransactionSummary } from '../protocol.js';

export { formatClock } from '../../../renderer/src/time.js';

export function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return '';
  if (ms < 10) return `${Math.round(ms * 10) / 10} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** What the status column says: the code, or why there is none. */
export function statusLabel(tx: Pick<TransactionSummary, 'state' | 'status'>): string {
  if (tx.state === 'failed') return 'failed';
  if (tx.status === undefined) return 'pending';
  return String(tx.status);
}

export function statusTone(
  tx: Pick<TransactionSummary, 'state' | 'status' | 'graphql' | 'grpc'>,
): 'failed' | 'error' | 'pending' | 'ok' {
  if (tx.state === 'failed') return 'failed';
  if (tx.status === undefined) return 'pending';
  return isFailure(tx.state, tx.status, tx.graphql, tx.grpc) ? 'error' : 'ok';
}

/** gRPC's status names (grpc/doc/statuscodes.md), by code. */
const GRPC_CODES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

/** "14 UNAVAILABLE: the message" for a gRPC answer's status. */
export function grpcLabel(grpc: Grpc): string {
  const name = GRPC_CODES[grpc.status];
  return `${grpc.status}${name ? ` ${name}` : ''}${grpc.message ? `: ${grpc.message}` : ''}`;
}

/** The URL split for the table: the path in front, the origin after it. */
export function splitUrl(url: string): { path: string; origin: string } {
  try {
    const u = new URL(url);
    return { path: `${u.pathname}${u.search}` || '/', origin: u.host };
  } catch {
    return { path: url, origin: '' };
  }
}

/** The short type for the table, from a content type. */
export function shortType(contentType: string | undefined): string {
  if (!contentType) return '';
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  if (mime.includes('json')) return 'json';
  if (mime.startsWith('image/')) return mime.slice(6);
  if (mime === 'text/html') return 'html';
  if (mime.includes('javascript')) return 'js';
  if (mime === 'text/css') return 'css';
  if (mime.startsWith('text/')) return 'text';
  return mime.split('/')[1] ?? mime;
}
