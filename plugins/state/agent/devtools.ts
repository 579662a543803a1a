import type { DevtoolsOptions, Hub, Message } from './hub.js';

// The Redux DevTools extension's API, as the extension puts it on `window` and libraries call it:
// `__REDUX_DEVTOOLS_EXTENSION__(options)` is a store enhancer (old code, Redux's own), `.connect(options)`
// is what Zustand's devtools middleware, NgRx, Jotai, Valtio and others use, and
// `__REDUX_DEVTOOLS_EXTENSION_COMPOSE__` is what Redux Toolkit's configureStore calls. When the real
// extension was there first, every call goes to it too, so both work side by side.

type Action = { type?: unknown; state?: unknown };
type Reducer = (state: unknown, action: Action) => unknown;
interface ReduxStore {
  getState(): unknown;
  dispatch(action: unknown): unknown;
  replaceReducer(reducer: Reducer): void;
}
type CreateStore = (reducer: Reducer, ...rest: unknown[]) => ReduxStore;
type Enhancer = (next: CreateStore) => CreateStore;

export interface Connection {
  init(state: unknown, liftedData?: unknown): void;
  send(action: unknown, state: unknown): void;
  subscribe(listener: (message: Message) => void): (() => void) | undefined;
  unsubscribe(): void;
  error(message: string): void;
}

// biome-ignore lint/suspicious/noExplicitAny: the extension's functions take what libraries pass
type Fn = (...args: any[]) => any;
export interface Extension {
  (options?: DevtoolsOptions): Enhancer;
  connect(options?: DevtoolsOptions): Connection;
  send?: Fn;
  listen?: Fn;
  open?: Fn;
  notifyErrors?: Fn;
  disconnect?: Fn;
  [MARK]?: true;
}

const MARK = Symbol.for('porthole.state.devtools');
const SET = '@@porthole/SET_STATE';
const opts = (o: unknown): DevtoolsOptions => (o && typeof o === 'object' ? (o as DevtoolsOptions) : {});
const text = (e: unknown) => String((e as Error)?.message ?? e).slice(0, 2000);

function guess(): string {
  const m = /\b(zustand|jotai|valtio|ngrx|mobx|pinia|xstate)/i.exec(new Error().stack ?? '');
  return m ? m[1]!.toLowerCase() : 'devtools-api';
}

/** Puts the devtools API on globalThis (a page's `window`, React Native's global, Node's globalThis). */
export function install(hub: Hub): Extension {
  // biome-ignore lint/suspicious/noExplicitAny: the globals are the extension's
  const g = globalThis as Record<string, any>;
  const existing = g.__REDUX_DEVTOOLS_EXTENSION__;
  if (existing?.[MARK]) return existing;
  const real: Extension | undefined = typeof existing === 'function' ? existing : undefined;
  const realCompose: Fn | undefined = real && g.__REDUX_DEVTOOLS_EXTENSION_COMPOSE__;

  const ext = ((options?: DevtoolsOptions) => enhancer(hub, opts(options), real)) as Extension;
  ext.connect = (options) => connect(hub, opts(options), real);
  ext.send = (action, state, options, instanceId) => {
    real?.send?.(action, state, options, instanceId);
    const name = opts(options).name ?? 'send()';
    const store =
      hub.stores.find((s) => s.info.name === name) ??
      hub.add({ name }, 'devtools-api', { dispatch: false, set: false, jump: false });
    store.send(action, state);
  };
  for (const key of ['listen', 'open', 'notifyErrors', 'disconnect'] as const) {
    ext[key] = (...args: unknown[]) => real?.[key]?.(...args);
  }
  ext[MARK] = true;

  const composeWith =
    (options: DevtoolsOptions) =>
    (...funcs: Enhancer[]): Enhancer =>
    (next) => {
      // The outermost dispatch (through the middleware) is the one the inspector dispatches with.
      const outer: { dispatch?: (action: unknown) => unknown } = {};
      const pre: Enhancer =
        (n) =>
        (...args) => {
          const store = n(...args);
          outer.dispatch = store.dispatch;
          return store;
        };
      const ours = enhancer(hub, options, undefined, outer);
      if (realCompose) return realCompose(options)(pre, ...funcs, ours)(next);
      return [pre, ...funcs].reduceRight((composed, f) => f(composed), ours(next));
    };
  g.__REDUX_DEVTOOLS_EXTENSION__ = ext;
  g.__REDUX_DEVTOOLS_EXTENSION_COMPOSE__ = (...funcs: unknown[]) => {
    if (funcs.length === 0) return ext();
    if (funcs.length === 1 && typeof funcs[0] === 'object') return composeWith(opts(funcs[0]));
    return composeWith({})(...(funcs as Enhancer[]));
  };
  return ext;
}

/**
 * The store enhancer: a Redux store's every action (after its middleware) and a way to put a state in.
 * Actions are recorded in the root reducer, not by wrapping dispatch: a wrapper around dispatch alone
 * costs a small store's dispatch a fifth more in V8, and the reducer sees exactly the actions that
 * make states.
 */
export function enhancer(
  hub: Hub,
  options: DevtoolsOptions,
  real?: Extension,
  outer?: { dispatch?: (action: unknown) => unknown },
): Enhancer {
  return (next) =>
    (reducer, ...rest) => {
      const f = options.features;
      const s = hub.add(options, 'redux', { dispatch: f?.dispatch !== false, set: true, jump: f?.jump !== false });
      let recording = false;
      const lift =
        (r: Reducer): Reducer =>
        (state, action) => {
          if (action?.type === SET) return action.state;
          if (!recording) return r(state, action);
          let after: unknown;
          try {
            after = r(state, action);
          } catch (e) {
            s.add('error', action, state, `the reducer threw: ${text(e)}`);
            throw e;
          }
          s.send(action, after);
          return after;
        };
      const store = (real ? real(options)(next) : next)(lift(reducer), ...rest);
      s.redux = {
        getState: () => store.getState(),
        put: (state) => store.dispatch({ type: SET, state }),
        dispatch: (action) => (outer?.dispatch ?? store.dispatch)(action),
      };
      s.add('init', { type: '@@INIT' }, store.getState());
      recording = true;
      return {
        ...store,
        // Redux's own replace action is not the app's.
        replaceReducer: (r: Reducer) => {
          recording = false;
          try {
            store.replaceReducer(lift(r));
          } finally {
            recording = true;
          }
        },
      };
    };
}

/** connect(options): a store that reports itself (init, send) and listens to the monitor (subscribe). */
function connect(hub: Hub, options: DevtoolsOptions, real?: Extension): Connection {
  const f = options.features;
  const s = hub.add(options, typeof options.type === 'string' ? options.type : guess(), {
    dispatch: f?.dispatch !== false,
    set: false,
    jump: f?.jump !== false,
  });
  const r = real?.connect(options);
  return {
    init(state, liftedData) {
      r?.init(state, liftedData);
      s.add('init', { type: '@@INIT' }, state);
    },
    send(action, state) {
      r?.send(action, state);
      s.send(action, state);
    },
    subscribe(listener) {
      if (typeof listener !== 'function') return undefined;
      // Zustand's devtools middleware is the one that takes `__setState` (a state set from the monitor).
      let source = '';
      try {
        source = Function.prototype.toString.call(listener);
      } catch {}
      if (source.includes('__setState') && !s.info.can.set) {
        s.info.can.set = true;
        hub.relabel(s, 'zustand', !options.name);
      }
      s.listeners.add(listener);
      const off = r?.subscribe(listener);
      return () => {
        s.listeners.delete(listener);
        off?.();
      };
    },
    unsubscribe() {
      s.listeners.clear();
      s.info.closed = true;
      hub.changed();
      r?.unsubscribe();
    },
    error(message) {
      r?.error(message);
      s.add('error', { type: '@@ERROR' }, s.latest(), text(message));
    },
  };
}
