import type { PathPart } from '../path.js';
import { NONE } from './hub.js';

// Work done off the app's hot path, when a batch leaves: what changed between two states, and about
// how large a state is. Both rely on immutable updates: an unchanged part keeps its reference, so
// comparing references skips it, and its size is remembered by reference.

const proto = Object.getPrototypeOf;
const isPlain = (x: unknown): x is Record<string, unknown> => {
  if (x === null || typeof x !== 'object') return false;
  const p = proto(x);
  return p === Object.prototype || p === null || Array.isArray(x);
};
const has = (o: object, k: string) => Object.hasOwn(o, k);

/** A change: its path, the value before and after (`NONE`: the key was not there). */
export type Found = [path: PathPart[], before: unknown, after: unknown];

export interface DiffResult {
  changes: Found[];
  /** Changes found beyond the `max` kept. */
  more: number;
  /** The comparison budget ran out: a listed path may hide more changes. */
  cut: boolean;
}

/**
 * The paths where `b` differs from `a`, descending into plain objects and arrays whose reference
 * changed; at most `max` kept, at most `budget` comparisons made.
 */
export function diff(a: unknown, b: unknown, max = 20, budget = 20_000): DiffResult {
  const walk = walker.busy ? new Walk() : walker;
  walk.start(max, budget);
  try {
    walk.walk(a, b);
    return { changes: walk.changes, more: walk.more, cut: walk.cut };
  } finally {
    walk.busy = false;
  }
}

/** The first index from `i` where the arrays' items differ (or either ends). */
function same(x: unknown[], y: unknown[], i: number): number {
  const n = Math.min(x.length, y.length);
  while (i < n && (x[i] === y[i] || Object.is(x[i], y[i]))) i++;
  return i;
}

// One walker kept for every diff, not closures or an object made per call: V8 throws away compiled
// code whose objects' shapes no object has any more, which after each full collection was every
// diff's, and the app's CPU paid for compiling it again (5-25 ms a time).
class Walk {
  busy = false;
  changes: Found[] = [];
  more = 0;
  cut = false;
  private path: PathPart[] = [];
  private max = 0;
  private budget = 0;

  start(max: number, budget: number): void {
    this.busy = true;
    this.changes = [];
    this.more = 0;
    this.cut = false;
    this.path = [];
    this.max = max;
    this.budget = budget;
  }

  private add(before: unknown, after: unknown): void {
    if (this.changes.length < this.max) this.changes.push([this.path.slice(), before, after]);
    else this.more++;
  }

  walk(x: unknown, y: unknown): void {
    if (Object.is(x, y) || x === y) return;
    const path = this.path;
    if (--this.budget < 0 || !isPlain(x) || !isPlain(y) || Array.isArray(x) !== Array.isArray(y) || path.length > 40) {
      if (this.budget < 0) this.cut = true;
      this.add(x, y);
      return;
    }
    if (Array.isArray(x)) {
      const ya = y as unknown as unknown[];
      const n = Math.max(x.length, ya.length);
      for (let i = same(x, ya, 0); i < n && this.budget >= 0; i = same(x, ya, i + 1)) {
        path.push(i);
        if (i >= x.length) this.add(NONE, ya[i]);
        else if (i >= ya.length) this.add(x[i], NONE);
        else this.walk(x[i], ya[i]);
        path.pop();
      }
      return;
    }
    for (const k in x) {
      if (!has(x, k)) continue;
      path.push(k);
      if (has(y, k)) this.walk(x[k], y[k]);
      else this.add(x[k], NONE);
      path.pop();
    }
    for (const k in y) {
      if (!has(y, k) || has(x, k)) continue;
      path.push(k);
      this.add(NONE, y[k]);
      path.pop();
    }
  }
}

const walker = new Walk();

const sizes = new WeakMap<object, number>();

/**
 * About how many bytes of JSON `x` makes, visiting at most `budget.left` objects; sizes of parts
 * measured whole are remembered by reference, so the next estimate of a new state only walks what
 * changed. `budget.cut` is set when it stopped early (the result is then a lower bound).
 */
export function sizeOf(x: unknown, budget: { left: number; cut: boolean }, depth = 0): number {
  switch (typeof x) {
    case 'string':
      return x.length + 2;
    case 'number':
      return 8;
    case 'boolean':
      return 5;
    case 'object':
      break;
    default:
      return 0;
  }
  if (x === null) return 4;
  const known = sizes.get(x);
  if (known !== undefined) return known;
  if (--budget.left < 0 || depth > 64) {
    budget.cut = true;
    return 0;
  }
  const wasCut = budget.cut;
  budget.cut = false;
  let n = 2;
  if (x instanceof Map) for (const [k, v] of x) n += sizeOf(k, budget, depth + 1) + sizeOf(v, budget, depth + 1) + 2;
  else if (x instanceof Set || Array.isArray(x))
    for (const v of x as Iterable<unknown>) n += sizeOf(v, budget, depth + 1) + 1;
  else if (ArrayBuffer.isView(x)) n += x.byteLength;
  else for (const k of Object.keys(x)) n += k.length + 3 + sizeOf((x as Record<string, unknown>)[k], budget, depth + 1);
  if (!budget.cut) sizes.set(x, n);
  budget.cut ||= wasCut;
  return n;
}
