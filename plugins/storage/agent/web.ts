import type { StorageAdapter } from './adapter.js';

type CookieInfo = {
  name: string;
  value: string;
  domain?: string | null;
  path?: string;
  expires?: number | null;
  secure?: boolean;
  sameSite?: string;
  partitioned?: boolean;
};
type CookieStore = {
  get(name: string): Promise<CookieInfo | null>;
  set(options: CookieInfo): Promise<void>;
  delete(options: { name: string; path?: string; domain?: string }): Promise<void>;
};
const g = globalThis as unknown as { document?: Document; cookieStore?: CookieStore } & Record<string, unknown>;

/** localStorage or sessionStorage as an adapter; reading the global may throw (sandboxed frames, blocked site data). */
export function webStorage(name: 'localStorage' | 'sessionStorage'): StorageAdapter {
  const s = () => g[name] as Storage;
  return {
    name,
    keys: () => {
      const store = s();
      const keys = [];
      for (let i = 0; i < store.length; i++) {
        const key = store.key(i);
        if (key !== null) keys.push({ key, size: key.length + (store.getItem(key)?.length ?? 0) });
      }
      return keys;
    },
    get: (key) => s().getItem(key),
    set: (key, value) => s().setItem(key, value),
    remove: (key) => s().removeItem(key),
    clear: () => s().clear(),
  };
}

/** The cookies the page's scripts can read, as `name=value` pairs in document.cookie's order. */
function pageCookies(): [string, string][] {
  const seen = new Map<string, number>();
  const out: [string, string][] = [];
  for (const part of (g.document?.cookie ?? '').split(';')) {
    if (!part.trim()) continue;
    const at = part.indexOf('=');
    const name = (at < 0 ? '' : part.slice(0, at)).trim();
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    // Two cookies of one name (other paths or domains): the second is listed as `name (2)`.
    out.push([n > 1 ? `${name} (${n})` : name, at < 0 ? part.trim() : part.slice(at + 1).trim()]);
  }
  return out;
}

const pathsOf = (path: string) => {
  const parts = path.split('/').filter(Boolean);
  return ['/', ...parts.map((_, i) => `/${parts.slice(0, i + 1).join('/')}`)];
};

/**
 * document.cookie as an adapter. With the Cookie Store API (Chromium), a cookie's attributes are
 * shown and kept when it is changed or removed; without it a write uses path=/.
 */
export function cookies(): StorageAdapter {
  const doc = () => g.document!;
  const find = (key: string) => pageCookies().find(([name]) => name === key)?.[1];
  const info = async (name: string) => {
    try {
      return (await g.cookieStore?.get(name)) ?? undefined;
    } catch {
      return undefined;
    }
  };
  return {
    name: 'cookies',
    note: 'The cookies the page can read (document.cookie). HttpOnly cookies exist but are invisible to the page, so the app cannot list them; the browser’s own DevTools (Application › Cookies) shows them.',
    keys: () => pageCookies().map(([key, value]) => ({ key, size: key.length + value.length })),
    get: find,
    meta: async (key) => {
      const c = await info(key);
      if (!c) return undefined;
      const { name: _name, value: _value, ...rest } = c;
      return { ...rest, expires: typeof c.expires === 'number' ? new Date(c.expires).toISOString() : 'session' };
    },
    set: async (name, value) => {
      if ([...value].some((c) => c === ';' || c < ' ' || c === '\u007f') || /[=;\s]/.test(name) || !name) {
        throw new Error(
          'a cookie value cannot hold ";" or control characters, nor a name "=", ";" or spaces: encode the value first (encodeURIComponent)',
        );
      }
      const existing = await info(name);
      if (g.cookieStore) {
        const { domain, path, expires, sameSite, partitioned } = existing ?? {};
        await g.cookieStore.set({
          name,
          value,
          path: path ?? '/',
          ...(domain ? { domain } : {}),
          ...(typeof expires === 'number' ? { expires } : {}),
          ...(sameSite ? { sameSite } : {}),
          ...(partitioned ? { partitioned } : {}),
        });
      } else {
        doc().cookie = `${name}=${value}; path=/`;
      }
      if (find(name) !== value) {
        throw new Error(
          `the browser did not keep cookie "${name}" (its size, a Secure cookie on http, or the browser's cookie settings)`,
        );
      }
    },
    remove: async (key) => {
      const name = key.replace(/ \(\d+\)$/, '');
      const existing = await info(name);
      if (g.cookieStore && existing) {
        await g.cookieStore.delete({
          name,
          path: existing.path ?? '/',
          ...(existing.domain ? { domain: existing.domain } : {}),
        });
      } else {
        for (const path of pathsOf(location.pathname)) {
          doc().cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=${path}`;
        }
      }
      if (find(key) !== undefined) {
        throw new Error(
          `cookie "${name}" is still there: it was set for a path or domain this page cannot name (a parent domain or another path)`,
        );
      }
    },
  };
}
