import { type AgentPluginContext, defineAgentPlugin, type ProtocolRef } from '../../../agent/plugin.js';
import { type SerializeLimits, Serializer } from '../../../agent/serialize.js';
import { CONSOLE_METHODS, CONSOLE_PROTOCOL_ID, CONSOLE_PROTOCOL_VERSION } from '../constants.js';
import type { AgentMessage, ConsoleWire, Frame, Kind } from '../wire.js';
import { argsSize, serializeArgs } from './args.js';
import { hookErrors, type NodeProcess } from './error-hooks.js';
import { captureStackTrace, g, nodeMapsStacks, type Prepare, plainStack, traceWithoutWrapper } from './trace.js';

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

/**
 * A call site as taken in the wrapper: V8 keeps its frames unformatted until `.stack` is read.
 * `own` frames at its top are the agent's (the wrapper's, for a one-frame site); `raw`: not V8,
 * `stack` is already text (with its header).
 */
type Holder = { stack?: unknown; own?: 1; raw?: true };

const DEFAULT_LIMITS: SerializeLimits = { depth: 6, maxString: 10_000, maxItems: 100, maxBytes: 64 * 1024 };
const BATCH_BYTES = 1024 * 1024;
const BATCH_MESSAGES = 1000;
/** The realm's Error as the agent loaded (an app's replacement of the global is not called). */
const NativeError = Error;

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
  // The queue as three arrays of one length (no object per message beyond the message itself): the
  // messages, their call sites' holders (V8 formats a stack only when `.stack` is read, at flush)
  // and their estimated JSON bytes.
  private queue: AgentMessage[] = [];
  private holders: (Holder | undefined)[] = [];
  private sizes: number[] = [];
  private queuedBytes = 0;
  private readonly serializer: Serializer;
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
    this.serializer = new Serializer(this.limits);
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
    const { queue, holders, sizes } = this;
    this.queue = [];
    this.holders = [];
    this.sizes = [];
    this.queuedBytes = 0;
    this.busy++;
    const E = Error as unknown as { prepareStackTrace?: Prepare };
    const previous = E.prepareStackTrace;
    try {
      const origin = originOf();
      const mapped = nodeMapsStacks();
      let i = 0;
      do {
        const messages: AgentMessage[] = [];
        const sites: Frame[] = [];
        const siteIndex = new Map<Frame, number>();
        // V8 formats a captured stack when it is first read (finish() does): plainly, not through a
        // source-map hook the app may have installed (the inspector maps frames, and keeps the raw ones).
        for (let bytes = 0; i < queue.length && messages.length < BATCH_MESSAGES && bytes < BATCH_BYTES; i++) {
          const message = finish(queue[i]!, holders[i], previous, mapped);
          const site = message.site;
          if (site !== undefined && typeof site === 'object') {
            // One object per place (frameAt's cache), so the index is by identity.
            let at = siteIndex.get(site);
            if (at === undefined) {
              at = sites.push(site) - 1;
              siteIndex.set(site, at);
            }
            message.site = at;
          }
          messages.push(message);
          bytes += sizes[i]!;
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
      // warn, error, trace and assert keep the whole stack (DevTools shows it); the others one frame.
      const full = FULL_STACK.has(method as Kind);
      const sites = this.options.callSite !== false && method !== 'time' && method !== 'countReset';
      const wrapped = function portholeConsole(this: unknown, ...args: unknown[]) {
        if (self.busy > 0 || self.disposed || isOwn(args[0])) return (original as ConsoleFn).apply(this, args);
        self.busy++;
        try {
          // The call site is taken here, in the wrapper, so that the stack's first frame is ours. A
          // native Error of two frames costs less than Error.captureStackTrace skipping to a function.
          let site: Holder | undefined;
          if (sites && (method !== 'assert' || !args[0]) && self.siteAllowed()) {
            const E = NativeError as { stackTraceLimit?: unknown };
            const limit = E.stackTraceLimit;
            if (!captureStackTrace) site = { stack: new NativeError().stack, raw: true };
            else if (full) {
              site = {};
              captureStackTrace(site, wrapped);
            } else if (typeof limit === 'number') {
              E.stackTraceLimit = 2;
              site = new NativeError() as Holder;
              E.stackTraceLimit = limit;
              site.own = 1;
            }
          }
          self.capture(method, args, site);
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

  /** maxCallSitesPerSecond, in windows of 100 ms. */
  private siteAllowed(): boolean {
    const max = this.options.maxCallSitesPerSecond;
    if (max === undefined) return true;
    const now = Date.now();
    if (now >= this.siteWindowEnd) {
      this.siteWindowEnd = now + 100;
      this.sitesLeft = max / 10;
    }
    return this.sitesLeft-- > 0;
  }

  private capture(method: (typeof CONSOLE_METHODS)[number], args: unknown[], site: Holder | undefined): void {
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
    const message: AgentMessage = { kind, time, args: [] };
    if (label !== undefined) message.label = label;
    if (value !== undefined) message.value = value;
    this.enqueue(message, values, site);
  }

  private enqueue(message: AgentMessage, values: readonly unknown[], site?: Holder): void {
    if (this.queue.length >= (this.options.maxQueue ?? 5000)) {
      this.dropped++;
      return;
    }
    message.args = serializeArgs(values, Math.min(values.length, 1000), this.limits, this.serializer);
    const bytes = argsSize(this.serializer) + 64;
    this.queue.push(message);
    this.holders.push(site);
    this.sizes.push(bytes);
    this.queuedBytes += bytes;
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
      const message: AgentMessage = { kind, time: Date.now(), args: [], ...extra };
      if (typeof stack === 'string') message.stack = stack.slice(0, 50_000);
      if (this.queue.length >= (this.options.maxQueue ?? 5000)) {
        // an error always gets in
        this.queue.shift();
        this.holders.shift();
        this.sizes.shift();
      }
      this.enqueue(message, [reason]);
    } catch {
      // never thrown into the app
    } finally {
      this.busy--;
    }
    this.flush();
  }
}

/** Kinds whose whole stack is sent (DevTools shows it); the others send only the caller's frame. */
const FULL_STACK = new Set<Kind>(['warn', 'error', 'trace', 'assert']);

/**
 * The frames seen, by file, then line and column: one object per place, so a batch's call sites are
 * told apart by identity and a place logged from again is not built again. Bounded: cleared when full.
 */
let frameCache = new Map<string, Map<number, Frame>>();
let frameCacheSize = 0;

/** V8's prepareStackTrace for a one-frame call site: the frame `at` (past the agent's own), cached. */
const frameAt =
  (at: number): Prepare =>
  (_error, frames) => {
    const f = frames[at];
    if (!f) return undefined;
    const file = f.getFileName?.() ?? '<anonymous>';
    const line = f.getLineNumber?.() ?? 0;
    const column = f.getColumnNumber?.() ?? 0;
    let byPlace = frameCache.get(file);
    const key = line * 2 ** 26 + column;
    let frame = byPlace?.get(key);
    if (frame) return frame;
    frame = { file: file.slice(0, 4096), line, column };
    const fn = f.getFunctionName?.();
    if (fn) frame.fn = fn.slice(0, 1000);
    if (++frameCacheSize > 5000) {
      frameCache = new Map();
      frameCacheSize = 1;
      byPlace = undefined;
    }
    if (!byPlace) frameCache.set(file, (byPlace = new Map()));
    byPlace.set(key, frame);
    return frame;
  };
const FRAME_AT = [frameAt(0), frameAt(1)];

function finish(message: AgentMessage, holder: Holder | undefined, appPrepare: Prepare | undefined, mapped: boolean) {
  if (!holder) return message;
  if (holder.raw) {
    // new Error() in the wrapper: drop the header (V8 style) and the wrapper's frame.
    message.callStack = withoutOwn(String(holder.stack ?? ''), 1);
    return message;
  }
  const E = Error as unknown as { prepareStackTrace?: Prepare };
  const own = holder.own ?? 0;
  E.prepareStackTrace = mapped ? appPrepare : own || !FULL_STACK.has(message.kind) ? FRAME_AT[own] : plainStack;
  const value = holder.stack;
  if (typeof value === 'string') message.callStack = (own ? withoutOwn(value, own) : value).slice(0, 50_000);
  else if (value && typeof value === 'object') message.site = value as Frame;
  return message;
}

/** A stack's text without its header and its first `own` frames (the agent's). */
function withoutOwn(stack: string, own: number): string {
  const lines = stack.split('\n');
  if (lines[0] && !/(^\s*at\s)|@/.test(lines[0])) lines.shift();
  return lines.slice(own).join('\n').slice(0, 50_000);
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
