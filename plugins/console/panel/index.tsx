import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { type GridColumn, VirtualGrid } from '../../../renderer/src/components/VirtualGrid.js';
import { type PanelEvent, type PanelProps, usePanelClient, usePluginEvents } from '../../../renderer/src/panel-kit.js';
import { consoleProtocol, LEVELS, type Level, type MessageSummary, type Stats } from '../protocol.js';
import { MessageDetail } from './MessageDetail.js';
import { ConsoleModel, regexError } from './model.js';
import './console.css';

const PAGE = 20_000;
const LEVEL_NAMES: Record<Level, string> = { debug: 'Verbose', info: 'Info', warn: 'Warnings', error: 'Errors' };
const PRESERVE_KEY = 'porthole.console.preserve';

const columns: GridColumn<MessageSummary>[] = [
  {
    id: 'message',
    title: 'Message',
    width: 600,
    minWidth: 200,
    cell: (m) => (
      <span className="con-message" style={m.group ? { paddingLeft: m.group * 14 } : undefined}>
        {m.count > 1 && <span className="con-count">{m.count}</span>}
        <span className="con-text">{m.text.split('\n', 1)[0]}</span>
      </span>
    ),
    tooltip: (m) => m.text.slice(0, 2000),
  },
  {
    id: 'site',
    title: 'Source',
    width: 220,
    minWidth: 80,
    align: 'right',
    cell: (m) => (m.site ? <span className="con-site">{shortSite(m.site)}</span> : null),
    tooltip: (m) => m.site,
  },
  {
    id: 'time',
    title: 'Time',
    width: 90,
    minWidth: 70,
    align: 'right',
    cell: (m) => new Date(m.time).toLocaleTimeString(undefined, { hour12: false }),
  },
];

/** The file and line of a site, without its origin and folders. */
export function shortSite(site: string): string {
  const path = site.replace(/^[a-z]+:\/\/[^/]+/i, '');
  return path.split('/').pop() || site;
}

const rowKey = (m: MessageSummary) => String(m.seq);
const rowClassName = (m: MessageSummary) => `con-row level-${m.level} kind-${m.kind}`;
const rowAttributes = (m: MessageSummary) => ({ 'data-level': m.level, 'data-kind': m.kind });

/** The app's console, DevTools-like: levels, a text or /regex/ filter, repeats counted, reloads marked. */
export default function ConsolePanel({ session }: PanelProps) {
  const api = usePanelClient(consoleProtocol, session.id);
  const model = useMemo(() => new ConsoleModel(), []);
  const version = useSyncExternalStore(model.subscribe, model.getVersion);
  const [levels, setLevels] = useState<ReadonlySet<Level>>(() => new Set(LEVELS));
  const [text, setText] = useState('');
  const [preserve, setPreserve] = useState(() => globalThis.localStorage?.getItem(PRESERVE_KEY) !== 'false');
  const [selected, setSelected] = useState<number>();
  const [stats, setStats] = useState<Stats>();
  const [error, setError] = useState<string>();
  const loading = useRef<PanelEvent<typeof consoleProtocol>[] | undefined>([]);

  const apply = (events: PanelEvent<typeof consoleProtocol>[]) => {
    for (const e of events) {
      if (e.event === 'cleared') {
        model.clear();
        setSelected(undefined);
      } else {
        model.upsert(e.data.messages);
        setStats(e.data.stats);
      }
    }
  };
  usePluginEvents(consoleProtocol, session.id, (events) => {
    if (loading.current) loading.current.push(...events);
    else apply(events);
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per mounted panel (one per session)
  useEffect(() => {
    let live = true;
    (async () => {
      try {
        let afterSeq = 0;
        for (;;) {
          const page = await api.call('list', { afterSeq, limit: PAGE });
          if (!live) return;
          model.upsert(page.messages);
          setStats(page.stats);
          const last = page.messages.at(-1);
          if (!page.hasMore || !last) break;
          afterSeq = last.lastSeq ?? last.seq;
        }
      } catch (e) {
        if (live) setError(`Could not load the console: ${(e as Error).message}`);
      } finally {
        const buffered = loading.current ?? [];
        loading.current = undefined;
        if (live) apply(buffered);
      }
    })();
    return () => {
      live = false;
    };
  }, [api, model]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the model's change counter
  const rows = useMemo(() => model.view({ levels, text, preserve }), [model, version, levels, text, preserve]);
  const badRegex = regexError(text);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the model's change counter
  const counts = useMemo(() => {
    const n: Record<Level, number> = { debug: 0, info: 0, warn: 0, error: 0 };
    for (const m of model.all()) if (m.kind !== 'connected') n[m.level] += m.count;
    return n;
  }, [model, version]);

  const toggle = (level: Level) =>
    setLevels((current) => {
      const next = new Set(current);
      if (next.has(level)) next.delete(level);
      else next.add(level);
      return next;
    });
  const clear = async () => {
    setError(undefined);
    try {
      await api.call('clear', {});
      model.clear();
      setSelected(undefined);
    } catch (e) {
      setError(`Could not clear: ${(e as Error).message}`);
    }
  };

  return (
    <div className="view con-panel" data-testid="console-panel">
      <div className="con-bar" role="toolbar" aria-label="Console">
        <fieldset className="con-levels" aria-label="Levels">
          {LEVELS.map((level) => (
            <label key={level} className={`con-level level-${level}`}>
              <input
                type="checkbox"
                checked={levels.has(level)}
                onChange={() => toggle(level)}
                data-testid={`console-level-${level}`}
              />
              {LEVEL_NAMES[level]} <span className="muted">{counts[level]}</span>
            </label>
          ))}
        </fieldset>
        <input
          type="search"
          className="con-filter"
          placeholder="Filter (text or /regex/)"
          aria-label="Filter messages"
          aria-invalid={badRegex ? true : undefined}
          title={badRegex}
          value={text}
          onChange={(e) => setText(e.target.value)}
          data-testid="console-filter"
        />
        <label className="con-preserve">
          <input
            type="checkbox"
            checked={preserve}
            onChange={(e) => {
              setPreserve(e.target.checked);
              globalThis.localStorage?.setItem(PRESERVE_KEY, String(e.target.checked));
            }}
            data-testid="console-preserve"
          />
          Preserve log
        </label>
        <button type="button" onClick={() => void clear()} data-testid="console-clear">
          Clear
        </button>
        <span className="muted con-stats" data-testid="console-stats">
          {rows.length} shown
          {stats && stats.evicted > 0 ? ` · ${stats.evicted} oldest dropped by the inspector` : ''}
          {stats && stats.droppedByApp > 0 ? ` · ${stats.droppedByApp} dropped by the app` : ''}
        </span>
      </div>
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      {badRegex && <div className="banner warn">Invalid regex: {badRegex}</div>}
      <div className={`con-split${selected !== undefined ? ' with-detail' : ''}`}>
        {model.all().length === 0 ? (
          <div className="empty" data-testid="console-empty">
            Nothing logged yet. Connect the app with <code>console()</code> in its plugins.
          </div>
        ) : (
          <VirtualGrid
            label="Console messages"
            testId="console-list"
            rowTestId="console-row"
            rows={rows}
            rowKey={rowKey}
            rowClassName={rowClassName}
            rowAttributes={rowAttributes}
            columns={columns}
            template="minmax(0, 1fr) minmax(80px, 240px) 90px"
            selectedKey={selected === undefined ? undefined : String(selected)}
            onSelect={(key) => setSelected(key === undefined ? undefined : Number(key))}
            followTail
          />
        )}
        {selected !== undefined && (
          <MessageDetail api={api} seq={selected} version={version} onClose={() => setSelected(undefined)} />
        )}
      </div>
    </div>
  );
}
