// Holds the app's fetch calls while this run's known mock rules are being applied (a bounded wait),
// so that a reloaded page's or a restarted process's first requests meet them. It sits above the
// taps; the mock path's own wrapper, applied meanwhile, lands above it, and a held call is sent
// again through whatever fetch is on top once the gate opens.

type Fetch = typeof globalThis.fetch;

/** Wraps globalThis.fetch until `until` settles or `maxMs` pass; returns how to open it early. */
export function holdFetch(until: Promise<unknown>, maxMs: number): () => void {
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
    return opened.then(() => {
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
