import {
  contextsOf,
  currentFiber,
  type Fiber,
  type FiberRoot,
  hooksOf,
  isComponent,
  rendered,
  Tag,
} from '../../../agent/react/fiber.js';
import type { RenderSummary, RendersParams } from '../protocol.js';
import type { FiberIds, FiberInfo } from './ids.js';

const MOUNT = 1;
const PROPS = 2;
const STATE = 4;
const CONTEXT = 8;
/** A new props object with the same values: its parent rendered. */
const PARENT = 16;

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
 * render); names and labels are made only when asked.
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
  private readonly keys: (string[] | undefined)[] = [];

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
    let keys: string[] | undefined;
    if (!prev) why = MOUNT;
    else {
      const p = next.memoizedProps;
      const q = prev.memoizedProps;
      if (p !== q && p && q) {
        for (const k in p) if (p[k] !== q[k]) (keys ??= []).length < 8 && keys.push(k);
        for (const k in q) if (!(k in p)) (keys ??= []).length < 8 && keys.push(k);
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

  /** What rendered after commit `since`, per component, most renders first. */
  summary({ since = 0, name, limit }: RendersParams): {
    components: RenderSummary[];
    more: number;
    dropped?: number;
  } {
    const first = Math.max(0, this.n - this.cap);
    const by = new Map<FiberInfo, RenderSummary>();
    const needle = name?.toLowerCase();
    for (let j = first; j < this.n; j++) {
      const i = j % this.cap;
      if (this.at[i]! <= since) continue;
      const info = this.info[i]!;
      if (needle && !info.name.toLowerCase().includes(needle)) continue;
      let s = by.get(info);
      if (!s) by.set(info, (s = { id: this.ids.format(info), name: info.name, renders: 0, why: {} }));
      s.renders++;
      if (this.ms[i]! >= 0) s.ms = (s.ms ?? 0) + this.ms[i]!;
      const why = this.why[i]!;
      const count = (reason: string) => {
        s.why[reason] = (s.why[reason] ?? 0) + 1;
      };
      if (why & MOUNT) count('mount');
      for (const k of this.keys[i] ?? []) count(`props.${k}`);
      if (why & STATE && !this.hooks[i]) count('state');
      if (why & PARENT) count('parent');
      if (!why) count('forced');
      // hooks and contexts by bit, labelled once below
      for (let m = this.hooks[i]!; m; m &= m - 1) count(`\0h${31 - Math.clz32(m & -m)}`);
      for (let m = this.ctx[i]!; m; m &= m - 1) count(`\0c${31 - Math.clz32(m & -m)}`);
    }
    const all = [...by].sort(([, a], [, b]) => b.renders - a.renders || (b.ms ?? 0) - (a.ms ?? 0));
    const shown = all.slice(0, limit);
    for (const [info, s] of shown) {
      if (s.ms !== undefined) s.ms = Math.round(s.ms * 100) / 100;
      label(s, info);
    }
    const oldest = first < this.n ? this.at[first % this.cap]! : this.commit + 1;
    const dropped = first > 0 && oldest > since + 1 ? first : undefined;
    return { components: shown.map(([, s]) => s), more: all.length - shown.length, dropped };
  }
}

/** useMemo's and useCallback's entry: [value, deps]. */
const pair = (s: object) => Array.isArray(s) && s.length === 2 && (s[1] === null || Array.isArray(s[1]));

/** Hook and context bits named as react_inspect lists them: `hook #2 state`, `context Theme`. */
function label(s: RenderSummary, info: FiberInfo): void {
  const f = info.ref.deref();
  const cur = f && currentFiber(f);
  const hooks = cur ? hooksOf(cur) : [];
  const contexts = cur ? contextsOf(cur) : [];
  const why: Record<string, number> = {};
  for (const [reason, times] of Object.entries(s.why)) {
    if (reason[0] !== '\0') {
      why[reason] = times;
      continue;
    }
    const bit = Number(reason.slice(2));
    let text: string;
    if (reason[1] === 'h') {
      let index = hooks.length - 1;
      while (index >= 0 && !((hooks[index]!.at ?? Infinity) <= bit)) index--;
      text = index >= 0 ? `hook #${index} ${hooks[index]!.kind}` : `hook @${bit}`;
    } else text = `context ${contexts[bit]?.name ?? `#${bit}`}`;
    why[text] = (why[text] ?? 0) + times;
  }
  s.why = why;
}
