import { type Fiber, type FiberRoot, isComponent, rendered, Tag } from '../../../agent/react/fiber.js';
import type { FiberIds, FiberInfo } from './ids.js';

export const MOUNT = 1;
const PROPS = 2;
export const STATE = 4;
const CONTEXT = 8;
/** A new props object with the same values: its parent rendered. */
export const PARENT = 16;

/** The ring's arrays as renders-summary.ts reads them: record i of n, at i % cap. */
export interface RenderRecords {
  n: number;
  cap: number;
  commit: number;
  info: FiberInfo[];
  at: number[];
  why: number[];
  hooks: number[];
  ctx: number[];
  ms: number[];
  keys: (string | string[] | undefined)[];
}

interface HookNode {
  memoizedState: unknown;
  queue: unknown;
  next: HookNode | null;
}
interface Dep {
  memoizedValue: unknown;
  next: Dep | null;
}

/**
 * Each commit's renders, counted on React's commit path: which components rendered, their own
 * render time (when React measures it), and why — props, state hooks and contexts compared by
 * identity with the fiber's previous version. Kept in a ring of parallel arrays (no object per
 * render); renders-summary.ts adds them up and names them when asked.
 */
export class RenderLog {
  commit = 0;
  private n = 0;
  private readonly info: FiberInfo[] = [];
  private readonly at: number[] = [];
  private readonly why: number[] = [];
  private readonly hooks: number[] = [];
  private readonly ctx: number[] = [];
  private readonly ms: number[] = [];
  private readonly keys: (string | string[] | undefined)[] = [];

  constructor(
    private readonly ids: FiberIds,
    private readonly cap = 20_000,
  ) {}

  get total(): number {
    return this.n;
  }

  /** Called by the hook after each commit. */
  onCommit(root: FiberRoot): void {
    this.commit++;
    const cur = root.current;
    this.visit(cur, cur.alternate);
  }

  private visit(next: Fiber, prev: Fiber | null): void {
    if (isComponent(next) && (!prev || rendered(next))) this.record(next, prev);
    // The same children as before: nothing below rendered.
    if (prev && next.child === prev.child) return;
    for (let c = next.child; c; c = c.sibling) this.visit(c, c.alternate);
  }

  private record(next: Fiber, prev: Fiber | null): void {
    let why = 0;
    let hooks = 0;
    let ctx = 0;
    // the changed props' names: one name as it is (no allocation), more in an array
    let keys: string | string[] | undefined;
    if (!prev) why = MOUNT;
    else {
      const p = next.memoizedProps;
      const q = prev.memoizedProps;
      if (p !== q && p && q) {
        for (const k in p) {
          if (p[k] === q[k]) continue;
          if (keys === undefined) keys = k;
          else if (typeof keys === 'string') keys = [keys, k];
          else if (keys.length < 8) keys.push(k);
        }
        // a removed prop, looked for only when no other changed (a render has its reason already)
        if (keys === undefined) for (const k in q) if (!(k in p)) keys = k;
        why |= keys ? PROPS : PARENT;
      }
      if (next.tag === Tag.Class) {
        if (next.memoizedState !== prev.memoizedState) why |= STATE;
      } else {
        let a = next.memoizedState as HookNode | null;
        let b = prev.memoizedState as HookNode | null;
        for (let i = 0; a && b && i < 31; i++, a = a.next, b = b.next) {
          const s = a.memoizedState;
          // state-like hooks have a queue; a deferred value has none. An effect or a memo entry is
          // new whenever it ran again: not a cause.
          if (s !== b.memoizedState && (a.queue || !s || typeof s !== 'object' || !('create' in s || pair(s)))) {
            hooks |= 1 << i;
          }
        }
        if (hooks) why |= STATE;
      }
      let c = (next.dependencies?.firstContext ?? null) as Dep | null;
      let d = (prev.dependencies?.firstContext ?? null) as Dep | null;
      for (let i = 0; c && d && i < 31; i++, c = c.next, d = d.next) {
        if (c.memoizedValue !== d.memoizedValue) ctx |= 1 << i;
      }
      if (ctx) why |= CONTEXT;
    }
    const info = this.ids.info(next);
    info.renders++;
    const i = this.n++ % this.cap;
    this.info[i] = info;
    this.at[i] = this.commit;
    this.why[i] = why;
    this.hooks[i] = hooks;
    this.ctx[i] = ctx;
    this.ms[i] = typeof next.selfBaseDuration === 'number' ? next.selfBaseDuration : -1;
    this.keys[i] = keys;
  }

  /** The renders kept, oldest first, for summaries (renders-summary.ts). */
  records(): RenderRecords {
    return {
      n: this.n,
      cap: this.cap,
      commit: this.commit,
      info: this.info,
      at: this.at,
      why: this.why,
      hooks: this.hooks,
      ctx: this.ctx,
      ms: this.ms,
      keys: this.keys,
    };
  }
}

/** useMemo's and useCallback's entry: [value, deps]. */
const pair = (s: object) => Array.isArray(s) && s.length === 2 && (s[1] === null || Array.isArray(s[1]));
