import { join } from 'node:path';
import { loadOrCreateSecretFile, readSecretFile } from '../secrets.js';

export const tokenPath = (dataDir: string) => join(dataDir, 'mcp-token');

/** The MCP bearer token, written on first run into `<data-dir>/mcp-token` (mode 0600). */
export const loadOrCreateToken = (dataDir: string) => loadOrCreateSecretFile(tokenPath(dataDir));

/** The token in the data dir, if there is one. */
export const readToken = (dataDir: string) => readSecretFile(tokenPath(dataDir));

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1];
}
