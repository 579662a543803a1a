import { createHmac, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from '../data-dir.js';
import { loadOrCreateSecretFile, newSecret, secretMatches } from '../secrets.js';

/** How long a link made for one window (the rotate button's own) may wait to be opened. */
const ISSUED_LINK_TTL_MS = 60_000;
/** Links made and not opened yet, at most (the oldest go first). */
const MAX_OPEN_LINKS = 16;

/**
 * Who may open the headless window's bridge. The printed UI URL carries a **one-time** token: the
 * first GET of a page with it exchanges it for a session cookie (HttpOnly, SameSite=Strict, path
 * `/bridge`) and the URL is worthless after that, wherever it was copied or synced to. The cookie is
 * signed with the UI key in `<data-dir>/ui-token` (mode 0600), so an open window reconnects across
 * restarts; a new key (`--new-ui-token`, the window's button) ends every window's access at once.
 * The next unused link is always in `instance.json` (`uiUrl`, what `porthole ui` opens).
 */
export class UiAuth {
  private key: string | undefined;
  /** Unused link tokens and when they stop working (Infinity: the published one). */
  private readonly links = new Map<string, number>();
  private published: string | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly dataDir: string,
    /** A fixed key (tests, embedders); else the file. */
    private readonly fixedKey?: string,
  ) {}

  private get keyFile(): string {
    return join(this.dataDir, 'ui-token');
  }

  /** The signing key (read or made when first needed: the data dir is made at start). */
  get uiKey(): string {
    this.key ??= this.fixedKey ?? loadOrCreateSecretFile(this.keyFile);
    return this.key;
  }

  /** The token of the link to publish (printed, in instance.json): unused, until it is used or rotated. */
  get linkToken(): string {
    if (!this.published) {
      this.published = newSecret();
      this.links.set(this.published, Number.POSITIVE_INFINITY);
    }
    return this.published;
  }

  /** A link token for one window to open soon (after a rotation, its own way back in). */
  issue(): string {
    const token = newSecret();
    this.links.set(token, Date.now() + ISSUED_LINK_TTL_MS);
    this.prune();
    return token;
  }

  /** Exchanges a link token for a cookie value, once; undefined when it is unknown, used or expired. */
  exchange(token: string): string | undefined {
    let found: string | undefined;
    for (const candidate of this.links.keys()) if (secretMatches(candidate, token)) found = candidate;
    if (!found) return undefined;
    const expires = this.links.get(found)!;
    this.links.delete(found);
    if (found === this.published) {
      this.published = undefined;
      this.changed();
    }
    if (expires < Date.now()) return undefined;
    const nonce = newSecret(18);
    return `${nonce}.${this.sign(nonce)}`;
  }

  /** Whether a cookie value was made by `exchange` under the current key. */
  validCookie(value: string | undefined): boolean {
    if (!value) return false;
    const dot = value.indexOf('.');
    if (dot <= 0 || value.length > 200) return false;
    const expected = Buffer.from(this.sign(value.slice(0, dot)));
    const given = Buffer.from(value.slice(dot + 1));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** A new key and a new published link: every cookie and every unused link stop working. */
  rotate(): void {
    const key = newSecret();
    if (!this.fixedKey) writeFileAtomic(this.keyFile, `${key}\n`, 0o600);
    this.key = key;
    this.links.clear();
    this.published = undefined;
    this.changed();
  }

  /** What must never show in a log, a tool result or the history. */
  secrets(): string[] {
    return [this.uiKey, ...this.links.keys()];
  }

  /** The published link changed (used, or rotated). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private sign(nonce: string): string {
    return createHmac('sha256', this.uiKey).update(`porthole-ui:${nonce}`).digest('base64url');
  }

  private prune(): void {
    const now = Date.now();
    for (const [token, expires] of this.links) if (expires < now) this.links.delete(token);
    for (const token of this.links.keys()) {
      if (this.links.size <= MAX_OPEN_LINKS) break;
      if (token !== this.published) this.links.delete(token);
    }
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/** The cookie's name: per control port, as cookies are shared by every port of a host. */
export function uiCookieName(host: string | undefined): string {
  const port = /:(\d{1,5})$/.exec(host ?? '')?.[1] ?? '80';
  return `porthole_ui_${port}`;
}

/** One cookie's value from a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
