import { type Fiber, isComponent, isHost, Tag } from './fiber.js';

// What an inspection reads from a fiber (loaded when one is asked for): badges, host nodes, hooks
// with their kind, contexts, owners and source locations.

/** Badges React DevTools shows beside a name. */
export function fiberBadge(f: Fiber): string | undefined {
  switch (f.tag) {
    case Tag.ForwardRef:
      return 'forwardRef';
    case Tag.SimpleMemo:
      return 'memo';
    case Tag.Class:
      return 'class';
    case Tag.Suspense:
      return f.memoizedState != null ? 'suspended' : undefined;
  }
  return undefined;
}

/** The nearest host instances (DOM nodes, native views) a fiber renders, outside hidden Suspense content. */
export function hostNodes(f: Fiber, max = 50): unknown[] {
  const out: unknown[] = [];
  const visit = (x: Fiber | null, top: boolean): void => {
    for (; x && out.length < max; x = top ? null : x.sibling) {
      if (isHost(x) || x.tag === Tag.Text) out.push(x.stateNode);
      else if (!(x.tag === Tag.Offscreen && x.memoizedState != null)) visit(x.child, false);
    }
  };
  visit(f, true);
  return out;
}

/** A hook as React DevTools lists it: its kind and value; `at` is its place in the fiber's hook list. */
export interface HookInfo {
  kind: string;
  value?: unknown;
  /** deps of an effect, memo or callback */
  deps?: unknown;
  at?: number;
}

// React's hook names → [kind, how many entries of the fiber's hook list the hook takes].
const HOOKS: Record<string, [string, number]> = {
  useState: ['state', 1],
  useReducer: ['reducer', 1],
  useMemo: ['memo', 1],
  useCallback: ['callback', 1],
  useRef: ['ref', 1],
  useEffect: ['effect', 1],
  useLayoutEffect: ['layoutEffect', 1],
  useInsertionEffect: ['insertionEffect', 1],
  useImperativeHandle: ['imperativeHandle', 1],
  useContext: ['context', 0],
  useDebugValue: ['debugValue', 0],
  useId: ['id', 1],
  useTransition: ['transition', 2],
  useDeferredValue: ['deferredValue', 1],
  useSyncExternalStore: ['syncExternalStore', 2],
  useOptimistic: ['optimistic', 1],
  useActionState: ['actionState', 3],
  useFormState: ['actionState', 3],
  useEffectEvent: ['effectEvent', 1],
  useCacheRefresh: ['cacheRefresh', 1],
};

interface HookNode {
  memoizedState: unknown;
  queue: { getSnapshot?: unknown; lastRenderedState?: unknown } | null;
  next: HookNode | null;
}

interface EffectLike {
  tag: number;
  create: unknown;
  deps: unknown;
}

const isEffect = (s: unknown): s is EffectLike =>
  !!s && typeof s === 'object' && typeof (s as EffectLike).tag === 'number' && 'create' in s && 'deps' in s;

/** A function component's hooks in call order, kinds from React's dev-build hook names, else from their shape. */
export function hooksOf(f: Fiber): HookInfo[] {
  if (f.tag === Tag.Class || f.tag === Tag.IncompleteClass || !isComponent(f)) return [];
  const nodes: HookNode[] = [];
  for (let n = f.memoizedState as HookNode | null; n && nodes.length < 1000; n = n.next) nodes.push(n);
  const contexts = contextsOf(f);
  const types = f._debugHookTypes;
  if (types) {
    const plan = types.map((t) => HOOKS[t]);
    if (plan.every(Boolean) && plan.reduce((sum, p) => sum + p![1], 0) === nodes.length) {
      let at = 0;
      let ctx = 0;
      const usesContext = plan.filter((p) => p![0] === 'context').length === contexts.length;
      return plan.map(([kind, size]) => {
        if (kind === 'context') return usesContext ? { kind, value: contexts[ctx++]!.value } : { kind };
        if (size === 0) return { kind };
        const hook = describe(kind, nodes[at]!, at);
        at += size;
        return hook;
      });
    }
  }
  return nodes.map((n, at) => describe(kindOf(n), n, at));
}

/** A hook's kind from its shape alone (production builds): what the entry holds says what it is. */
function kindOf(n: HookNode): string {
  const s = n.memoizedState;
  if (n.queue?.getSnapshot) return 'syncExternalStore';
  if (n.queue && 'lastRenderedState' in n.queue) return 'state';
  if (isEffect(s)) return s.tag & 4 ? 'layoutEffect' : s.tag & 2 ? 'insertionEffect' : 'effect';
  if (Array.isArray(s) && s.length === 2 && (s[1] === null || Array.isArray(s[1])))
    return typeof s[0] === 'function' ? 'callback' : 'memo';
  if (s && typeof s === 'object' && Object.keys(s).length === 1 && 'current' in s) return 'ref';
  return 'hook';
}

function describe(kind: string, n: HookNode, at: number): HookInfo {
  const s = n.memoizedState as { current?: unknown; impl?: unknown; deps?: unknown } | unknown[] | null;
  switch (kind) {
    case 'memo':
    case 'callback':
      return { kind, at, value: (s as unknown[] | null)?.[0], deps: (s as unknown[] | null)?.[1] };
    case 'ref':
      return { kind, at, value: (s as { current?: unknown } | null)?.current };
    case 'effectEvent':
      return { kind, at, value: (s as { impl?: unknown } | null)?.impl };
    case 'effect':
    case 'layoutEffect':
    case 'insertionEffect':
    case 'imperativeHandle':
      return { kind, at, deps: isEffect(s) ? s.deps : undefined };
    case 'cacheRefresh':
      return { kind, at };
    default:
      return { kind, at, value: s };
  }
}

/** The contexts a fiber reads (useContext, use, contextType, Consumer), with the values it read. */
export function contextsOf(f: Fiber): { name: string; value: unknown }[] {
  const out: { name: string; value: unknown }[] = [];
  for (let d = f.dependencies?.firstContext ?? null; d && out.length < 100; d = d.next) {
    out.push({ name: d.context?.displayName || 'Context', value: d.memoizedValue });
  }
  return out;
}

/** The components that rendered this one (`_debugOwner`, dev builds), nearest first. */
export function ownersOf(f: Fiber, max = 20): (Fiber | { name?: string })[] {
  const out: (Fiber | { name?: string })[] = [];
  for (let o = f._debugOwner; o && out.length < max; o = (o as Fiber)._debugOwner) out.push(o);
  return out;
}

/** A place in a script as React gives it. */
export interface SourcePlace {
  file: string;
  line: number;
  column: number;
  /** The function the place is in (the owner's render, for a JSX site). */
  fn?: string;
}

const FRAME = /^\s*(?:at\s+(?:(.*?)\s+\()?(.*?):(\d+):(\d+)\)?|(.*?)@(.*?):(\d+):(\d+))\s*$/;
// React's own frames at the top of an element's stack: jsxDEV, createElement, cloneElement.
const CREATION = /(?:^|\.)(?:jsxs?|jsxDEV|jsxDEVImpl|jsxProd|createElement|cloneElement)$/;

/**
 * Where the element for this fiber was written: `_debugSource` (React 18 dev with the JSX source
 * transform), else the first frame below React's own in `_debugStack` (React 19 dev), with the
 * owner's frames after it (until React's bottom frame).
 */
export function sourceOf(f: Fiber): { at: SourcePlace; stack?: SourcePlace[] } | undefined {
  const s = f._debugSource;
  if (s?.fileName) return { at: { file: s.fileName, line: s.lineNumber ?? 0, column: s.columnNumber ?? 0 } };
  const text = f._debugStack?.stack;
  if (typeof text !== 'string') return undefined;
  const frames: SourcePlace[] = [];
  let started = false;
  for (const line of text.split('\n', 40)) {
    const m = FRAME.exec(line);
    if (!m) continue;
    const fn = m[1] ?? m[5] ?? '';
    if (/react[-_]stack[-_]bottom[-_]frame/.test(fn)) break;
    if (!started && CREATION.test(fn)) continue;
    started = true;
    frames.push({ file: m[2] ?? m[6]!, line: Number(m[3] ?? m[7]), column: Number(m[4] ?? m[8]), fn: fn || undefined });
    if (frames.length >= 6) break;
  }
  const [at, ...stack] = frames;
  return at && { at, stack: stack.length ? stack : undefined };
}
