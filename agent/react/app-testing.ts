import type * as ReactNS from 'react';

// A small shop written against whichever React copy a test loaded (hooks must come from the copy
// that renders them), with the app's own render counters: what a test compares with and without
// Porthole.

export interface ShopControls {
  /** Renders counted by the app itself, per component. */
  counts: Record<string, number>;
  /** Everything the app logged to its own log (not the console). */
  log: string[];
  /** Sets the store that useSyncExternalStore reads. */
  setStore(value: number): void;
  /** Resolves the data the Suspense boundary waits for. */
  resolve(): void;
}

export function shop(React: typeof ReactNS, options: { bigProp?: string; cyclic?: boolean } = {}) {
  const h = React.createElement;
  const counts: Record<string, number> = {};
  const log: string[] = [];
  const seen = (name: string) => {
    counts[name] = (counts[name] ?? 0) + 1;
  };
  let storeValue = 1;
  const storeListeners = new Set<() => void>();
  const store = {
    subscribe: (l: () => void) => {
      storeListeners.add(l);
      return () => storeListeners.delete(l);
    },
    get: () => storeValue,
  };
  let resolveData: () => void = () => {};
  let data: string | undefined;
  const pending = new Promise<void>((r) => {
    resolveData = () => {
      data = 'loaded';
      r();
    };
  });

  const Theme = React.createContext('light');
  Theme.displayName = 'Theme';

  function Counter({ label }: { label: string }) {
    seen('Counter');
    const [count, setCount] = React.useState(0);
    const [items, dispatch] = React.useReducer((s: string[], a: string) => [...s, a], []);
    const doubled = React.useMemo(() => count * 2, [count]);
    const onClick = React.useCallback(() => setCount((c) => c + 1), []);
    const ref = React.useRef<HTMLButtonElement>(null);
    React.useEffect(() => {
      log.push(`effect ${count}`);
    }, [count]);
    React.useLayoutEffect(() => {});
    const theme = React.useContext(Theme);
    const id = React.useId();
    const [, startTransition] = React.useTransition();
    const deferred = React.useDeferredValue(count);
    const stored = React.useSyncExternalStore(store.subscribe, store.get);
    return h(
      'div',
      { className: 'counter', id },
      h('button', { id: 'inc', ref, onClick }, `${label} ${count}`),
      h('button', { id: 'add', onClick: () => startTransition(() => dispatch(`item ${items.length}`)) }, 'add'),
      h('span', { id: 'info' }, `${doubled} ${theme} ${deferred} ${stored} ${items.length}`),
    );
  }

  const Item = React.memo(function Item({ name }: { name: string }) {
    seen('Item');
    return h('li', null, name);
  });

  const Fancy = React.forwardRef<HTMLInputElement, { placeholder: string }>(function Fancy(props, ref) {
    seen('Fancy');
    return h('input', { ref, placeholder: props.placeholder });
  });

  class Clock extends React.Component<{ big?: string }, { ticks: number; self?: unknown }> {
    constructor(props: { big?: string }) {
      super(props);
      const state: { ticks: number; self?: unknown } = { ticks: 0 };
      if (options.cyclic) state.self = state;
      this.state = state;
    }
    override render() {
      seen('Clock');
      return h('time', { onClick: () => this.setState((s) => ({ ticks: s.ticks + 1 })) }, `ticks ${this.state.ticks}`);
    }
  }

  function Data() {
    seen('Data');
    if (data === undefined) throw pending;
    return h('p', { id: 'data' }, data);
  }

  function Bomb({ armed }: { armed: boolean }) {
    seen('Bomb');
    if (armed) throw new Error('bomb went off');
    return h('span', null, 'calm');
  }

  class Boundary extends React.Component<{ children: ReactNS.ReactNode }, { error?: string }> {
    override state: { error?: string } = {};
    static getDerivedStateFromError(e: Error) {
      return { error: e.message };
    }
    override componentDidCatch() {
      log.push('caught');
    }
    override render() {
      seen('Boundary');
      return this.state.error ? h('p', { id: 'caught' }, `caught: ${this.state.error}`) : this.props.children;
    }
  }

  function App({ armed = false }: { armed?: boolean }) {
    seen('App');
    const [theme, setTheme] = React.useState('light');
    return h(
      Theme.Provider,
      { value: theme },
      h('button', { id: 'theme', onClick: () => setTheme((t) => (t === 'light' ? 'dark' : 'light')) }, 'theme'),
      h(Counter, { label: 'Clicks' }),
      h(
        'ul',
        null,
        ['apple', 'pear'].map((name) => h(Item, { key: name, name })),
      ),
      h(Clock, { big: options.bigProp }),
      h(Fancy, { placeholder: 'search' }),
      h(React.Suspense, { fallback: h('p', { id: 'loading' }, 'loading…') }, h(Data)),
      h(Boundary, null, h(Bomb, { armed })),
    );
  }

  const controls: ShopControls = {
    counts,
    log,
    setStore(value) {
      storeValue = value;
      for (const l of storeListeners) l();
    },
    resolve: () => resolveData(),
  };
  return { App, Theme, controls };
}
