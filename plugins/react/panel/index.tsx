import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type PanelProps, usePanelClient, usePluginEvents } from '../../../renderer/src/panel-kit.js';
import { type InspectResult, type RenderSummary, reactProtocol, type Status, type TreeResult } from '../protocol.js';
import { Inspector } from './Inspector.js';
import { type Row, rowsOf, statusLine, visibleRows } from './model.js';
import './react.css';

const LIMIT = 2000;

/** The app's React components, like React DevTools' Components tab: a tree with search, the selected one beside it. */
export default function ReactPanel({ session }: PanelProps) {
  const api = usePanelClient(reactProtocol, session.id);
  const [tree, setTree] = useState<TreeResult>();
  const [status, setStatus] = useState<Status>();
  const [search, setSearch] = useState('');
  const [hosts, setHosts] = useState(false);
  const [live, setLive] = useState(true);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [focused, setFocused] = useState<string>();
  const [selected, setSelected] = useState<string>();
  const [item, setItem] = useState<InspectResult>();
  const [renders, setRenders] = useState<RenderSummary>();
  const [error, setError] = useState<string>();
  const treeRef = useRef<HTMLDivElement>(null);

  const load = useCallback(async () => {
    try {
      const next = await api.call('tree', { limit: LIMIT, name: search || undefined, hosts, depth: 200 });
      setTree(next);
      setStatus(next.status);
      setError(undefined);
    } catch (e) {
      setError(`Could not read the components: ${(e as Error).message}`);
    }
  }, [api, search, hosts]);

  const inspect = useCallback(
    async (id: string, highlight: boolean) => {
      try {
        const [one, all] = await Promise.all([
          api.call('inspect', { id, highlight }),
          api.call('renders', { limit: 500 }),
        ]);
        setItem(one);
        setRenders(all.components.find((c) => c.id === id));
        setError(undefined);
      } catch (e) {
        setItem(undefined);
        setError((e as Error).message);
      }
    },
    [api],
  );

  useEffect(() => {
    const t = setTimeout(() => void load(), search ? 200 : 0);
    return () => clearTimeout(t);
  }, [load, search]);
  useEffect(() => {
    api
      .call('status', {})
      .then((s) => s.status && setStatus((now) => now ?? s.status))
      .catch(() => {});
  }, [api]);
  useEffect(() => {
    if (selected) void inspect(selected, true);
  }, [selected, inspect]);

  usePluginEvents(reactProtocol, session.id, (events) => {
    for (const e of events) if (e.event === 'status') setStatus(e.data);
    if (!live || !events.some((e) => e.event === 'commits')) return;
    void load();
    if (selected) void inspect(selected, false);
  });

  const rows = useMemo(() => rowsOf(tree?.nodes ?? []), [tree]);
  const shown = useMemo(() => visibleRows(rows, collapsed), [rows, collapsed]);
  const focusId = focused && shown.some((r) => r.node.id === focused) ? focused : shown[0]?.node.id;

  const toggle = (row: Row, open?: boolean) =>
    setCollapsed((now) => {
      const next = new Set(now);
      const close = open === undefined ? !next.has(row.node.id) : !open;
      if (close) next.add(row.node.id);
      else next.delete(row.node.id);
      return next;
    });
  const moveTo = (row: Row | undefined) => {
    if (!row) return;
    setFocused(row.node.id);
    treeRef.current?.querySelector<HTMLElement>(`[data-id="${CSS.escape(row.node.id)}"]`)?.focus();
  };
  const onKey = (e: KeyboardEvent) => {
    const at = shown.findIndex((r) => r.node.id === focusId);
    const row = shown[at];
    if (!row) return;
    let handled = true;
    switch (e.key) {
      case 'ArrowDown':
        moveTo(shown[at + 1]);
        break;
      case 'ArrowUp':
        moveTo(shown[at - 1]);
        break;
      case 'Home':
        moveTo(shown[0]);
        break;
      case 'End':
        moveTo(shown.at(-1));
        break;
      case 'ArrowRight':
        if (row.hasChildren && collapsed.has(row.node.id)) toggle(row, true);
        else if (row.hasChildren) moveTo(shown[at + 1]);
        break;
      case 'ArrowLeft':
        if (row.hasChildren && !collapsed.has(row.node.id)) toggle(row, false);
        else moveTo(rows[row.parent]);
        break;
      case 'Enter':
      case ' ':
        setSelected(row.node.id);
        break;
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  };

  return (
    <div className="view rx-panel" data-testid="react-panel">
      <div className="rx-bar" role="toolbar" aria-label="Components">
        <input
          type="search"
          className="rx-search"
          placeholder="Search components"
          aria-label="Search components by name"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="react-search"
        />
        <label>
          <input type="checkbox" checked={hosts} onChange={(e) => setHosts(e.target.checked)} /> Host elements
        </label>
        <label>
          <input type="checkbox" checked={live} onChange={(e) => setLive(e.target.checked)} /> Live
        </label>
        <button type="button" onClick={() => void load()}>
          Refresh
        </button>
        <span className="muted rx-status" data-testid="react-status">
          {statusLine(status)}
        </span>
      </div>
      {status?.problem && (
        <div className="banner warn" role="status" data-testid="react-problem">
          {status.problem}
        </div>
      )}
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      <div className="rx-split">
        {/* biome-ignore lint/a11y: a tree while it has items (role and name set then); before that a plain box with the reason */}
        <div
          ref={treeRef}
          className="rx-tree"
          // A tree must hold tree items: while it has none it is a plain box with the reason in it.
          role={shown.length > 0 ? 'tree' : undefined}
          aria-label={shown.length > 0 ? 'Component tree' : undefined}
          onKeyDown={onKey}
          data-testid="react-tree"
        >
          {shown.length === 0 && <p className="empty">{tree ? 'No components match.' : 'Reading the components…'}</p>}
          {shown.map((row) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the tree takes the keys for its items (arrows, Enter, Space)
            <div
              key={row.node.id}
              data-id={row.node.id}
              role="treeitem"
              aria-level={row.node.d + 1}
              aria-expanded={row.hasChildren ? !collapsed.has(row.node.id) : undefined}
              aria-selected={row.node.id === selected}
              tabIndex={row.node.id === focusId ? 0 : -1}
              className={`rx-row${row.node.h ? ' host' : ''}`}
              style={{ paddingLeft: 8 + row.node.d * 12 }}
              onClick={() => {
                setFocused(row.node.id);
                setSelected(row.node.id);
              }}
              onFocus={() => setFocused(row.node.id)}
              data-testid="react-node"
            >
              <span
                className="rx-caret"
                aria-hidden="true"
                onClick={(e) => {
                  e.stopPropagation();
                  if (row.hasChildren) toggle(row);
                }}
              >
                {row.hasChildren ? (collapsed.has(row.node.id) ? '▸' : '▾') : ''}
              </span>
              <span className="rx-name">{row.node.h ? `<${row.node.n}>` : row.node.n}</span>
              {row.node.k !== undefined && <span className="muted"> key="{row.node.k}"</span>}
              {row.node.b && <span className="rx-badge">{row.node.b}</span>}
              {row.node.t !== undefined && <span className="muted rx-text"> {row.node.t}</span>}
              {row.node.r ? (
                <span className="rx-count" title={`Rendered ${row.node.r} times`}>
                  ×{row.node.r}
                </span>
              ) : null}
            </div>
          ))}
          {tree && tree.more > 0 && <p className="muted rx-more">{tree.more} more: search to narrow the tree.</p>}
        </div>
        {item ? (
          <Inspector
            item={item}
            renders={renders}
            onSelect={(id) => {
              setFocused(id);
              setSelected(id);
            }}
            onHighlight={() => void inspect(item.id, true)}
            onSet={async (path, value) => {
              // the person's own edit: written as React DevTools writes it, then shown as React re-rendered it
              setItem(await api.call('inspect', { id: item.id, highlight: false, set: { path, value } }));
            }}
          />
        ) : (
          <div className="rx-inspector empty">Select a component to see its props, state and hooks.</div>
        )}
      </div>
    </div>
  );
}
