import type { Fiber, FiberRoot } from './fiber.js';

// React's DevTools global hook (`__REACT_DEVTOOLS_GLOBAL_HOOK__`): each React renderer (react-dom,
// react-native, react-test-renderer…) injects itself into it when it loads and then calls it after
// every commit. Porthole installs a small one when there is none, or chains to the one there (the
// React DevTools extension's, React Native's, react-refresh's), wrapping its methods so its owner
// sees every call as before. Our own work runs after theirs and never throws into React.

/** A renderer as React injects it (the fields Porthole reads). */
export interface ReactRenderer {
  version?: string;
  reconcilerVersion?: string;
  rendererPackageName?: string;
  /** 0 production, 1 development. */
  bundleType?: number;
}

export interface ReactHookListener {
  /** After each commit of a root: keep it cheap (counting), it runs on React's commit path. */
  commit?(rendererId: number, root: FiberRoot, didError: boolean): void;
  /** A renderer injected itself. */
  renderer?(rendererId: number, renderer: ReactRenderer): void;
}

/** What React's hook holds (the parts Porthole reads and wraps). */
interface DevToolsHook {
  renderers?: Map<number, ReactRenderer>;
  supportsFiber?: boolean;
  isDisabled?: boolean;
  inject?(renderer: ReactRenderer): number;
  onCommitFiberRoot?(id: number, root: FiberRoot, priority?: number, didError?: boolean): void;
  onCommitFiberUnmount?(id: number, fiber: Fiber): void;
  onPostCommitFiberRoot?(id: number, root: FiberRoot): void;
  getFiberRoots?(id: number): Set<FiberRoot>;
  on?(event: string, fn: (data: unknown) => void): void;
  off?(event: string, fn: (data: unknown) => void): void;
  emit?(event: string, data: unknown): void;
  [key: string]: unknown;
}

export interface ReactHookState {
  /** `installed`: Porthole's hook; `chained`: wrapped the one that was there; `read-only`: could not wrap it. */
  readonly mode: 'installed' | 'chained' | 'read-only';
  /** The hook's isDisabled flag: React then injects into nothing. */
  readonly disabled: boolean;
  readonly renderers: Map<number, ReactRenderer>;
  /** Mounted roots and the renderer that owns each (0: unknown, found in the page). */
  readonly roots: Map<FiberRoot, number>;
  readonly listeners: Set<ReactHookListener>;
}

const HOOK = '__REACT_DEVTOOLS_GLOBAL_HOOK__';
// One state per realm, whichever copy of the agent library installed it (a preload and the app's bundle).
const STATE = Symbol.for('porthole.react');

type Global = Record<string | symbol, unknown>;

/** The hook's state, or undefined when installReactHook() has not run in this realm. */
export function reactHookState(target: object = globalThis): ReactHookState | undefined {
  return (target as Global)[STATE] as ReactHookState | undefined;
}

/**
 * Installs Porthole's React DevTools hook, or chains to the one there; idempotent. React must load
 * after it to inject into it (import `@porthole/agent/react/register` first). Renderers and roots an
 * existing hook already knows (the React DevTools hook tracks them) are taken over.
 */
export function installReactHook(target: object = globalThis): ReactHookState {
  const g = target as Global;
  const known = g[STATE] as ReactHookState | undefined;
  if (known) return known;
  let hook = g[HOOK] as DevToolsHook | undefined;
  const state = {
    mode: hook ? 'chained' : 'installed',
    disabled: hook?.isDisabled === true,
    renderers: new Map<number, ReactRenderer>(),
    roots: new Map<FiberRoot, number>(),
    listeners: new Set<ReactHookListener>(),
  } as { -readonly [K in keyof ReactHookState]: ReactHookState[K] };
  if (!hook) {
    hook = ownHook();
    Object.defineProperty(g, HOOK, { value: hook, configurable: true, writable: true, enumerable: false });
  }
  const each = <K extends keyof ReactHookListener>(kind: K, ...args: Parameters<NonNullable<ReactHookListener[K]>>) => {
    for (const l of state.listeners) {
      try {
        (l[kind] as ((...a: unknown[]) => void) | undefined)?.(...args);
      } catch {
        // a listener's failure is Porthole's problem, never React's
      }
    }
  };
  const addRenderer = (id: number, r: ReactRenderer) => {
    state.renderers.set(id, r);
    each('renderer', id, r);
  };
  try {
    for (const [id, r] of hook.renderers ?? []) {
      addRenderer(id, r);
      for (const root of hook.getFiberRoots?.(id) ?? []) state.roots.set(root, id);
    }
  } catch {
    // a foreign hook's maps: best effort
  }
  const wrapped = wrap(hook, {
    inject: (orig) =>
      function (this: unknown, renderer: ReactRenderer) {
        const id = orig.apply(this, [renderer]) as number;
        try {
          addRenderer(id, renderer);
        } catch {}
        return id;
      },
    onCommitFiberRoot: (orig) =>
      function (this: unknown, id: number, root: FiberRoot, priority?: number, didError?: boolean) {
        try {
          return orig.apply(this, [id, root, priority, didError]);
        } finally {
          try {
            const element = root.current?.memoizedState?.element;
            if (element == null) state.roots.delete(root);
            else state.roots.set(root, id);
            each('commit', id, root, didError === true);
          } catch {}
        }
      },
  });
  if (!wrapped) state.mode = 'read-only';
  g[STATE] = state;
  return state;
}

const noop = () => {};

/** `orig` wrapped by `make(orig)` for each method; false when the hook cannot be changed (frozen). */
function wrap(
  hook: DevToolsHook,
  methods: Record<string, (orig: (...args: unknown[]) => unknown) => (...args: never[]) => unknown>,
): boolean {
  try {
    for (const [name, make] of Object.entries(methods)) {
      const orig = typeof hook[name] === 'function' ? (hook[name] as (...args: unknown[]) => unknown) : noop;
      const made = make(orig);
      hook[name] = made;
      if (hook[name] !== made) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * A hook with what React calls and what a React DevTools backend that attaches later reads
 * (renderers, rendererInterfaces, getFiberRoots, on/off/emit/sub). No `checkDCE`: React then still
 * prints its "Download the React DevTools" hint, as without Porthole.
 */
function ownHook(): DevToolsHook {
  const renderers = new Map<number, ReactRenderer>();
  const rendererInterfaces = new Map<number, Record<string, (...args: unknown[]) => void>>();
  const roots = new Map<number, Set<FiberRoot>>();
  const listeners = new Map<string, ((data: unknown) => void)[]>();
  const rootsOf = (id: number) => roots.get(id) ?? roots.set(id, new Set()).get(id)!;
  const hook: DevToolsHook = {
    renderers,
    rendererInterfaces,
    supportsFiber: true,
    inject(renderer) {
      const id = renderers.size + 1;
      renderers.set(id, renderer);
      hook.emit?.('renderer', { id, renderer, reactBuildType: renderer.bundleType ? 'development' : 'production' });
      return id;
    },
    getFiberRoots: rootsOf,
    onCommitFiberRoot(id, root, priority) {
      const set = rootsOf(id);
      if (root.current?.memoizedState?.element == null) set.delete(root);
      else set.add(root);
      rendererInterfaces.get(id)?.handleCommitFiberRoot?.(root, priority);
    },
    onCommitFiberUnmount(id, fiber) {
      rendererInterfaces.get(id)?.handleCommitFiberUnmount?.(fiber);
    },
    onPostCommitFiberRoot(id, root) {
      rendererInterfaces.get(id)?.handlePostCommitFiberRoot?.(root);
    },
    on(event: string, fn: (data: unknown) => void) {
      listeners.set(event, [...(listeners.get(event) ?? []), fn]);
    },
    off(event: string, fn: (data: unknown) => void) {
      listeners.set(
        event,
        (listeners.get(event) ?? []).filter((f) => f !== fn),
      );
    },
    emit(event: string, data: unknown) {
      for (const fn of listeners.get(event) ?? []) fn(data);
    },
    sub(event: string, fn: (data: unknown) => void) {
      hook.on?.(event, fn);
      return () => hook.off?.(event, fn);
    },
  };
  return hook;
}
