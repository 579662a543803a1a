import * as crypto from 'node:crypto';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from './data-dir.js';

/** A random secret (base64url) for tokens and resume secrets. */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Compares in constant time (hashing first, so the length of the secret does not leak either). */
export function secretMatches(expected: string, given: string): boolean {
  return timingSafeEqual(expectedDigest(expected), digest(given));
}

/** One-shot `crypto.hash` (Node 20.12+; about half the cost of a Hash object), else createHash. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash;

function digest(text: string): Buffer {
  return oneShot ? oneShot('sha256', text, 'buffer') : createHash('sha256').update(text).digest();
}

/** The last expected secret's digest: the same token is checked on every MCP request. */
let lastExpected: { secret: string; digest: Buffer } | undefined;

function expectedDigest(secret: string): Buffer {
  if (lastExpected?.secret !== secret) lastExpected = { secret, digest: digest(secret) };
  return lastExpected.digest;
}

/** The secret kept in a file, if there is one. */
export function readSecretFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Shortest secret accepted from a file (a 32-byte secret in base64url has 43). */
export const MIN_SECRET_CHARS = 32;

/** A secret file the user wrote by hand is too weak to use; it is not replaced behind their back. */
export class WeakSecretError extends Error {
  constructor(path: string, length: number) {
    super(
      `${path} holds a token of ${length} characters; tokens must have at least ${MIN_SECRET_CHARS}. Write a longer one there, or delete the file and a strong one is made at the next start`,
    );
    this.name = 'WeakSecretError';
  }
}

/** The secret in `path` (mode 0600), made on first run and kept across runs; a short one is refused. */
export function loadOrCreateSecretFile(path: string): string {
  const existing = readSecretFile(path);
  if (existing && existing.length < MIN_SECRET_CHARS) throw new WeakSecretError(path, existing.length);
  if (existing) {
    try {
      chmodSync(path, 0o600);
    } catch {
      // not ours to fix (another owner, a read-only dir); the secret still works
    }
    return existing;
  }
  const secret = newSecret();
  writeFileAtomic(path, `${secret}\n`, 0o600);
  return secret;
}
