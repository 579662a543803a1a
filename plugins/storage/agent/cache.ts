import { MAX_KEY_CHARS } from '../constants.js';
import type { Area, Entry, KeyInfo } from '../protocol.js';
import { type AreaReader, breathe, explain, fail, nameOf, partsOf } from './area.js';
import { base64 } from './values.js';

// Cache Storage (service workers' caches) as areas `cacheStorage/<cache>`: keys are the cached
// requests' URLs, values the responses — status, headers, and the body, read only as far as asked.

const caches = () => (globalThis as { caches?: CacheStorage }).caches;
const TEXTUAL = /^text\/|json|javascript|ecmascript|xml|svg|x-www-form-urlencoded/i;

/** Every cache of the page's origin. */
export async function cacheAreas(): Promise<Area[]> {
  const storage = caches();
  if (!storage) return [];
  try {
    const areas: Area[] = [];
    for (const name of await storage.keys()) {
      const cache = await storage.open(name);
      areas.push({ area: nameOf('cacheStorage', name), kind: 'cacheStorage', count: (await cache.keys()).length });
    }
    return areas;
  } catch (e) {
    return [
      { area: 'cacheStorage', kind: 'cacheStorage', error: `the caches cannot be read here: ${(e as Error).message}` },
    ];
  }
}

const sizeOf = (res: Response) => {
  const length = Number(res.headers.get('content-length'));
  return res.headers.has('content-length') && Number.isFinite(length) ? { size: length } : {};
};

/** The body's text from `offset`, at most `maxChars` characters, reading no further than that. */
async function textOf(res: Response, offset: number, maxChars: number) {
  const reader = res.body?.getReader();
  if (!reader) return { text: '', ended: true };
  const decoder = new TextDecoder();
  let text = '';
  let ended = false;
  while (text.length < offset + maxChars) {
    const { done, value } = await reader.read();
    if (done) {
      text += decoder.decode();
      ended = true;
      break;
    }
    text += decoder.decode(value, { stream: true });
    await breathe();
  }
  if (!ended) await reader.cancel().catch(() => {});
  return {
    text: text.slice(offset, offset + maxChars),
    ended: ended && text.length <= offset + maxChars,
    length: text.length,
  };
}

async function entryOf(key: string, res: Response | undefined, offset: number, maxChars: number): Promise<Entry> {
  if (!res) return { key, found: false };
  const type = res.headers.get('content-type') ?? '';
  const meta = {
    status: res.status,
    statusText: res.statusText,
    type: res.type,
    url: res.url,
    headers: Object.fromEntries(res.headers),
  };
  if (res.type === 'opaque') {
    return {
      key,
      found: true,
      meta,
      note: 'an opaque (no-cors) response: its status, headers and body are hidden from the page',
    };
  }
  if (!type || TEXTUAL.test(type)) {
    const { text, ended, length } = await textOf(res, offset, maxChars);
    const whole = offset === 0 && ended;
    return {
      key,
      found: true,
      ...sizeOf(res),
      text,
      meta,
      ...(whole ? {} : { offset, more: !ended, ...(ended ? { length } : {}) }),
    };
  }
  const blob = await res.blob();
  const head = base64(new Uint8Array(await blob.slice(0, 48).arrayBuffer()));
  return {
    key,
    found: true,
    size: blob.size,
    value: { $: 'binary', cls: 'Response', type, size: blob.size, head },
    meta,
  };
}

/** One cache, named `cacheStorage/<cache>`. */
export function cacheStore(area: string): AreaReader | undefined {
  const parts = partsOf(area, 'cacheStorage');
  const storage = caches();
  if (parts?.length !== 1 || !storage) return undefined;
  const [name] = parts as [string];
  const open = async () => {
    if (!(await storage.has(name)))
      throw fail(`the app has no cache "${name}" (it was deleted); storage_list lists the areas`);
    return storage.open(name);
  };
  const urls = async (cache: Cache) => [...new Set((await cache.keys()).map((r) => r.url))].sort();
  return {
    async keys({ prefix, after, limit }) {
      const cache = await open();
      const all = await urls(cache);
      const matched = prefix ? all.filter((u) => u.startsWith(prefix)) : all;
      const start = after === undefined ? 0 : matched.findIndex((u) => u > after);
      const page = start < 0 ? [] : matched.slice(start, start + limit);
      const keys: KeyInfo[] = [];
      for (const url of page) {
        const res = await cache.match(url);
        if (!res) continue;
        const key = url.length > MAX_KEY_CHARS ? { key: url.slice(0, MAX_KEY_CHARS), keyCut: true } : { key: url };
        keys.push({
          ...key,
          ...sizeOf(res),
          preview: `${res.status || res.type} ${res.headers.get('content-type') ?? ''}`.trim(),
        });
      }
      const more = start >= 0 && start + limit < matched.length;
      return {
        area,
        keys,
        total: all.length,
        ...(prefix ? { matched: matched.length } : {}),
        ...(more ? { after: page.at(-1)! } : {}),
      };
    },
    async get({ key, to, offset = 0, maxChars }) {
      if (to !== undefined) throw fail('a range (to) reads IndexedDB stores only; read cached URLs one by one');
      const cache = await open();
      return { entries: [await entryOf(key, await cache.match(key), offset, maxChars)] };
    },
    async set({ key, value, maxChars }) {
      const cache = await open();
      const old = await cache.match(key);
      const before = await entryOf(key, old?.clone(), 0, maxChars);
      let json = true;
      try {
        JSON.parse(value);
      } catch {
        json = false;
      }
      const init: ResponseInit =
        old && old.type !== 'opaque'
          ? { status: old.status, statusText: old.statusText, headers: old.headers }
          : { headers: { 'content-type': json ? 'application/json' : 'text/plain;charset=utf-8' } };
      try {
        await cache.put(key, new Response(value, init));
      } catch (e) {
        throw explain(e, `the cache did not take ${key}`);
      }
      return { before, after: await entryOf(key, await cache.match(key), 0, maxChars) };
    },
    async remove({ key, clear, maxChars }) {
      const cache = await open();
      if (key !== undefined) {
        const before = await entryOf(key, await cache.match(key), 0, maxChars);
        await cache.delete(key);
        return { removed: before.found ? 1 : 0, before };
      }
      const requests = await cache.keys();
      if (clear) await Promise.all(requests.map((r) => cache.delete(r)));
      return { removed: requests.length, beforeCount: requests.length };
    },
  };
}
