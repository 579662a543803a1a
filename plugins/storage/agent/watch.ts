import type { Changed } from '../protocol.js';

/** How long changes gather before they leave as one notification. */
const BATCH_MS = 100;
/** Keys of one area remembered per batch; past it the area is reported changed as a whole. */
const KEYS_PER_AREA = 50;
/** Changes in one notification (the protocol's bound). */
const MAX_CHANGES = 1000;

type Method = 'setItem' | 'removeItem' | 'clear';
type Global = {
  Storage?: { prototype: Storage };
  addEventListener?: (type: string, listener: (e: StorageEvent) => void) => void;
  removeEventListener?: (type: string, listener: (e: StorageEvent) => void) => void;
  cookieStore?: EventTarget;
};
const g = globalThis as unknown as Global & Record<string, unknown>;

/**
 * Gathers the app's writes into batches of `changed` notifications (keys only: the inspector reads
 * values when it needs them). While nobody listens (`active()` false) a change costs a check.
 */
export class Changes {
  private pending = new Map<string, Set<string> | undefined>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly send: (params: () => Changed) => void,
    private readonly active: () => boolean,
  ) {}

  /** The key (or, without one, the whole area) changed. */
  note = (area: string, key?: string): void => {
    if (!this.active()) return;
    const keys = this.pending.get(area);
    if (this.pending.has(area) && keys === undefined) {
      // already the whole area
    } else if (key === undefined || (keys && keys.size >= KEYS_PER_AREA)) {
      this.pending.set(area, undefined);
    } else {
      (keys ?? this.pending.set(area, new Set()).get(area)!).add(key);
    }
    this.timer ??= setTimeout(this.flush, BATCH_MS);
  };

  flush = (): void => {
    this.timer = undefined;
    const pending = this.pending;
    this.pending = new Map();
    if (pending.size === 0) return;
    this.send(() => {
      const changes = [...pending].flatMap(([area, keys]) =>
        keys ? [...keys].map((key) => ({ area, key })) : [{ area }],
      );
      // Past what one notification holds, each area is reported changed as a whole.
      return {
        changes:
          changes.length <= MAX_CHANGES ? changes : [...pending.keys()].slice(0, MAX_CHANGES).map((area) => ({ area })),
      };
    });
  };
}

/**
 * The page's own writes to localStorage and sessionStorage (Storage.prototype's setItem, removeItem
 * and clear, wrapped: same arguments, return value and exceptions — a quota error still reaches the
 * app, and a write that threw is not reported), other tabs' writes (`storage` events) and cookie
 * changes where the browser reports them (`cookieStore`). Returns what undoes it.
 */
export function watchWebStorage(note: (area: string, key?: string) => void): () => void {
  const proto = g.Storage?.prototype as unknown as Record<Method, (...args: unknown[]) => unknown> | undefined;
  if (!proto) return () => {};
  const areaOf = (target: unknown) => {
    for (const name of ['localStorage', 'sessionStorage']) {
      try {
        if (g[name] === target) return name;
      } catch {
        // this storage cannot be read here (a sandboxed frame): not the target
      }
    }
    return undefined;
  };
  const undo: (() => void)[] = [];
  for (const method of ['setItem', 'removeItem', 'clear'] as const) {
    const original = proto[method];
    if (typeof original !== 'function') continue;
    const wrapped = {
      [method](this: unknown, ...args: unknown[]) {
        const result = original.apply(this, args);
        const area = areaOf(this);
        if (area) note(area, method === 'clear' ? undefined : String(args[0]));
        return result;
      },
    }[method]!;
    proto[method] = wrapped;
    undo.push(() => {
      if (proto[method] === wrapped) proto[method] = original;
    });
  }
  const onStorage = (e: StorageEvent) => {
    const area = areaOf(e.storageArea);
    if (area) note(area, e.key ?? undefined);
  };
  g.addEventListener?.('storage', onStorage);
  undo.push(() => g.removeEventListener?.('storage', onStorage));
  const cookies = g.cookieStore;
  if (cookies) {
    const onCookie = (e: Event) => {
      const { changed = [], deleted = [] } = e as Event & {
        changed?: { name: string }[];
        deleted?: { name: string }[];
      };
      for (const cookie of [...changed, ...deleted]) note('cookies', cookie.name);
    };
    cookies.addEventListener('change', onCookie);
    undo.push(() => cookies.removeEventListener('change', onCookie));
  }
  return () => {
    for (const u of undo) u();
  };
}
