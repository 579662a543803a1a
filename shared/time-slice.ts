/**
 * For long loops over app data (a search through every stored body, a filter over every message):
 * `await pause()` in the loop gives the event loop a turn once about `sliceMs` of work has run, so
 * sockets, timers and other calls are served meanwhile. The data may change between turns: loop
 * over a snapshot.
 */
export function timeSlices(sliceMs = 8): () => Promise<void> | undefined {
  let started = performance.now();
  return () => {
    if (performance.now() - started < sliceMs) return undefined;
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        started = performance.now();
        resolve();
      }, 0),
    );
  };
}
