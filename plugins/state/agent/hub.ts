import type { AgentPluginContext } from '../../../agent/plugin.js';
import type {
  ActionWire,
  Batch,
  ChangeRequest,
  ChangeResult,
  Read,
  ReadResult,
  StateProtocol,
  StoreWire,
} from '../protocol.js';
import type { Queries } from './queries.js';
import { Waiting } from './waiting.js';

type Ctx = AgentPluginContext<StateProtocol>;
type Kind = ActionWire['kind'];
/** A message of the devtools API to the store's subscribers, as the extension's monitor sends it. */
export type Message = { type: string; payload?: unknown; state?: string; source?: string };

/** What the Redux DevTools extension's connect(options) and enhancer(options) take; what we use of it. */
export interface DevtoolsOptions {
  name?: string;
  /** States kept in the app for jumps (the extension's maxAge). */
  maxAge?: number;
  features?: { jump?: boolean; dispatch?: boolean };
  actionsDenylist?: string | string[];
  actionsAllowlist?: string | string[];
  actionsBlacklist?: string | string[];
  actionsWhitelist?: string | string[];
  predicate?: (state: unknown, action: { type?: unknown }) => boolean;
  actionSanitizer?: (action: unknown, id: number) => unknown;
  stateSanitizer?: (state: unknown, index: number) => unknown;
  /** The library, when it says (the extension's libConfig type). */
  type?: string;
  actionCreators?: unknown;
  [key: string]: unknown;
}

/** An entry other than a plain action (an init, a set, a jump, a reducer that threw), as it waits in the queue. */
export class Marked {
  constructor(
    readonly kind: Kind,
    readonly action: unknown,
    readonly error?: string,
  ) {}
}

/** What the Redux enhancer gives its store's entry: the state, and a way to put one in. */
export interface ReduxBinding {
  getState(): unknown;
  put(state: unknown): void;
  dispatch(action: unknown): unknown;
}

/** The batch-making, reading and changing code (work.ts), loaded when the plugin joins. */
export interface Work {
  drain(hub: Hub, full: boolean): Batch;
  read(hub: Hub, params: Read): ReadResult;
  change(hub: Hub, params: ChangeRequest): ChangeResult;
}

/** Marks a state or action let go (and a store not yet compared). */
export const NONE = Symbol('none');

export const typeOf = (action: unknown) => {
  const t = (action as { type?: unknown } | null)?.type;
  return (typeof t === 'string' ? t : t === undefined ? '(no type)' : String(t)).slice(0, 300);
};
/** Actions one waiting entry stands for at most: a run of one type (see Store.send). */
const MAX_RUN = 1000;

/** What an action waiting far back keeps: its type (an entry of another kind stays whole). */
const shrink = (a: unknown) => (a !== null && typeof a === 'object' && !(a instanceof Marked) ? typeOf(a) : a);
const list = (x: string | string[] | undefined) => (Array.isArray(x) ? x.join('|') : x);

/** One store that connected through the devtools API: the states it keeps (for diffs and jumps) and its listeners. */
export class Store {
  seq = -1;
  /** States kept by the seq of the action that made them, oldest first, at most `maxAge`. */
  readonly kept = new Map<number, unknown>();
  /** The state after the last action (`seq`), kept or not, and that action whole. */
  current: unknown = NONE;
  currentAction: unknown;
  private currentKept = true;
  /** Entries this window still sends whole, their states kept (see send). */
  private budget: number;
  /** The type of the run this store started last (see send). */
  private runType = '';
  readonly listeners = new Set<(message: Message) => void>();
  dropped = 0;
  /** Actions sent without a diff of their own since the last diff (their states were let go). */
  skipped = 0;
  view: unknown = NONE;
  sized: unknown = NONE;
  sizedAt = 0;
  redux?: ReduxBinding;
  private readonly filter?: (action: { type?: unknown }, state: unknown) => boolean;

  constructor(
    readonly hub: Hub,
    readonly info: StoreWire,
    readonly options: DevtoolsOptions,
    private readonly maxAge: number,
  ) {
    this.budget = hub.burst;
    const deny = list(options.actionsDenylist ?? options.actionsBlacklist);
    const allow = list(options.actionsAllowlist ?? options.actionsWhitelist);
    const { predicate } = options;
    if (deny || allow || predicate) {
      const d = deny ? new RegExp(deny) : undefined;
      const a = allow ? new RegExp(allow) : undefined;
      this.filter = (action, state) => {
        const t = String(action.type);
        return !(d?.test(t) || (a && !a.test(t))) && (!predicate || predicate(state, action));
      };
    }
  }

  latest(): unknown {
    return this.current === NONE ? undefined : this.current;
  }

  /** The state after action `seq`, or NONE when it was let go. */
  at(seq: number): unknown {
    // Read on every call: a burst's drain asks for the latest only at its end (see work.ts wire).
    const current = this.current;
    if (seq === this.seq) return current;
    return this.kept.has(seq) ? this.kept.get(seq) : NONE;
  }

  /**
   * The hot path. Every state a store keeps lives on in the app's heap (kept for 50 actions in a
   * burst of 10,000, each left V8's young generation and cost the app about as much as its dispatch),
   * and every entry waiting is one more write. So the first `burst` entries of a window wait whole,
   * their states kept; past them an action keeps no state and joins the run of its type that waits
   * newest (a count), or starts one. The window ends `flushMs` after its budget ran out: then the
   * store's last state is kept, and the next `burst` entries wait whole again. A kept state's diff
   * covers the actions between (`span`).
   */
  send(action: unknown, state: unknown): void {
    if (action == null) {
      // A lifted state (e.g. after an import): its last computed state stands for what the app has.
      const states = (state as { computedStates?: { state: unknown }[] } | null)?.computedStates;
      if (states?.length) this.add('init', { type: '@@IMPORT' }, states[states.length - 1]!.state);
      return;
    }
    const a = typeof action === 'string' ? { type: action } : action;
    if (this.filter && !this.filter(a as { type?: unknown }, state)) return;
    if (this.budget > 0) return this.add(undefined, a, state);
    const seq = ++this.seq;
    this.current = state;
    this.currentAction = a;
    this.currentKept = false;
    const { hub } = this;
    if (hub.open === this && this.runType === (a as { type?: unknown }).type && hub.waiting.join(MAX_RUN)) return;
    this.runType = typeOf(a);
    hub.queue(this, seq, this.runType, hub.now());
    hub.open = this;
  }

  /** An entry that waits whole (an action of the window's first `burst`, an init, a set, a jump, an error), its state kept. */
  add(kind: Kind | undefined, action: unknown, state: unknown, error?: string): void {
    const seq = ++this.seq;
    this.current = state;
    this.currentAction = action;
    this.currentKept = true;
    this.keep(seq, state);
    if (--this.budget === 0) this.hub.window();
    this.hub.queue(this, seq, kind !== undefined ? new Marked(kind, action, error) : action, this.hub.now());
  }

  /** A new window: the last state is kept (its diff covers the run it ended), and `burst` entries wait whole again. */
  refill(): void {
    if (!this.currentKept) this.keep(this.seq, this.current);
    this.currentKept = true;
    this.budget = this.hub.burst;
  }

  private keep(seq: number, state: unknown): void {
    this.kept.set(seq, state);
    if (this.kept.size > this.maxAge) this.kept.delete(this.kept.keys().next().value!);
  }

  emit(message: Message): void {
    for (const listener of [...this.listeners]) listener({ source: '@devtools-extension', ...message });
  }
}

/**
 * The agent's side of every store: installed once per JavaScript realm (the devtools API must be in
 * place before the app creates its stores), joined by the state plugin when connect() runs.
 */
export class Hub {
  readonly run = Math.random().toString(36).slice(2, 10);
  readonly stores: Store[] = [];
  /** What waits to be sent; an action past the newest 1,000 waiting keeps its type only. */
  readonly waiting = new Waiting<Store>(shrink, 1000, 5000);
  dropped: Record<string, number> = {};
  ctx?: Ctx;
  private timer?: ReturnType<typeof setTimeout>;
  queued = false;
  listChanged = true;
  queries?: Queries;
  /** The batch-making, reading and changing code, loaded when the plugin joins (off the startup path). */
  work?: Work;
  maxAge = 50;
  /** Entries per window that wait whole, their states kept (see Store.send). */
  burst = 20;
  /** The store whose run of one type waits newest, while its actions of that type may join it. */
  open?: Store;
  private windowTimer?: ReturnType<typeof setTimeout>;
  get maxPending(): number {
    return this.waiting.capacity;
  }
  set maxPending(n: number) {
    this.waiting.capacity = n;
    if (this.waiting.size > 0 && this.waiting.size !== n) this.waiting.resize(n, this.drop);
  }
  flushMs = 50;
  /** Send runs of actions as one entry (`repeat`): by default when the inspector speaks state 1.1. */
  runs?: boolean;

  private clock = 0;
  private reads = 0;
  private readonly newTask = () => {
    this.reads = 0;
  };

  /**
   * Date.now(), read again every 32 actions and in each new task (a microtask marks the task's end):
   * a clock read per action was a tenth of a small store's dispatch, and a burst's times stay
   * within 32 actions of the truth.
   */
  now(): number {
    if (this.reads++ % 32 === 0) {
      if (this.reads === 1) queueMicrotask(this.newTask);
      this.clock = Date.now();
    }
    return this.clock;
  }

  attach(ctx: Ctx): void {
    this.ctx = ctx;
  }

  detach(ctx: Ctx): void {
    if (this.ctx !== ctx) return;
    this.ctx = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** A store connected: named uniquely, with what it can do. */
  add(options: DevtoolsOptions, library: string, can: StoreWire['can']): Store {
    const info: StoreWire = {
      id: `${this.run}.${this.stores.length + 1}`,
      name: '',
      library,
      createdAt: Date.now(),
      can,
    };
    this.name(info, (typeof options.name === 'string' && options.name.trim().slice(0, 180)) || library);
    if (!this.ctx) info.early = true;
    const creators = options.actionCreators;
    if (creators && typeof creators === 'object') {
      const names = Array.isArray(creators)
        ? creators.map((c: { name?: unknown; args?: unknown }) =>
            `${c?.name}(${Array.isArray(c?.args) ? c.args.join(', ') : ''})`.slice(0, 200),
          )
        : Object.keys(creators);
      info.creators = names.slice(0, 100);
    }
    const store = new Store(this, info, options, Math.max(1, Number(options.maxAge) || this.maxAge));
    this.stores.push(store);
    this.changed();
    return store;
  }

  /** Names a store `base`, or `base (2)`… when another store has that name. */
  private name(info: StoreWire, base: string): void {
    let name = base;
    for (let n = 2; this.stores.some((s) => s.info !== info && s.info.name === name); n++) name = `${base} (${n})`;
    info.name = name;
    if (name !== base)
      info.note = `another store connected with the name "${base}" first; this one is listed as "${name}"`;
  }

  /** The store's library became known after it connected (e.g. Zustand, when it subscribed). */
  relabel(store: Store, library: string, rename: boolean): void {
    store.info.library = library;
    if (rename) this.name(store.info, library);
    this.changed();
  }

  changed(): void {
    this.listChanged = true;
    this.schedule();
  }

  queue(store: Store, seq: number, action: unknown, time: number): void {
    this.open = undefined;
    const dropped = this.waiting.push(store, seq, action, time);
    if (dropped !== undefined) this.drop(dropped, this.waiting.droppedActions);
    if (this.timer === undefined && this.ctx !== undefined) this.schedule();
  }

  /** A store's window budget ran out: `flushMs` from now, every store's window begins again. */
  window(): void {
    if (this.windowTimer !== undefined) return;
    this.windowTimer = setTimeout(this.refill, this.flushMs);
    (this.windowTimer as { unref?: () => void }).unref?.();
  }

  private refill = (): void => {
    this.windowTimer = undefined;
    for (const s of this.stores) s.refill();
  };

  private drop = (store: Store, n: number): void => {
    this.dropped[store.info.id] = (this.dropped[store.info.id] ?? 0) + n;
    store.dropped += n;
  };

  schedule(): void {
    if (this.timer !== undefined || !this.ctx?.connected) return;
    this.timer = setTimeout(this.flush, this.flushMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** Sends what is waiting; the batch is made when it leaves the agent's outbox, off the app's code. */
  flush = (full = false): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ctx = this.ctx;
    const work = this.work;
    if (!ctx?.connected || !work || this.queued) return;
    if (ctx.unsentBytes > 8 * 1024 * 1024) return this.schedule();
    this.queued = true;
    ctx.notify('batch', () => work.drain(this, full));
  };

  /** On every connection: the whole list of stores and queries, then what waited. */
  announce(): void {
    this.queued = false;
    this.flush(true);
  }
}

const HUB = Symbol.for('porthole.state.hub');

/** The realm's hub (one, however many copies of the agent are bundled). */
export function hub(): Hub {
  const g = globalThis as { [HUB]?: Hub };
  g[HUB] ??= new Hub();
  return g[HUB];
}
