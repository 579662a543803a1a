// Holds the app's fetch calls while this run's known mock rules are being applied (a bounded wait),
// so that a reloaded page's or a restarted process's first requests meet them. It sits above the
// taps; the mock path's own wrapper, applied meanwhile, lands above it, and a held call is sent
// again through whatever fetch is on top once the gate opens.

type Fetch = typeof globalThis.fetch;

/**
 * Wraps globalThis.fetch until `until` settles or `maxMs` pass; returns how to open it early.
 * `held` is told of each call it holds (so it can be shown at once) and what to do when it is sent.
 */
export function holdFetch(
  until: Promise<unknown>,
  maxMs: number,
  held: (method: string, url: string) => () => void,
): () => void {
  const below = globalThis.fetch;
  if (typeof below !== 'function') return () => {};
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const timer = setTimeout(open, maxMs);
  (timer as { unref?(): void }).unref?.();
  void until.then(open, open);
  let passing = false;
  const gate = function fetch(this: unknown, ...args: Parameters<Fetch>) {
    if (passing) return below.apply(this, args);
    let sent = () => {};
    try {
      const [input, init] = args;
      const request = input instanceof Request ? input : undefined;
      const base = (globalThis as { location?: { href: string } }).location?.href;
      const url = new URL(request?.url ?? String(input), base).href;
      sent = held((init?.method ?? request?.method ?? 'GET').toUpperCase(), url);
    } catch {
      // not a URL fetch can take: it fails as the app's own call would
    }
    return opened.then(() => {
      sent();
      const top = globalThis.fetch;
      return (top === gate ? below : top).apply(this, args);
    });
  } as Fetch;
  globalThis.fetch = gate;
  void opened.then(() => {
    clearTimeout(timer);
    passing = true;
    if (globalThis.fetch === gate) globalThis.fetch = below;
  });
  return open;
}
