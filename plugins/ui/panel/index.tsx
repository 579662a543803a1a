import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { type PanelProps, usePanelClient, usePluginEvents } from '../../../renderer/src/panel-kit.js';
import { formatTimeOfDay } from '../../../renderer/src/time.js';
import { pageLine } from '../outline.js';
import { type ActionEntry, type PageInfo, type PanelNode, uiProtocol } from '../protocol.js';
import './ui.css';

const RENEW_WATCH_MS = 10_000;
const REFRESH_DELAY_MS = 250;
const MAX_ACTIONS = 500;

interface Outline {
  page: PageInfo & { load?: number };
  nodes: PanelNode[];
  more: number;
  runtime?: string;
}

/**
 * The app's UI as the agent sees it: the outline, live; hovering or focusing a line outlines the
 * element in the app (as DevTools' inspect does). Below, the actions agents took, each replayable.
 */
export default function UiPanel({ session }: PanelProps) {
  const api = usePanelClient(uiProtocol, session.id);
  const [outline, setOutline] = useState<Outline>();
  const [error, setError] = useState<string>();
  const [filter, setFilter] = useState('');
  const [live, setLive] = useState(true);
  const [actions, setActions] = useState<ActionEntry[]>([]);
  const pending = useRef<ReturnType<typeof setTimeout>>(undefined);

  const load = useCallback(async () => {
    if (!session.active) return;
    try {
      setOutline(await api.call('snapshot', filter ? { text: filter } : {}));
      setError(undefined);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [api, filter, session.active]);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    api.call('actions', {}).then(
      (r) => setActions(r.entries),
      () => {},
    );
  }, [api]);
  // Live: the page reports changes while a window watches (a lease renewed here).
  useEffect(() => {
    if (!live || !session.active) return;
    const renew = () => void api.call('watch', {}).catch(() => {});
    renew();
    const timer = setInterval(renew, RENEW_WATCH_MS);
    return () => clearInterval(timer);
  }, [api, live, session.active]);
  useEffect(() => () => void api.call('highlight', {}).catch(() => {}), [api]);

  usePluginEvents(uiProtocol, session.id, (events) => {
    let refresh = false;
    const added: ActionEntry[] = [];
    for (const e of events) {
      if (e.event === 'action') added.push(e.data);
      else if (e.event === 'page' || (e.event === 'changed' && live)) refresh = true;
    }
    if (added.length) setActions((list) => [...list, ...added].slice(-MAX_ACTIONS));
    if (refresh) {
      clearTimeout(pending.current);
      pending.current = setTimeout(() => void load(), REFRESH_DELAY_MS);
    }
  });

  const highlight = (ref?: string) => void api.call('highlight', ref ? { ref } : {}).catch(() => {});

  return (
    <div className="view ui-panel" data-testid="ui-panel">
      <div className="ui-bar">
        <input
          type="search"
          aria-label="Filter the outline by text"
          placeholder="Filter by text (press /)"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          data-filter
        />
        <label className="row">
          <input type="checkbox" checked={live} onChange={(e) => setLive(e.target.checked)} /> Live
        </label>
        <button type="button" onClick={() => void load()} disabled={!session.active}>
          Refresh
        </button>
        {outline && (
          <span className="muted small ui-page" title={outline.page.url}>
            {pageLine(outline.page)}
          </span>
        )}
      </div>
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      {!session.active && (
        <p className="muted ui-note">The app is not connected: the outline shows what it last showed.</p>
      )}
      <div className="ui-split">
        <section className="ui-outline" aria-label="Outline">
          {outline ? (
            outline.nodes.length ? (
              <OutlineList nodes={outline.nodes} onHighlight={highlight} />
            ) : (
              <p className="muted ui-note">
                {filter ? 'Nothing on the page matches the filter.' : 'The page shows nothing.'}
              </p>
            )
          ) : (
            <p className="muted ui-note">{session.active ? 'Loading the outline…' : 'No outline yet.'}</p>
          )}
          {outline && outline.more > 0 && (
            <p className="muted small ui-note">
              {filter ? `${outline.more} more lines` : `About ${outline.more} more elements`} not shown.
            </p>
          )}
        </section>
        <ActionLog entries={actions} onReplay={(seq) => api.call('replay', { seq })} active={session.active} />
      </div>
    </div>
  );
}

/** The outline as a list with one tab stop: arrows move, hover or focus outlines the element in the app. */
function OutlineList({ nodes, onHighlight }: { nodes: PanelNode[]; onHighlight(ref?: string): void }) {
  const [active, setActive] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  const move = (to: number) => {
    const next = Math.max(0, Math.min(nodes.length - 1, to));
    setActive(next);
    (list.current?.children[next]?.firstElementChild as HTMLElement | null)?.focus();
  };
  const onKey = (e: KeyboardEvent) => {
    const keys: Record<string, number> = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      Home: 0,
      End: nodes.length - 1,
      PageDown: active + 20,
      PageUp: active - 20,
    };
    const to = keys[e.key];
    if (to === undefined) return;
    e.preventDefault();
    move(to);
  };
  return (
    <ul className="ui-lines" ref={list} onKeyDown={onKey} onMouseLeave={() => onHighlight()} aria-label="Outline lines">
      {nodes.map((node, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines are positions in one outline; it is replaced whole
        <li key={i}>
          <button
            type="button"
            className={`ui-line${node.role === 'text' ? ' is-text' : ''}`}
            style={{ paddingLeft: `${8 + node.d * 14}px` }}
            tabIndex={i === active ? 0 : -1}
            onFocus={() => {
              setActive(i);
              onHighlight(node.ref);
            }}
            onBlur={() => onHighlight()}
            onMouseEnter={() => onHighlight(node.ref)}
          >
            <Line node={node} />
          </button>
        </li>
      ))}
    </ul>
  );
}

function Line({ node }: { node: PanelNode }) {
  return (
    <>
      <span className="ui-role">{node.role}</span>
      {node.name ? <span className="ui-name"> "{node.name}"</span> : null}
      {node.ref ? <span className="ui-ref"> {node.ref}</span> : null}
      {node.level ? <span className="ui-state"> level={node.level}</span> : null}
      {node.states?.map((s) => (
        <span key={s} className="ui-state">
          {' '}
          {s}
        </span>
      ))}
      {node.value !== undefined ? <span className="ui-value"> value="{node.value}"</span> : null}
      {node.url ? <span className="ui-url"> → {node.url}</span> : null}
      {node.text ? <span className="ui-text">: {node.text}</span> : null}
      {node.hidden ? <span className="muted"> (+{node.hidden} inside)</span> : null}
    </>
  );
}

/** What agents (and replays) did to the app, newest first; each can be run again from here. */
function ActionLog({
  entries,
  onReplay,
  active,
}: {
  entries: ActionEntry[];
  onReplay(seq: number): Promise<unknown>;
  active: boolean;
}) {
  const [busy, setBusy] = useState<number>();
  const [failure, setFailure] = useState<string>();
  const replay = async (seq: number) => {
    setBusy(seq);
    setFailure(undefined);
    try {
      await onReplay(seq);
    } catch (e) {
      setFailure((e as Error).message);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <section className="ui-actions" aria-label="Actions taken">
      <h3>Actions taken ({entries.length})</h3>
      {failure && (
        <div className="banner error" role="alert">
          {failure}
        </div>
      )}
      {entries.length === 0 ? (
        <p className="muted">
          No actions yet: what an agent does with ui_act, ui_navigate and ui_evaluate is listed here.
        </p>
      ) : (
        <ol className="ui-action-list" reversed>
          {[...entries].reverse().map((entry) => (
            <li key={entry.seq} className="ui-action" data-testid="ui-action" data-ok={entry.ok}>
              <details>
                <summary>
                  <span className="muted">{formatTimeOfDay(entry.time)}</span>{' '}
                  <span className={entry.ok ? 'ui-ok' : 'ui-failed'}>{entry.ok ? '✓' : '✗ failed'}</span>{' '}
                  <span className="mono">{entry.summary}</span>{' '}
                  <span className="muted small">
                    by {entry.surface}
                    {entry.load ? ` · load ${entry.load}` : ''}
                  </span>
                </summary>
                <pre className="ui-result">{entry.result}</pre>
              </details>
              <button
                type="button"
                className="small"
                disabled={!active || busy !== undefined}
                onClick={() => void replay(entry.seq)}
                aria-label={`Replay: ${entry.summary}`}
              >
                {busy === entry.seq ? 'Replaying…' : 'Replay'}
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
