import type { AgentPluginContext } from '../../../agent/plugin.js';
import { type SerializeLimits, Serializer } from '../../../agent/serialize.js';
import { formatPath, type PathPart, parsePath } from '../path.js';
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
import { diff, NONE, sizeOf } from './diff.js';
import type { Queries } from './queries.js';

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

interface Entry {
  store: Store;
  seq: number;
  time: number;
  action: unknown;
  state: unknown;
  kind?: Kind;
  error?: string;
}

/** What the Redux enhancer gives its store's entry: the state, and a way to put one in. */
export interface ReduxBinding {
  getState(): unknown;
  put(state: unknown): void;
  dispatch(action: unknown): unknown;
}

const ACTION: SerializeLimits = { depth: 3, maxString: 200, maxItems: 10, maxBytes: 1000 };
const VALUE: SerializeLimits = { depth: 2, maxString: 120, maxItems: 5, maxBytes: 500 };
const CHUNK = 1000;
const CHUNK_MS = 30;
const SIZE_EVERY_MS = 1000;
const SIZE_BUDGET = 50_000;

const ser = (x: unknown, limits: SerializeLimits) => new Serializer(limits).value(x);
const typeOf = (action: unknown) => {
  const t = (action as { type?: unknown } | null)?.type;
  return (typeof t === 'string' ? t : t === undefined ? '(no type)' : String(t)).slice(0, 300);
};
const list = (x: string | string[] | undefined) => (Array.isArray(x) ? x.join('|') : x);

/** One store that connected through the devtools API: its recent states (for jumps) and its listeners. */
export class Store {
  seq = -1;
  readonly ring: Entry[] = [];
  readonly listeners = new Set<(message: Message) => void>();
  dropped = 0;
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
    return this.ring.at(-1)?.state;
  }

  at(seq: number): Entry | undefined {
    return this.ring.find((e) => e.seq === seq);
  }

  // The hot path: one entry of references, no copy, no serialization.
  send(action: unknown, state: unknown): void {
    if (action == null) {
      // A lifted state (e.g. after an import): its last computed state stands for what the app has.
      const states = (state as { computedStates?: { state: unknown }[] } | null)?.computedStates;
      if (states?.length) this.add('init', { type: '@@IMPORT' }, states[states.length - 1]!.state);
      return;
    }
    const a = typeof action === 'string' ? { type: action } : action;
    if (this.filter && !this.filter(a as { type?: unknown }, state)) return;
    this.add(undefined, a, state);
  }

  add(kind: Kind | undefined, action: unknown, state: unknown, error?: string): void {
    const e: Entry = { store: this, seq: ++this.seq, time: Date.now(), action, state, kind, error };
    if (this.ring.push(e) > this.maxAge) this.ring.shift();
    this.hub.queue(e);
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
  private pending: Entry[] = [];
  private dropped: Record<string, number> = {};
  private ctx?: Ctx;
  private timer?: ReturnType<typeof setTimeout>;
  private queued = false;
  private listChanged = true;
  queries?: Queries;
  maxAge = 100;
  maxPending = 5000;
  flushMs = 50;

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

  queue(e: Entry): void {
    if (this.pending.push(e) > this.maxPending) {
      const old = this.pending.shift()!;
      this.dropped[old.store.info.id] = (this.dropped[old.store.info.id] ?? 0) + 1;
      old.store.dropped++;
    }
    if (this.timer === undefined) this.schedule();
  }

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
    if (!ctx?.connected || this.queued) return;
    if (ctx.unsentBytes > 8 * 1024 * 1024) return this.schedule();
    this.queued = true;
    ctx.notify('batch', () => this.drain(full));
  };

  /** On every connection: the whole list of stores and queries, then what waited. */
  announce(): void {
    this.queued = false;
    this.flush(true);
  }

  private drain(full: boolean): Batch {
    this.queued = false;
    const batch: Batch = { run: this.run };
    if (full || this.listChanged) {
      batch.stores = this.stores.map((s) => s.info);
      batch.full = full || undefined;
      this.listChanged = false;
    }
    const take = this.pending.splice(0, CHUNK);
    const started = Date.now();
    const actions: ActionWire[] = [];
    for (let i = 0; i < take.length; i++) {
      if (i % 50 === 49 && Date.now() - started > CHUNK_MS) {
        this.pending.unshift(...take.slice(i));
        break;
      }
      actions.push(this.wire(take[i]!));
    }
    if (actions.length) batch.actions = actions;
    if (Object.keys(this.dropped).length) {
      batch.dropped = this.dropped;
      this.dropped = {};
    }
    const sizes = this.sizes();
    if (sizes.length) batch.sizes = sizes;
    if (this.queries) Object.assign(batch, this.queries.take(full));
    if (this.pending.length) this.schedule();
    return batch;
  }

  private wire(e: Entry): ActionWire {
    const s = e.store;
    const { stateSanitizer, actionSanitizer } = s.options;
    const view = stateSanitizer ? attempt(() => stateSanitizer(e.state, e.seq), e.state) : e.state;
    const action = actionSanitizer ? attempt(() => actionSanitizer(e.action, e.seq), e.action) : e.action;
    const d = s.view === NONE ? undefined : diff(s.view, view);
    s.view = view;
    const out: ActionWire = {
      store: s.info.id,
      seq: e.seq,
      time: e.time,
      type: typeOf(action),
      kind: e.kind ?? 'action',
      action: ser(action, ACTION),
      diff: [],
    };
    if (d) {
      out.diff = d.changes.map(([path, before, after]) => {
        const change: ActionWire['diff'][number] = { path: formatPath(path) };
        if (before !== NONE) change.before = ser(before, VALUE);
        if (after !== NONE) change.after = ser(after, VALUE);
        return change;
      });
      if (d.more) out.more = d.more;
      if (d.cut) out.cut = true;
    }
    if (e.error) out.error = e.error;
    return out;
  }

  private sizes(): NonNullable<Batch['sizes']> {
    const now = Date.now();
    const out: NonNullable<Batch['sizes']> = [];
    for (const s of this.stores) {
      const state = s.view === NONE ? s.latest() : s.view;
      if (state === s.sized || now - s.sizedAt < SIZE_EVERY_MS || s.ring.length === 0) continue;
      const budget = { left: SIZE_BUDGET, cut: false };
      const bytes = sizeOf(state, budget);
      s.sized = budget.cut ? NONE : state;
      s.sizedAt = now;
      out.push(budget.cut ? { store: s.info.id, bytes, atLeast: true } : { store: s.info.id, bytes });
    }
    return out;
  }

  find(id: string | undefined): Store {
    const store =
      id === undefined && this.stores.length === 1 ? this.stores[0] : this.stores.find((s) => s.info.id === id);
    if (!store)
      throw new Error(
        `no store ${id} in the app now (it has ${this.stores.map((s) => s.info.name).join(', ') || 'none'})`,
      );
    return store;
  }

  /** A value of a store's state (or a query's data) at a path, serialized within `maxBytes`. */
  read({ store, query, path, offset, maxBytes }: Read): ReadResult {
    let root: unknown;
    let summary: unknown;
    if (query !== undefined) {
      if (!this.queries) throw new Error('the app gave the state plugin no QueryClient: state({ queryClient })');
      const q = this.queries.find(query);
      root = q.state.data;
      summary = this.queries.summary(q);
    } else {
      const s = this.find(store);
      const { stateSanitizer } = s.options;
      root = stateSanitizer ? attempt(() => stateSanitizer(s.latest(), s.seq), s.latest()) : s.latest();
    }
    const parts = parsePath(path);
    const at: PathPart[] = [];
    let v = root;
    for (const part of parts) {
      const next = child(v, part);
      if (!next) {
        throw new Error(
          `nothing at ${formatPath([...at, part])}: ${formatPath(at) || 'the root'} is ${kindOf(v)}${keysOf(v)}`,
        );
      }
      at.push(next[0]);
      v = next[1];
    }
    const size =
      v instanceof Map || v instanceof Set
        ? v.size
        : Array.isArray(v)
          ? v.length
          : isObject(v)
            ? Object.keys(v).length
            : undefined;
    if (offset > 0 && size !== undefined) v = skip(v, offset);
    const value = ser(v, { depth: 10, maxString: 2000, maxItems: 100, maxBytes });
    const out: ReadResult = { path: formatPath(at), value };
    if (size !== undefined) out.size = size;
    if (offset) out.offset = offset;
    if (summary) out.query = summary;
    return out;
  }

  /** The inspector asks for a change: dispatch, set, jump (or a query's invalidate / refetch). */
  change({ store, mode, value }: ChangeRequest): ChangeResult {
    if (mode === 'invalidate' || mode === 'refetch') {
      if (!this.queries) throw new Error('the app gave the state plugin no QueryClient: state({ queryClient })');
      return { queries: this.queries.change(mode, value) };
    }
    const s = this.find(store);
    const from = s.seq + 1;
    const { can, library } = s.info;
    if (!can[mode]) {
      throw new Error(
        `store "${s.info.name}" (${library}) does not accept ${mode}${mode !== 'set' ? ' (its devtools options turn it off)' : ': only Redux stores and Zustand take a state'}`,
      );
    }
    let note: string | undefined;
    if (mode === 'dispatch') {
      const action = typeof value === 'string' ? { type: value } : value;
      if (!isObject(action) || typeof (action as { type?: unknown }).type !== 'string') {
        throw new Error('dispatch takes an action object with a string type, e.g. {"type":"todos/add","payload":"x"}');
      }
      if (s.redux) {
        try {
          s.redux.dispatch(action);
        } catch (e) {
          throw new Error(`the store threw while dispatching ${typeOf(action)}: ${(e as Error)?.message ?? e}`);
        }
      } else {
        s.emit({ type: 'ACTION', payload: JSON.stringify(action) });
        if (s.seq < from) {
          note = `${s.info.name} recorded no action: ${library === 'zustand' ? 'Zustand dispatches only through its redux middleware or the actionCreators given to devtools(); use mode set to change its state' : 'its library may not take actions from a monitor'}`;
        }
      }
    } else if (mode === 'set') {
      if (!isObject(value)) throw new Error('set takes an object: the keys to change at the top of the state');
      const next = { ...(s.latest() as object), ...value };
      if (s.redux) s.redux.put(next);
      else s.emit({ type: 'ACTION', payload: JSON.stringify({ type: '__setState', state: value }) });
      s.add('set', { type: '@@porthole/set', keys: Object.keys(value) }, s.redux ? s.redux.getState() : next);
    } else {
      const seq = Number(value);
      const target = s.at(seq);
      if (!target) {
        const kept = s.ring.length ? `#${s.ring[0]!.seq}–#${s.seq}` : 'none';
        throw new Error(
          `the app no longer keeps the state after #${value} of "${s.info.name}" (it keeps the last ${s.ring.length}: ${kept}; the devtools option maxAge keeps more)`,
        );
      }
      if (s.redux) s.redux.put(target.state);
      else {
        let json: string;
        try {
          json = JSON.stringify(target.state);
        } catch (e) {
          throw new Error(`the state after #${seq} cannot be sent to the store as JSON: ${(e as Error).message}`);
        }
        s.emit({ type: 'DISPATCH', payload: { type: 'JUMP_TO_ACTION', actionId: seq }, state: json });
      }
      s.add('jump', { type: `@@porthole/jump`, to: seq }, s.redux ? s.redux.getState() : target.state);
    }
    this.flush();
    this.ctx?.flush();
    return s.seq >= from ? { from, to: s.seq, note } : { note };
  }
}

function attempt<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

const isObject = (x: unknown): x is object => x !== null && typeof x === 'object';

function child(v: unknown, part: PathPart): [PathPart, unknown] | undefined {
  if (v instanceof Map) {
    for (const [k, x] of v) if (k === part || String(k) === String(part)) return [String(part), x];
    return undefined;
  }
  if (!isObject(v)) return undefined;
  if (Array.isArray(v) && /^\d+$/.test(String(part))) {
    const i = Number(part);
    return i < v.length ? [i, v[i]] : undefined;
  }
  const desc = Object.getOwnPropertyDescriptor(v, String(part));
  if (!desc) return undefined;
  return [String(part), 'value' in desc ? desc.value : '(a getter: not run)'];
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (v instanceof Map) return `a Map of ${v.size}`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v).slice(0, 40)}`;
}

function keysOf(v: unknown): string {
  if (!isObject(v) || Array.isArray(v)) return '';
  const keys = v instanceof Map ? [...v.keys()].map(String) : Object.keys(v);
  return keys.length ? `; its keys: ${keys.slice(0, 20).join(', ')}${keys.length > 20 ? ', …' : ''}` : '';
}

function skip(v: unknown, n: number): unknown {
  if (Array.isArray(v)) return v.slice(n, n + 100);
  if (v instanceof Map || v instanceof Set) {
    const out: unknown[] = [];
    let i = 0;
    for (const x of v) if (i++ >= n && out.push(x) >= 100) break;
    return v instanceof Map ? new Map(out as [unknown, unknown][]) : new Set(out);
  }
  const o = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(o)
      .slice(n, n + 100)
      .map((k) => [k, Object.getOwnPropertyDescriptor(o, k)?.value]),
  );
}

const HUB = Symbol.for('porthole.state.hub');

/** The realm's hub (one, however many copies of the agent are bundled). */
export function hub(): Hub {
  const g = globalThis as { [HUB]?: Hub };
  g[HUB] ??= new Hub();
  return g[HUB];
}
