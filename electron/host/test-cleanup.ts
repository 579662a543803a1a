import { afterEach } from 'vitest';

/**
 * For vitest files: registers an afterEach that runs the cleanups a test deferred, newest first,
 * and returns the function that defers one (stop a core, close a server, disconnect an agent).
 */
export function cleanupAfterEach(): (cleanup: () => unknown) => void {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return (cleanup) => {
    cleanups.push(cleanup);
  };
}
