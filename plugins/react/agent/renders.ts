import { COMPONENT, type Fiber, type FiberRoot, Tag } from '../../../agent/react/fiber.js';
import type { FiberIds, FiberInfo } from './ids.js';

export const MOUNT = 1;
const PROPS = 2;
export const STATE = 4;
const CONTEXT = 8;
/** A new props object with the same values: its parent rendered. */
export const PARENT = 16;
/** Its props, state or a hook were written from the inspector (react_inspect's set, the panel). */
export const WRITTEN = 32;

/** The ring's arrays as renders-summary.ts reads them: record i of n, at i % cap. */
export interface RenderRecords {
  n: number;
  cap: number;
  commit: number;
  info: FiberInfo[];
  at: Int32Array;
  why: Int32Array;
  hooks: Int32Array;
  ctx: Int32Array;
  ms: Float32Array;
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
  private readonly keys: (string | string[] | undefined)[] = [];
  // numbers in typed arrays (no write barrier, nothing for the GC to scan), grown as renders come
  private at = new Int32Array(256);
  private why = new Int32Array(256);
  private hooks = new Int32Array(256);
  private ctx = new Int32Array(256);
  private ms = new Float32Array(256);

  constructor(
    private readonly ids: FiberIds,
    private readonly cap = 20_000,
  ) {}

  /** The component's next render is one the inspector caused by writing to it. */
  wrote(f: Fiber): void {
    this.written ??= new WeakSet();
    this.written.add(f);
    if (f.alternate) this.written.add(f.alternate);
  }
  private written: WeakSet<Fiber> | undefined;

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
    if (next.tag < 32 && (COMPONENT >>> next.tag) & 1 && (!prev || next.flags & 1)) this.record(next, prev);
    // Nothing below rendered: no PerformedWork bubbled up (React 18+), or the same children as before.
    const below = next.subtreeFlags;
    if ((below !== undefined && !(below & 1)) || (prev && next.child === prev.child)) return;
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
      // React's overrides copy the props object: a write, not the parent
      if (this.written) {
        const wrote = this.written.delete(next);
        if (this.written.delete(prev) || wrote) why = (why & ~PARENT) | WRITTEN;
      }
    }
    const info = this.ids.info(next);
    info.renders++;
    const i = this.n++ % this.cap;
    if (i >= this.at.length) this.grow();
    this.info[i] = info;
    this.keys[i] = keys;
    this.at[i] = this.commit;
    this.why[i] = why;
    this.hooks[i] = hooks;
    this.ctx[i] = ctx;
    this.ms[i] = typeof next.selfBaseDuration === 'number' ? next.selfBaseDuration : -1;
  }

  private grow(): void {
    const size = Math.min(this.cap, this.at.length * 2);
    const more = <T extends Int32Array | Float32Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(size);
      b.set(a);
      return b;
    };
    this.at = more(this.at);
    this.why = more(this.why);
    this.hooks = more(this.hooks);
    this.ctx = more(this.ctx);
    this.ms = more(this.ms);
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
