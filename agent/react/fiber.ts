// Reading React's fibers (React 18 and 19, DOM and Native): the fields, the kinds, names and the
// committed version of a fiber: what the commit path needs. The details an inspection reads (hooks,
// contexts, owners, sources, host nodes) are in fiber-details.ts. Everything here only reads;
// callers catch what a strange fiber throws.

/** The fields of a React fiber that Porthole reads. */
export interface Fiber {
  tag: number;
  key: string | null;
  // biome-ignore lint/suspicious/noExplicitAny: a fiber's type is a function, a class, a string or a React object
  type: any;
  // biome-ignore lint/suspicious/noExplicitAny: as type
  elementType: any;
  // biome-ignore lint/suspicious/noExplicitAny: a DOM node, a class instance, a FiberRoot…
  stateNode: any;
  return: Fiber | null;
  child: Fiber | null;
  sibling: Fiber | null;
  alternate: Fiber | null;
  // biome-ignore lint/suspicious/noExplicitAny: the app's props
  memoizedProps: any;
  // biome-ignore lint/suspicious/noExplicitAny: class state, a hook list, a root's state…
  memoizedState: any;
  dependencies?: { firstContext: ContextDependency | null } | null;
  flags: number;
  /** The flags of everything below, bubbled up at completion (React 18+). */
  subtreeFlags?: number;
  actualDuration?: number;
  selfBaseDuration?: number;
  _debugOwner?: Fiber | { name?: string } | null;
  _debugSource?: { fileName?: string; lineNumber?: number; columnNumber?: number } | null;
  _debugStack?: { stack?: string } | null;
  _debugHookTypes?: string[] | null;
}

export interface ContextDependency {
  context: { displayName?: string };
  memoizedValue: unknown;
  next: ContextDependency | null;
}

export interface FiberRoot {
  current: Fiber;
  containerInfo?: unknown;
}

/** React's work tags (the same numbers in 18 and 19). */
export const Tag = {
  Function: 0,
  Class: 1,
  Indeterminate: 2,
  HostRoot: 3,
  Portal: 4,
  Host: 5,
  Text: 6,
  Fragment: 7,
  Mode: 8,
  Consumer: 9,
  Provider: 10,
  ForwardRef: 11,
  Profiler: 12,
  Suspense: 13,
  Memo: 14,
  SimpleMemo: 15,
  Lazy: 16,
  IncompleteClass: 17,
  SuspenseList: 19,
  Offscreen: 22,
  HostHoistable: 26,
  HostSingleton: 27,
  IncompleteFunction: 28,
  ViewTransition: 30,
  Activity: 31,
} as const;

const bits = (...tags: number[]) => tags.reduce((mask, tag) => mask | (1 << tag), 0);
/** The component kinds a person writes, whose renders count: a mask of tags (`(COMPONENT >>> tag) & 1`). */
export const COMPONENT = bits(0, 1, 2, 11, 15, 17, 28);
/** What a React DevTools tree shows besides components. */
const SHOWN = bits(9, 10, 12, 13, 19, 30, 31);
const HOST = bits(5, 26, 27);

const has = (mask: number, f: Fiber) => f.tag >= 0 && f.tag < 32 && ((mask >>> f.tag) & 1) === 1;
export const isComponent = (f: Fiber): boolean => has(COMPONENT, f);
export const isHost = (f: Fiber): boolean => has(HOST, f);
/** Shown in a tree like React DevTools' (components, contexts, Suspense…); hosts only when asked. */
export const isShown = (f: Fiber, hosts: boolean): boolean => has(COMPONENT | SHOWN, f) || (hosts && has(HOST, f));

/** PerformedWork: the component's render function ran in this commit. */
export const rendered = (f: Fiber): boolean => (f.flags & 1) === 1;

function nameOf(type: unknown): string {
  if (typeof type === 'string') return type;
  try {
    if (type && (typeof type === 'function' || typeof type === 'object')) {
      const t = type as { displayName?: unknown; name?: unknown };
      if (typeof t.displayName === 'string' && t.displayName) return t.displayName;
      if (typeof t.name === 'string' && t.name) return t.name;
    }
  } catch {
    // a displayName getter that throws
  }
  return 'Anonymous';
}

const contextName = (type: { _context?: { displayName?: string }; displayName?: string } | null) =>
  (type?._context ?? type)?.displayName || 'Context';

/** The name React DevTools shows for a fiber. */
export function fiberName(f: Fiber): string {
  try {
    return name(f);
  } catch {
    return 'Anonymous';
  }
}

function name(f: Fiber): string {
  const t = f.type;
  switch (f.tag) {
    case Tag.HostRoot:
      return 'Root';
    case Tag.Text:
      return '#text';
    case Tag.Portal:
      return 'Portal';
    case Tag.Fragment:
      return 'Fragment';
    case Tag.Provider:
      // React 18: { _context }; 19: the context itself
      return `${contextName(t)}.Provider`;
    case Tag.Consumer:
      return `${contextName(t)}.Consumer`;
    case Tag.Profiler:
      return 'Profiler';
    case Tag.Suspense:
      return 'Suspense';
    case Tag.SuspenseList:
      return 'SuspenseList';
    case Tag.Activity:
      return 'Activity';
    case Tag.ViewTransition:
      return 'ViewTransition';
    case Tag.ForwardRef:
      return t?.displayName || nameOf(t?.render);
    case Tag.Memo:
      return t?.displayName || nameOf(t?.type);
    case Tag.SimpleMemo:
      return f.elementType?.displayName || nameOf(t);
    default:
      return nameOf(t);
  }
}

/**
 * The committed version of a fiber (itself or its alternate), found by walking from its root down
 * the path its `return` pointers give; null when it is no longer mounted.
 */
export function currentFiber(f: Fiber): Fiber | null {
  const path: Fiber[] = [];
  let at: Fiber | null = f;
  while (at && at.tag !== Tag.HostRoot) {
    path.push(at);
    at = at.return ?? at.alternate?.return ?? null;
  }
  const root = at?.stateNode as FiberRoot | undefined;
  if (!at || !root || (root.current !== at && root.current !== at.alternate)) return null;
  let cur: Fiber = root.current;
  for (let i = path.length - 1; i >= 0; i--) {
    const want = path[i]!;
    let c = cur.child;
    while (c && c !== want && c !== want.alternate) c = c.sibling;
    if (!c) return null;
    cur = c;
  }
  return cur;
}
