import type { AgentMessage } from '../wire.js';

// Where the console plugin hears of uncaught errors: a page's (or worker's) error events, Node's
// process events, React Native's ErrorUtils. error-hooks.native.ts is React Native's copy.

export interface ErrorSink {
  /** An uncaught exception or unhandled rejection. */
  report(kind: 'exception' | 'rejection', reason: unknown, extra?: Partial<Omit<AgentMessage, 'site'>>): void;
  /** Sends what is queued (the page or process may end next). */
  flush(): void;
  /** Undo steps, run by dispose(). */
  restore: (() => void)[];
}

export interface NodeProcess {
  versions?: { node?: string };
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
  prependListener(event: string, listener: (...args: never[]) => void): unknown;
  listenerCount(event: string): number;
  cwd?(): string;
}

interface ErrorUtils {
  getGlobalHandler(): (error: unknown, isFatal?: boolean) => void;
  setGlobalHandler(h: unknown): void;
}

const g = globalThis as unknown as Record<string, unknown>;

export function hookErrors(sink: ErrorSink): void {
  const on = g.addEventListener as ((type: string, listener: (event: never) => void) => void) | undefined;
  if (typeof on === 'function' && (g.window !== undefined || g.document !== undefined || g.WorkerGlobalScope)) {
    return hookBrowser(sink, on);
  }
  const proc = g.process as NodeProcess | undefined;
  if (proc?.versions?.node && typeof proc.on === 'function') hookNode(sink, proc);
  hookReactNative(sink);
}

function hookBrowser(sink: ErrorSink, on: (type: string, listener: (event: never) => void) => void): void {
  const off = g.removeEventListener as typeof on;
  const onError = (e: ErrorEvent) => {
    const location =
      typeof e.filename === 'string' && e.filename
        ? { url: e.filename.slice(0, 4096), line: e.lineno | 0, column: e.colno | 0 }
        : undefined;
    sink.report('exception', e.error ?? e.message, location ? { location } : {});
  };
  const onRejection = (e: PromiseRejectionEvent) => sink.report('rejection', e.reason);
  // Bubbling listeners only: resource load errors do not reach them. Neither cancels the event,
  // so the browser's own console still reports the error.
  on.call(g, 'error', onError as never);
  on.call(g, 'unhandledrejection', onRejection as never);
  on.call(g, 'pagehide', sink.flush as never);
  sink.restore.push(() => {
    off.call(g, 'error', onError as never);
    off.call(g, 'unhandledrejection', onRejection as never);
    off.call(g, 'pagehide', sink.flush as never);
  });
}

/**
 * Node: `uncaughtExceptionMonitor` observes an uncaught exception without handling it, so Node
 * still prints it and exits with the same code; the agent sends it synchronously first.
 * An `unhandledRejection` listener would stop Node from crashing on an unhandled rejection, so the
 * agent listens to it only while the app has a listener of its own (when Node would not crash
 * either); otherwise the rejection reaches the monitor as an uncaught exception.
 */
function hookNode(sink: ErrorSink, proc: NodeProcess): void {
  const monitor = (error: unknown, origin: string) =>
    sink.report(origin === 'unhandledRejection' ? 'rejection' : 'exception', error, {
      fatal: proc.listenerCount('uncaughtException') === 0,
    });
  const onRejection = (reason: unknown) => sink.report('rejection', reason);
  let listening = false;
  const sync = (adding: number) => {
    const theirs = proc.listenerCount('unhandledRejection') - (listening ? 1 : 0) + adding;
    if (theirs > 0 && !listening) {
      listening = true;
      proc.prependListener('unhandledRejection', onRejection);
    } else if (theirs <= 0 && listening) {
      listening = false;
      proc.off('unhandledRejection', onRejection);
    }
  };
  const onNew = (event: string | symbol, listener: unknown) => {
    if (event === 'unhandledRejection' && listener !== onRejection) sync(1);
  };
  const onRemoved = (event: string | symbol, listener: unknown) => {
    if (event === 'unhandledRejection' && listener !== onRejection) sync(0);
  };
  proc.on('uncaughtExceptionMonitor', monitor);
  proc.on('newListener', onNew);
  proc.on('removeListener', onRemoved);
  proc.on('exit', sink.flush);
  sync(0);
  sink.restore.push(() => {
    proc.off('uncaughtExceptionMonitor', monitor);
    proc.off('newListener', onNew);
    proc.off('removeListener', onRemoved);
    proc.off('exit', sink.flush);
    if (listening) proc.off('unhandledRejection', onRejection);
  });
}

/** React Native: the app's global handler (the red box, the crash) still runs after the agent's report. */
export function hookReactNative(sink: ErrorSink): void {
  const errorUtils = g.ErrorUtils as ErrorUtils | undefined;
  if (!errorUtils?.setGlobalHandler) return;
  const previous = errorUtils.getGlobalHandler();
  const handler = (error: unknown, isFatal?: boolean) => {
    sink.report('exception', error, { fatal: isFatal === true });
    previous?.(error, isFatal);
  };
  errorUtils.setGlobalHandler(handler);
  sink.restore.push(() => {
    if (errorUtils.getGlobalHandler() === handler) errorUtils.setGlobalHandler(previous);
  });
}
