import { type AgentPluginContext, defineAgentPlugin, type ProtocolRef } from '../../../agent/plugin.js';
import { type SerializeLimits, Serializer } from '../../../agent/serialize.js';
import { CONSOLE_METHODS, CONSOLE_PROTOCOL_ID, CONSOLE_PROTOCOL_VERSION } from '../constants.js';
import type { AgentMessage, ConsoleWire, Frame, Kind } from '../wire.js';
import { hookErrors, type NodeProcess } from './error-hooks.js';

export interface ConsoleOptions {
  /** Console methods to capture. Default: all of them (log, info, warn, error, debug, trace, assert, table, dir, group*, count*, time*). */
  methods?: readonly (typeof CONSOLE_METHODS)[number][];
  /** Capture uncaught exceptions and unhandled rejections (window, Node process, React Native ErrorUtils). Default true. */
  errors?: boolean;
  /**
   * Record where each console call was made: one stack frame per call, taken without formatting it
   * (V8 formats it at the next batch, once per distinct place). Default true.
   */
  callSite?: boolean;
  /**
   * A cap on call sites per second (in windows of 100 ms), for an app that logs so much that the
   * frame it takes per call matters; beyond it messages are sent without call sites. Default: none.
   */
  maxCallSitesPerSecond?: number;
  /** Serialization limits per message: depth 6, 10,000 characters per string, 100 items per object, 64 KiB. */
  limits?: Partial<SerializeLimits>;
  /** Messages are sent in batches this often, in ms. Default 50. */
  flushMs?: number;
  /** Messages kept waiting for the next batch; beyond it they are dropped and counted. Default 5000. */
  maxQueue?: number;
}

export interface ConsolePluginApi {
  /** Sends what is queued now (also done every flushMs, on exit and on an uncaught exception). */
  flush(): void;
  /** Puts the app's console and error hooks back as they were. */
  dispose(): void;
}

type Ctx = AgentPluginContext<ConsoleWire>;
type ConsoleFn = (...args: unknown[]) => unknown;

interface Queued extends Omit<AgentMessage, 'site'> {
  /** Holds the call site's stack; V8 formats it only when `.stack` is read, at flush. */
  holder?: { stack?: string };
  /** Captured with `new Error()` (no Error.captureStackTrace): its first two frames are the agent's. */
  siteRaw?: boolean;
  bytes: number;
}

const DEFAULT_LIMITS: SerializeLimits = { depth: 6, maxString: 10_000, maxItems: 100, maxBytes: 64 * 1024 };
const BATCH_BYTES = 1024 * 1024;
const BATCH_MESSAGES = 1000;
const g = globalThis as unknown as Record<string, unknown>;
const captureStackTrace = (Error as { captureStackTrace?: (target: object, fn: unknown) => void }).captureStackTrace;

/**
 * Every console call and uncaught error of the app, for the inspector's Console panel and its
 * console_* tools: `connect({ plugins: [console()] })`. The app's console prints exactly what it did.
 */
// Only the id and version: the schemas stay in the inspector, which validates what crosses the wire.
const protocol: ProtocolRef<ConsoleWire> = { id: CONSOLE_PROTOCOL_ID, version: CONSOLE_PROTOCOL_VERSION };

export function consolePlugin(options: ConsoleOptions = {}) {
  return defineAgentPlugin(protocol, (ctx): ConsolePluginApi => new ConsoleAgent(ctx, options));
}
export { consolePlugin as console };

class ConsoleAgent implements ConsolePluginApi {
  private readonly target = g.console as Record<string, unknown> | undefined;
  private readonly limits: SerializeLimits;
  private readonly restore: (() => void)[] = [];
  private queue: Queued[] = [];
  private queuedBytes = 0;
  private dropped = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Set while the agent runs the app's console or sends: nested console calls pass through. */
  private busy = 0;
  private disposed = false;
  private readonly counts = new Map<string, number>();
  private readonly timers = new Map<string, number>();
  private readonly reported = new WeakSet<object>();
  private siteWindowEnd = 0;
  private sitesLeft = 0;

  constructor(
    private readonly ctx: Ctx,
    private readonly options: ConsoleOptions,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.wrapConsole();
    if (options.errors !== false) {
      hookErrors({
        report: (kind, reason, extra) => this.report(kind, reason, extra),
        flush: this.flush,
        restore: this.restore,
      });
    }
  }

  flush = (): void => {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length === 0 && this.dropped === 0) return;
    const queue = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    this.busy++;
    const E = Error as unknown as { prepareStackTrace?: Prepare };
    const previous = E.prepareStackTrace;
    try {
      const origin = originOf();
      let i = 0;
      do {
        const messages: AgentMessage[] = [];
        const sites: Frame[] = [];
        const siteIndex = new Map<string, number>();
        // V8 formats a captured stack when it is first read (finish() does): plainly, not through a
        // source-map hook the app may have installed (the inspector maps frames, and keeps the raw ones).
        for (let bytes = 0; i < queue.length && messages.length < BATCH_MESSAGES && bytes < BATCH_BYTES; i++) {
          const message = finish(queue[i]!, previous);
          const site = message.site;
          if (site !== undefined && typeof site === 'object') {
            const key = `${site.line}:${site.column}:${site.file}`;
            let at = siteIndex.get(key);
            if (at === undefined) {
              at = sites.push(site) - 1;
              siteIndex.set(key, at);
            }
            message.site = at;
          }
          messages.push(message);
          bytes += queue[i]!.bytes;
        }
        E.prepareStackTrace = previous;
        const dropped = this.dropped;
        this.dropped = 0;
        this.ctx.notify('batch', {
          messages,
          dropped,
          ...(sites.length > 0 ? { sites } : {}),
          ...(origin ? { origin } : {}),
        });
      } while (i < queue.length);
      this.ctx.flush(); // the process may end next (an uncaught exception, exit)
    } catch {
      // A batch the protocol refuses is lost, never thrown into the app.
    } finally {
      E.prepareStackTrace = previous;
      this.busy--;
    }
  };

  dispose(): void {
    if (this.disposed) return;
    this.flush();
    this.disposed = true;
    for (const undo of this.restore.splice(0).reverse()) undo();
  }

  private wrapConsole(): void {
    const target = this.target;
    if (!target) return;
    for (const method of this.options.methods ?? CONSOLE_METHODS) {
      const original = target[method];
      if (typeof original !== 'function') continue;
      const self = this;
      const wrapped = function portholeConsole(this: unknown, ...args: unknown[]) {
        if (self.busy > 0 || self.disposed || isOwn(args[0])) return (original as ConsoleFn).apply(this, args);
        self.busy++;
        try {
          self.capture(method, args, wrapped);
        } catch {
          // capturing never breaks the app's console
        }
        try {
          if (method === 'trace') return traceWithoutWrapper(original as ConsoleFn, this, args);
          return (original as ConsoleFn).apply(this, args);
        } finally {
          self.busy--;
        }
      };
      Object.defineProperty(wrapped, 'name', { value: (original as ConsoleFn).name });
      target[method] = wrapped;
      this.restore.push(() => {
        if (target[method] === wrapped) target[method] = original;
      });
    }
  }

  private capture(method: (typeof CONSOLE_METHODS)[number], args: unknown[], wrapper: unknown): void {
    let kind: Kind;
    let label: string | undefined;
    let value: number | undefined;
    let values = args;
    switch (method) {
      case 'assert':
        if (args[0]) return;
        kind = 'assert';
        values = args.slice(1);
        break;
      case 'count':
      case 'countReset': {
        label = labelOf(args[0]);
        if (method === 'countReset') return void this.counts.delete(label);
        value = (this.counts.get(label) ?? 0) + 1;
        this.counts.set(label, value);
        kind = 'count';
        values = [];
        break;
      }
      case 'time':
        label = labelOf(args[0]);
        if (!this.timers.has(label)) this.timers.set(label, performance.now());
        return;
      case 'timeLog':
      case 'timeEnd': {
        label = labelOf(args[0]);
        const start = this.timers.get(label);
        if (start !== undefined) value = performance.now() - start;
        if (method === 'timeEnd') this.timers.delete(label);
        kind = method;
        values = method === 'timeLog' ? args.slice(1) : [];
        break;
      }
      case 'dir':
        kind = 'dir';
        values = args.slice(0, 1);
        break;
      default:
        kind = method;
    }
    const time = Date.now();
    const message: Queued = { kind, time, args: [], bytes: 0 };
    if (label !== undefined) message.label = label;
    if (value !== undefined) message.value = value;
    if (time >= this.siteWindowEnd) {
      this.siteWindowEnd = time + 100;
      this.sitesLeft = (this.options.maxCallSitesPerSecond ?? Number.POSITIVE_INFINITY) / 10;
    }
    if (this.options.callSite !== false && this.sitesLeft-- > 0) {
      const site: { stack?: string } = {};
      if (captureStackTrace) {
        // One frame says where the call was; warn, error, trace and assert keep the whole stack.
        const E = Error as { stackTraceLimit?: number };
        const limit = E.stackTraceLimit;
        const one = !FULL_STACK.has(kind) && typeof limit === 'number';
        if (one) E.stackTraceLimit = 1;
        captureStackTrace(site, wrapper);
        if (one) E.stackTraceLimit = limit;
      } else {
        site.stack = new Error().stack;
        message.siteRaw = true;
      }
      message.holder = site;
    }
    this.enqueue(message, values);
  }

  private enqueue(message: Queued, values: readonly unknown[]): void {
    if (this.queue.length >= (this.options.maxQueue ?? 5000)) {
      this.dropped++;
      return;
    }
    const serializer = new Serializer(this.limits);
    const n = Math.min(values.length, 1000);
    for (let i = 0; i < n; i++) message.args.push(serializer.value(values[i]));
    message.bytes = serializer.size + 64;
    this.queue.push(message);
    this.queuedBytes += message.bytes;
    if (this.queuedBytes > 4 * BATCH_BYTES) queueMicrotask(this.flush);
    else this.timer ??= unref(setTimeout(this.flush, this.options.flushMs ?? 50));
  }

  /** An uncaught exception or unhandled rejection: queued and sent at once (the process may end next). */
  private report(
    kind: 'exception' | 'rejection',
    reason: unknown,
    extra: Partial<Omit<AgentMessage, 'site'>> = {},
  ): void {
    if (this.disposed) return;
    if (typeof reason === 'object' && reason !== null) {
      if (this.reported.has(reason)) return;
      this.reported.add(reason);
    }
    this.busy++;
    try {
      const stack = (reason as { stack?: unknown } | null)?.stack;
      const message: Queued = { kind, time: Date.now(), args: [], bytes: 0, ...extra };
      if (typeof stack === 'string') message.stack = stack.slice(0, 50_000);
      this.queue.length >= (this.options.maxQueue ?? 5000) && this.queue.shift(); // an error always gets in
      this.enqueue(message, [reason]);
    } catch {
      // never thrown into the app
    } finally {
      this.busy--;
    }
    this.flush();
  }
}

type CallSite = {
  getFunctionName?(): string | null;
  getFileName?(): string | null | undefined;
  getLineNumber?(): number | null;
  getColumnNumber?(): number | null;
};

/** Kinds whose whole stack is sent (DevTools shows it); the others send only the caller's frame. */
const FULL_STACK = new Set<Kind>(['warn', 'error', 'trace', 'assert']);

const topFrame: Prepare = (_error, frames) => {
  const f = frames[0];
  if (!f) return undefined;
  const frame: Frame = {
    file: (f.getFileName?.() ?? '<anonymous>').slice(0, 4096),
    line: f.getLineNumber?.() ?? 0,
    column: f.getColumnNumber?.() ?? 0,
  };
  const fn = f.getFunctionName?.();
  if (fn) frame.fn = fn.slice(0, 1000);
  return frame;
};

const plainStack: Prepare = (error, frames) => {
  const head = Error.prototype.toString.call(error);
  return frames.length === 0 ? head : `${head}\n    at ${frames.join('\n    at ')}`;
};
type Prepare = (error: Error, frames: CallSite[]) => unknown;

/**
 * Node's console.trace prints the stack above itself, which would show the wrapper's frame: while it
 * runs, Error.prepareStackTrace leaves that one frame out, so the app's stderr stays the same.
 */
function traceWithoutWrapper(original: ConsoleFn, self: unknown, args: unknown[]): unknown {
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
function nodeMapsStacks(): boolean {
  return (g.process as { sourceMapsEnabled?: boolean } | undefined)?.sourceMapsEnabled === true;
}

function finish(q: Queued, appPrepare: Prepare | undefined): AgentMessage {
  const { holder, siteRaw, bytes: _bytes, ...rest } = q;
  const message: AgentMessage = rest;
  if (!holder) return message;
  if (siteRaw) {
    // new Error() inside capture(), called by the wrapper: drop the header (V8 style) and those two frames.
    const lines = (holder.stack ?? '').split('\n');
    if (lines[0] && !/(^\s*at\s)|@/.test(lines[0])) lines.shift();
    message.callStack = lines.slice(2).join('\n').slice(0, 50_000);
    return message;
  }
  const E = Error as unknown as { prepareStackTrace?: Prepare };
  E.prepareStackTrace = nodeMapsStacks() ? appPrepare : FULL_STACK.has(message.kind) ? plainStack : topFrame;
  const value = holder.stack as unknown;
  if (typeof value === 'string') message.callStack = value.slice(0, 50_000);
  else if (value && typeof value === 'object') message.site = value as Frame;
  return message;
}

/** Porthole's own warnings (e.g. from the agent's link) are not the app's. */
function isOwn(first: unknown): boolean {
  return typeof first === 'string' && first.startsWith('[porthole]');
}

function labelOf(value: unknown): string {
  if (value === undefined) return 'default';
  try {
    return String(value).slice(0, 1000);
  } catch {
    return 'default';
  }
}

function originOf(): string | undefined {
  const href = (g.location as { href?: string } | undefined)?.href;
  if (typeof href === 'string') return href.slice(0, 4096);
  const proc = g.process as NodeProcess | undefined;
  try {
    return proc?.cwd?.().slice(0, 4096);
  } catch {
    return undefined;
  }
}

function unref<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
