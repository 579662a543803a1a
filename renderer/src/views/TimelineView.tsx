import { useEffect, useMemo, useRef, useState } from 'react';
import { MAX_TIMELINE_PAGE } from '../../../shared/bridge.js';
import type { SessionInfo } from '../../../shared/session.js';
import type { TimelineLevel } from '../../../shared/timeline.js';
import { useBridge } from '../bridge/context.js';
import { type GridColumn, VirtualGrid } from '../components/VirtualGrid.js';
import { panels } from '../panels.js';
import { useNav } from '../stores/nav.js';
import { useSessions } from '../stores/sessions.js';
import { formatClock, formatCount } from '../time.js';
import { filterTimeline, TimelineModel, type TimelineRow } from '../timeline-model.js';

/** Live refreshes are at most this often (a burst of events is one query). */
const REFRESH_MS = 250;
/** The core's own entries (page loads); no panel shows them. */
const CORE_PLUGIN = 'inspector';
/** The panel a page load opens in: the network panel shows each load's requests under its header (`load:N`). */
const LOAD_PLUGIN = 'network';

const LEVELS: { value: '' | TimelineLevel; label: string }[] = [
  { value: '', label: 'All levels' },
  { value: 'info', label: 'Info and above' },
  { value: 'warn', label: 'Warnings and errors' },
  { value: 'error', label: 'Errors only' },
];

function pluginTitle(plugins: readonly { id: string; title: string }[], id: string): string {
  return id === CORE_PLUGIN ? 'Page loads' : (plugins.find((p) => p.id === id)?.title ?? id);
}

function duration(row: TimelineRow): string {
  if (row.pending) return 'pending';
  if (row.end === undefined) return '';
  const ms = row.end - row.time;
  return ms < 1000 ? `${Math.round(ms).toLocaleString()} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/**
 * A session's timeline across its plugins (requests, console messages, page loads, state actions
 * …): one virtualized, live, time-ordered grid with filters by plugin, level and text; Enter (or
 * "Open") shows a row in its plugin's panel.
 */
export function TimelineView({ session }: { session: SessionInfo }) {
  const { client, hub } = useBridge();
  const plugins = useSessions((s) => s.plugins);
  const openIn = useNav((s) => s.openIn);
  const model = useMemo(() => new TimelineModel(), []);
  const [version, setVersion] = useState(0);
  const [loading, setLoading] = useState<{ loaded: number; total?: number } | undefined>({ loaded: 0 });
  const [error, setError] = useState<string>();
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [minLevel, setMinLevel] = useState<'' | TimelineLevel>('');
  const [text, setText] = useState('');
  const [selectedKey, setSelectedKey] = useState<string>();
  const sessionId = session.id;

  // One query at a time; events during a query ask for one more after it.
  const busy = useRef<Promise<void> | undefined>(undefined);
  const again = useRef(false);
  const refresh = useRef<(() => void) | undefined>(undefined);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const fetchFrom = async (since: number | undefined, first: boolean) => {
      let from = since;
      let loaded = 0;
      for (;;) {
        const page = await client.request('timeline.query', { sessionId, since: from, limit: MAX_TIMELINE_PAGE });
        if (!live) return;
        if (model.merge(page.entries)) setVersion((v) => v + 1);
        loaded += page.entries.length;
        if (first) setLoading({ loaded, total: loaded + page.more });
        const last = page.entries.at(-1)?.time;
        // Next page from the last time seen (entries at that time come again and merge); a page all
        // at one instant cannot move on, and then the rest waits for the next refresh.
        if (page.more === 0 || last === undefined || last === from) return;
        from = last;
      }
    };

    const run = (reset: boolean) => {
      if (busy.current) {
        again.current = true;
        return;
      }
      const task = (async () => {
        try {
          if (reset) {
            model.clear();
            setVersion((v) => v + 1);
          }
          await fetchFrom(reset ? undefined : model.refreshSince(), reset);
          if (live) setError(undefined);
        } catch (e) {
          if (live) setError(`Could not read the timeline: ${(e as Error).message}`);
        } finally {
          busy.current = undefined;
          if (live && reset) setLoading(undefined);
          if (live && again.current) {
            again.current = false;
            schedule();
          }
        }
      })();
      busy.current = task;
    };

    let resetNext = false;
    const schedule = (reset = false) => {
      resetNext ||= reset;
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        const r = resetNext;
        resetNext = false;
        run(r);
      }, REFRESH_MS);
    };

    run(true);
    refresh.current = () => schedule();
    const unsubscribe = hub.subscribeSession(sessionId, (events) => {
      // A plugin that forgot its data (Clear) is read again from the start.
      schedule(events.some((e) => e.event === 'cleared'));
    });
    return () => {
      live = false;
      refresh.current = undefined;
      if (timer) clearTimeout(timer);
      unsubscribe();
    };
  }, [client, hub, model, sessionId]);

  // A new page load (or reconnection) comes with the session's info, not as a plugin event.
  const load = session.load?.seq;
  // biome-ignore lint/correctness/useExhaustiveDependencies: asks again when the run changes
  useEffect(() => refresh.current?.(), [load, session.active]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the model changes in place; version says when
  const counts = useMemo(() => model.countsByPlugin(), [model, version]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the model changes in place; version says when
  const rows = useMemo(
    () => filterTimeline(model.rows, { hidden, minLevel: minLevel || undefined, text }),
    [model, version, hidden, minLevel, text],
  );
  const selected = selectedKey ? rows.find((r) => r.key === selectedKey) : undefined;

  const titleOf = (id: string) => (id === CORE_PLUGIN ? 'Page loads' : (plugins.find((p) => p.id === id)?.title ?? id));
  // A page load opens in Network (its requests under the load's header) when the app sends requests.
  const hasNetwork = session.plugins.accepted.some((p) => p.id === LOAD_PLUGIN) && panels[LOAD_PLUGIN] !== undefined;
  const target = (row: TimelineRow) =>
    row.plugin === CORE_PLUGIN
      ? row.kind === 'load' && hasNetwork
        ? { plugin: LOAD_PLUGIN, ref: `load:${row.ref}` }
        : undefined
      : panels[row.plugin] !== undefined
        ? { plugin: row.plugin, ref: row.ref }
        : undefined;
  const canOpen = (row: TimelineRow) => target(row) !== undefined;
  const open = (row: TimelineRow | undefined) => {
    const to = row && target(row);
    if (to) openIn(sessionId, to.plugin, to.ref);
  };

  const columns = useMemo(
    (): GridColumn<TimelineRow>[] => [
      {
        id: 'time',
        title: 'Time',
        width: 100,
        minWidth: 90,
        cell: (r) => formatClock(r.time),
        tooltip: (r) => new Date(r.time).toISOString(),
      },
      {
        id: 'plugin',
        title: 'Plugin',
        width: 90,
        minWidth: 60,
        cell: (r) => pluginTitle(plugins, r.plugin),
      },
      { id: 'kind', title: 'Kind', width: 80, minWidth: 50, cell: (r) => r.kind },
      {
        id: 'level',
        title: 'Level',
        width: 56,
        minWidth: 40,
        cell: (r) => (r.level && r.level !== 'info' ? r.level : ''),
      },
      { id: 'summary', title: 'Summary', width: 240, minWidth: 160, cell: (r) => r.summary, tooltip: (r) => r.summary },
      { id: 'duration', title: 'Duration', width: 80, minWidth: 60, align: 'right', cell: duration },
    ],
    [plugins],
  );
  const template = columns.map((c) => (c.id === 'summary' ? `minmax(${c.width}px, 1fr)` : `${c.width}px`)).join(' ');
  const pluginIds = [...counts.keys()].sort((a, b) => titleOf(a).localeCompare(titleOf(b)));
  const toggle = (id: string) =>
    setHidden((h) => {
      const next = new Set(h);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <div className="timeline" data-testid="timeline">
      <div className="filters" role="toolbar" aria-label="Timeline filters">
        <input
          type="search"
          className="timeline-text"
          placeholder="Filter the timeline"
          aria-label="Filter the timeline by text"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <select aria-label="Level" value={minLevel} onChange={(e) => setMinLevel(e.target.value as typeof minLevel)}>
          {LEVELS.map((l) => (
            <option key={l.value} value={l.value}>
              {l.label}
            </option>
          ))}
        </select>
        <fieldset className="timeline-plugins">
          <legend className="visually-hidden">Plugins shown</legend>
          {pluginIds.map((id) => (
            <button
              key={id}
              type="button"
              className="chip"
              aria-pressed={!hidden.has(id)}
              data-testid="timeline-plugin"
              onClick={() => toggle(id)}
              title={hidden.has(id) ? `Show ${titleOf(id)}` : `Hide ${titleOf(id)}`}
            >
              {titleOf(id)} <span className="muted">{formatCount(counts.get(id) ?? 0)}</span>
            </button>
          ))}
        </fieldset>
        <span className="spacer" />
        <span className="muted small" role="status" data-testid="timeline-count">
          {rows.length === model.size
            ? `${formatCount(model.size)} entries`
            : `${formatCount(rows.length)} of ${formatCount(model.size)} entries`}
          {model.dropped > 0 && ` · ${formatCount(model.dropped)} oldest dropped`}
        </span>
      </div>
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      {loading && model.size === 0 ? (
        <div className="empty" role="status" data-testid="timeline-loading">
          <h2>Loading the timeline…</h2>
          {loading.total !== undefined && (
            <p className="muted">
              {formatCount(loading.loaded)} of {formatCount(loading.total)} entries
            </p>
          )}
        </div>
      ) : model.size === 0 ? (
        <div className="empty">
          <h2>Nothing on the timeline yet</h2>
          <p className="muted">
            Requests, console messages, page loads and state actions of this session appear here in time order as they
            happen.
          </p>
        </div>
      ) : rows.length === 0 ? (
        <div className="empty" role="status">
          <h2>No entry matches</h2>
          <p className="muted">
            {formatCount(model.size)} entries are kept; none passes the filters.{' '}
            <button
              type="button"
              className="link"
              onClick={() => {
                setText('');
                setMinLevel('');
                setHidden(new Set());
              }}
            >
              Clear the filters
            </button>
          </p>
        </div>
      ) : (
        <>
          {loading && (
            <div className="banner info" role="status" data-testid="timeline-loading">
              Loading the timeline… {formatCount(loading.loaded)}
              {loading.total !== undefined && ` of ${formatCount(loading.total)}`} entries
            </div>
          )}
          <VirtualGrid
            label="Timeline"
            testId="timeline-grid"
            rowTestId="timeline-row"
            rows={rows}
            rowKey={(r) => r.key}
            columns={columns}
            template={template}
            selectedKey={selected?.key}
            onSelect={setSelectedKey}
            onOpen={(key) => open(rows.find((r) => r.key === key))}
            followTail
            rowClassName={(r) => `timeline-row level-${r.level ?? 'info'}${r.pending ? ' pending' : ''}`}
            rowAttributes={(r) => ({ 'data-plugin': r.plugin })}
          />
          <div className="timeline-foot">
            {selected ? (
              <>
                <span className="timeline-selected" title={selected.summary}>
                  {titleOf(selected.plugin)} · {selected.summary}
                </span>
                <span className="spacer" />
                {canOpen(selected) ? (
                  <button type="button" className="primary" onClick={() => open(selected)}>
                    Open in {titleOf(target(selected)!.plugin)}
                  </button>
                ) : (
                  <span className="muted small">
                    {selected.plugin === CORE_PLUGIN ? 'A page load has no detail view' : 'No panel shows it'}
                  </span>
                )}
              </>
            ) : (
              <span className="muted small">
                Select a row (↑/↓) and press Enter to open it in its plugin; the view follows new entries at the bottom.
              </span>
            )}
          </div>
        </>
      )}
    </div>
  );
}
