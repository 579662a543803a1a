import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../data-dir.js';

export const tokenPath = (dataDir: string) => join(dataDir, 'mcp-token');

/** The MCP bearer token, written on first run into `<data-dir>/mcp-token` (mode 0600). */
export function loadOrCreateToken(dataDir: string): string {
  const path = tokenPath(dataDir);
  const existing = readToken(dataDir);
  if (existing) {
    try {
      chmodSync(path, 0o600);
    } catch {
      // not ours to fix (another owner, a read-only dir); the token still works
    }
    return existing;
  }
  const token = randomBytes(32).toString('base64url');
  writeFileAtomic(path, `${token}\n`, 0o600);
  return token;
}

/** The token in the data dir, if there is one. */
export function readToken(dataDir: string): string | undefined {
  try {
    return readFileSync(tokenPath(dataDir), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Compares in constant time (hashing first, so the length of the token does not leak either). */
export function tokenMatches(expected: string, given: string): boolean {
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1];
}
