import type { NodeProcess } from './error-hooks.js';

// Stack formatting the console agent shares with console.trace's Node-only path (trace.native.ts
// takes this file's place in React Native's tree, where console.trace is passed through as is).

type CallSite = {
  getFunctionName?(): string | null;
  getFileName?(): string | null | undefined;
  getLineNumber?(): number | null;
  getColumnNumber?(): number | null;
};
export type Prepare = (error: Error, frames: CallSite[]) => unknown;
type ConsoleFn = (...args: unknown[]) => unknown;

export const g = globalThis as unknown as Record<string, unknown>;
export const captureStackTrace = (Error as { captureStackTrace?: (target: object, fn: unknown) => void })
  .captureStackTrace;

export const plainStack: Prepare = (error, frames) => {
  const head = Error.prototype.toString.call(error);
  return frames.length === 0 ? head : `${head}\n    at ${frames.join('\n    at ')}`;
};

/**
 * Node's console.trace prints the stack above itself, which would show the wrapper's frame: while it
 * runs, Error.prepareStackTrace leaves that one frame out, so the app's stderr stays the same.
 */
export function traceWithoutWrapper(original: ConsoleFn, self: unknown, args: unknown[]): unknown {
  const E = Error as unknown as { prepareStackTrace?: Prepare };
  const previous = E.prepareStackTrace;
  // Node's own source-mapped formatting cannot be called from here: then the wrapper's frame shows.
  if (
    !captureStackTrace ||
    !(g.process as NodeProcess | undefined)?.versions?.node ||
    (!previous && nodeMapsStacks())
  ) {
    return original.apply(self, args);
  }
  E.prepareStackTrace = (error, frames) => {
    // [this function, the wrapper, the app's caller, …]
    const kept = frames[0]?.getFunctionName?.() === 'traceWithoutWrapper' ? frames.slice(2) : frames;
    return (previous ?? plainStack)(error, kept);
  };
  try {
    return original.apply(self, args);
  } finally {
    E.prepareStackTrace = previous;
  }
}

/** Node maps stacks itself (--enable-source-maps, tsx): then its formatting, with the original places, is kept. */
export function nodeMapsStacks(): boolean {
  return (g.process as { sourceMapsEnabled?: boolean } | undefined)?.sourceMapsEnabled === true;
}
