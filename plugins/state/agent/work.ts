import { type SerializeLimits, Serializer } from '../../../agent/serialize.js';
import type { SerializedValue } from '../../../shared/serialized-value.js';
import { formatPath, type PathPart, parsePath } from '../path.js';
import type {
  ActionSent,
  ActionWire,
  Batch,
  ChangeRequest,
  ChangeResult,
  QueryWire,
  Read,
  ReadResult,
} from '../protocol.js';
import { diff, sizeOf } from './diff.js';
import { type Hub, Marked, NONE, type Store, typeOf } from './hub.js';
import type { Queries, QueryLike } from './queries.js';

// The agent's work off the app's hot path, loaded when the plugin joins: making batches (diffs,
// serialized actions and values, sizes), and answering the inspector's reads and changes.

export const ACTION: SerializeLimits = { depth: 3, maxString: 200, maxItems: 10, maxBytes: 1000 };
const VALUE: SerializeLimits = { depth: 2, maxString: 120, maxItems: 5, maxBytes: 500 };
const CHUNK = 1000;
const CHUNK_MS = 30;
const SIZE_EVERY_MS = 1000;
const SIZE_BUDGET = 50_000;

const ser = (x: unknown, limits: SerializeLimits) => new Serializer(limits).value(x);
const own = Object.getOwnPropertyDescriptor;

/**
 * An action as the Serializer gives it within ACTION's limits, made without it for the usual shape
 * (a plain object, two levels at most, of strings, finite numbers, booleans and null, no getters or
 * symbols, within ACTION's items and bytes as the Serializer counts them): a third of the cost.
 */
export function small(action: unknown): SerializedValue {
  try {
    const bytes = { n: 0 };
    const out = plain(action, 0, bytes);
    if (out !== undefined && bytes.n <= ACTION.maxBytes) return out;
  } catch {}
  return ser(action, ACTION);
}

function plain(x: unknown, depth: number, bytes: { n: number }): SerializedValue | undefined {
  switch (typeof x) {
    case 'string':
      bytes.n += x.length + 3;
      return x.length <= ACTION.maxString ? x : undefined;
    case 'number':
      bytes.n += 8;
      return Number.isFinite(x) && !Object.is(x, -0) ? x : undefined;
    case 'boolean':
      bytes.n += 5;
      return x;
    case 'object':
      break;
    default:
      return undefined;
  }
  bytes.n += x === null ? 4 : 16;
  if (x === null) return null;
  if (depth >= 2 || Object.getPrototypeOf(x) !== Object.prototype) return undefined;
  const keys = Object.keys(x);
  if (keys.length > ACTION.maxItems || Object.getOwnPropertySymbols(x).length) return undefined;
  const props: Record<string, SerializedValue> = Object.create(null);
  for (const k of keys) {
    const desc = own(x, k);
    bytes.n += k.length + 3;
    const v = desc && 'value' in desc ? plain(desc.value, depth + 1, bytes) : undefined;
    if (v === undefined || bytes.n > ACTION.maxBytes) return undefined;
    props[k] = v;
  }
  return { $: 'object', props };
}

export function drain(hub: Hub, full: boolean): Batch {
  hub.queued = false;
  const batch: Batch = { run: hub.run };
  if (full || hub.listChanged) {
    batch.stores = hub.stores.map((s) => s.info);
    batch.full = full || undefined;
    hub.listChanged = false;
  }
  const started = Date.now();
  const actions: ActionSent[] = [];
  // An inspector that speaks 1.1 takes a run of actions sent by type alone as one entry (`repeat`).
  const runs = hub.runs ?? atLeast(hub.ctx?.hostVersion, 1, 1);
  // Actions from now on start runs of their own: this batch takes the newest as it is.
  hub.open = undefined;
  let taken = 0;
  hub.waiting.take(CHUNK * 20, (store, seq, entry, time, more) => {
    if (actions.length >= CHUNK || (taken++ % 50 === 49 && Date.now() - started > CHUNK_MS)) return false;
    if (typeof entry === 'string') sendRun(actions, store, seq, entry, 1 + more, time, runs);
    else actions.push(wire(store, seq, entry, time));
    return true;
  });
  if (actions.length) batch.actions = actions;
  if (Object.keys(hub.dropped).length) {
    batch.dropped = hub.dropped;
    hub.dropped = {};
  }
  const measured = sizes(hub);
  if (measured.length) batch.sizes = measured;
  if (hub.queries) Object.assign(batch, takeQueries(hub.queries, full));
  if (hub.waiting.count) hub.schedule();
  return batch;
}

/**
 * `count` actions of one type waiting by their type alone (a run): as one entry (`repeat`) to an
 * inspector that speaks 1.1, else one by one (each through the store's actionSanitizer, when it has
 * one); the last on its own when its state is there (the store's latest, or kept when the next
 * window began), with the diff that spans those before.
 */
function sendRun(
  out: ActionSent[],
  s: Store,
  seq: number,
  type: string,
  count: number,
  time: number,
  runs: boolean,
): void {
  const last = seq + count - 1;
  const n = s.at(last) === NONE ? count : count - 1;
  if (n > 0 && runs && !s.options.actionSanitizer) {
    const first = wire(s, seq, type, time);
    if (n > 1) first.repeat = n - 1;
    s.skipped += n - 1;
    out.push(first);
  } else for (let k = 0; k < n; k++) out.push(wire(s, seq + k, type, time));
  if (n < count) out.push(wire(s, last, type, time));
}

/** `version` (major.minor…) is at least major.minor of the same major. */
function atLeast(version: string | undefined, major: number, minor: number): boolean {
  const [a, b] = (version ?? '').split('.').map(Number);
  return a === major && (b ?? 0) >= minor;
}

/**
 * One waiting entry as the wire carries it: the action small, and its diff when its state was kept.
 * A burst's drain runs the same path thousands of times and another at its last entry, so V8 compiles
 * it for the common path: every entry reads what the last one needs and every entry is made in one
 * shape (JSON leaves out the fields left undefined). Otherwise each burst's end throws the compiled
 * code away and the app's CPU pays for compiling it again.
 */
export function wire(s: Store, seq: number, entry: unknown, time: number): ActionSent {
  const marked = entry instanceof Marked ? entry : undefined;
  const latest = s.currentAction;
  // An action of a burst or far back in a long wait kept its type only; the store's latest is whole.
  const raw = marked
    ? marked.action
    : typeof entry !== 'string'
      ? entry
      : seq === s.seq && latest !== undefined
        ? latest
        : { type: entry };
  const { stateSanitizer, actionSanitizer } = s.options;
  const action = actionSanitizer ? attempt(() => actionSanitizer(raw, seq), raw) : raw;
  // A type kept alone (thousands in a burst's drain): what small() makes of it, without its walk.
  const typeOnly = typeof entry === 'string' && raw !== latest && !actionSanitizer && entry.length <= ACTION.maxString;
  let d: ReturnType<typeof diff> | undefined;
  const state = s.at(seq);
  if (state === NONE) s.skipped++;
  else {
    const view = stateSanitizer ? attempt(() => stateSanitizer(state, seq), state) : state;
    d = s.view === NONE ? undefined : diff(s.view, view);
    s.view = view;
  }
  const out: ActionSent = {
    store: s.info.id,
    seq,
    time,
    type: typeOnly ? entry : typeOf(action),
    action: typeOnly ? { $: 'object', props: { type: entry } } : small(action),
    kind: marked?.kind,
    diff: undefined,
    more: undefined,
    cut: undefined,
    error: marked?.error || undefined,
    span: undefined,
    repeat: undefined,
  };
  if (d?.changes.length) {
    out.diff = d.changes.map(([path, before, after]) => {
      const change: ActionWire['diff'][number] = { path: formatPath(path) };
      if (before !== NONE) change.before = ser(before, VALUE);
      if (after !== NONE) change.after = ser(after, VALUE);
      return change;
    });
    if (d.more) out.more = d.more;
    if (d.cut) out.cut = true;
  }
  if (d && s.skipped) {
    out.span = s.skipped;
    s.skipped = 0;
  }
  return out;
}

function sizes(hub: Hub): NonNullable<Batch['sizes']> {
  const now = Date.now();
  const out: NonNullable<Batch['sizes']> = [];
  for (const s of hub.stores) {
    const state = s.view === NONE ? s.latest() : s.view;
    if (state === s.sized || now - s.sizedAt < SIZE_EVERY_MS || s.seq < 0) continue;
    const budget = { left: SIZE_BUDGET, cut: false };
    const bytes = sizeOf(state, budget);
    s.sized = budget.cut ? NONE : state;
    s.sizedAt = now;
    out.push(budget.cut ? { store: s.info.id, bytes, atLeast: true } : { store: s.info.id, bytes });
  }
  return out;
}

export function find(hub: Hub, id: string | undefined): Store {
  const store = id === undefined && hub.stores.length === 1 ? hub.stores[0] : hub.stores.find((s) => s.info.id === id);
  if (!store)
    throw new Error(
      `no store ${id} in the app now (it has ${hub.stores.map((s) => s.info.name).join(', ') || 'none'})`,
    );
  return store;
}

/** A value of a store's state (or a query's data) at a path, serialized within `maxBytes`. */
export function read(hub: Hub, { store, query, path, offset, maxBytes }: Read): ReadResult {
  let root: unknown;
  let summary: unknown;
  if (query !== undefined) {
    if (!hub.queries) throw new Error('the app gave the state plugin no QueryClient: state({ queryClient })');
    const q = findQuery(hub.queries, query);
    root = q.state.data;
    summary = querySummary(q);
  } else {
    const s = find(hub, store);
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
export function change(hub: Hub, { store, mode, value }: ChangeRequest): ChangeResult {
  if (mode === 'invalidate' || mode === 'refetch') {
    if (!hub.queries) throw new Error('the app gave the state plugin no QueryClient: state({ queryClient })');
    return { queries: changeQueries(hub.queries, mode, value) };
  }
  const s = find(hub, store);
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
    const target = Number.isInteger(seq) && seq >= 0 ? s.at(seq) : NONE;
    if (target === NONE) {
      const kept = [...s.kept.keys()];
      if (kept.at(-1) !== s.seq && s.seq >= 0) kept.push(s.seq);
      const list =
        kept.length > 12 ? `${kept.slice(0, 4).join(', ')}, …, ${kept.slice(-6).join(', ')}` : kept.join(', ');
      throw new Error(
        `the app no longer keeps the state after #${value} of "${s.info.name}" (it keeps the states after ${kept.length} actions: ${list || 'none'}; the devtools option maxAge keeps more, and in a burst only the first ${s.hub.burst} actions of each ${s.hub.flushMs} ms and the last keep theirs)`,
      );
    }
    if (s.redux) s.redux.put(target);
    else {
      let json: string;
      try {
        json = JSON.stringify(target);
      } catch (e) {
        throw new Error(`the state after #${seq} cannot be sent to the store as JSON: ${(e as Error).message}`);
      }
      s.emit({ type: 'DISPATCH', payload: { type: 'JUMP_TO_ACTION', actionId: seq }, state: json });
    }
    s.add('jump', { type: `@@porthole/jump`, to: seq }, s.redux ? s.redux.getState() : target);
  }
  hub.flush();
  hub.ctx?.flush();
  return s.seq >= from ? { from, to: s.seq, note } : { note };
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

// TanStack Query ---------------------------------------------------------------------------------

const message = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 2000);

export function querySummary(q: QueryLike): QueryWire {
  const s = q.state;
  const out: QueryWire = {
    hash: q.queryHash.slice(0, 4000),
    key: new Serializer({ depth: 4, maxString: 200, maxItems: 10, maxBytes: 1000 }).value(q.queryKey),
    status: s.status,
    fetchStatus: s.fetchStatus,
    dataUpdatedAt: s.dataUpdatedAt,
    errorUpdatedAt: s.errorUpdatedAt,
    observers: q.getObserversCount(),
    stale: q.isStale(),
    invalidated: s.isInvalidated,
    updates: s.dataUpdateCount,
    failures: s.fetchFailureCount,
  };
  if (s.error != null) out.error = message(s.error);
  return out;
}

/** Summaries of what changed (all of them when `full`), and the hashes of those removed. */
function takeQueries(qs: Queries, full: boolean): Pick<Batch, 'queries' | 'removedQueries'> {
  const cache = qs.client.getQueryCache();
  const changed = full ? cache.getAll() : [...qs.dirty];
  const out: Pick<Batch, 'queries' | 'removedQueries'> = {};
  if (changed.length) out.queries = changed.slice(0, 5000).map((q) => querySummary(q));
  if (qs.removed.size) out.removedQueries = [...qs.removed].slice(0, 5000);
  qs.dirty.clear();
  qs.removed.clear();
  return out;
}

/** A query by its hash, or by its key (an array, matched exactly). */
function findQuery(qs: Queries, key: unknown): QueryLike {
  const cache = qs.client.getQueryCache();
  const q =
    (typeof key === 'string' ? cache.get(key) : undefined) ??
    cache.find({ queryKey: Array.isArray(key) ? key : [key], exact: true });
  if (!q) throw new Error(`no query ${JSON.stringify(key)?.slice(0, 200)} in the app's QueryClient now`);
  return q;
}

/** Invalidates or refetches the queries whose key starts with `key` (all without one); returns how many. */
function changeQueries(qs: Queries, mode: 'invalidate' | 'refetch', key: unknown): number {
  const filters = key === undefined || key === null ? {} : { queryKey: Array.isArray(key) ? key : [key] };
  const n = qs.client.getQueryCache().findAll(filters).length;
  const done = mode === 'invalidate' ? qs.client.invalidateQueries(filters) : qs.client.refetchQueries(filters);
  done.catch(() => {});
  return n;
}
