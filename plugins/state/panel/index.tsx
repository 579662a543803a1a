import { useEffect, useRef, useState } from 'react';
import { type PanelProps, usePanelClient, usePluginEvents, useReveal } from '../../../renderer/src/panel-kit.js';
import { type StoreView, stateProtocol } from '../protocol.js';
import { QueriesView } from './QueriesView.js';
import { StoreDetail } from './StoreDetail.js';
import './state.css';

/** Raised per timeline request, so the same action asked for twice is shown twice. */
let reveals = 0;

type Selection = { kind: 'store'; id: string } | { kind: 'queries' };

/** The State panel: the app's stores on the left; a store's timeline, diffs and state, or its queries. */
export default function StatePanel({ session }: PanelProps) {
  const api = usePanelClient(stateProtocol, session.id);
  const [stores, setStores] = useState<StoreView[]>([]);
  const [queries, setQueries] = useState(0);
  const [hint, setHint] = useState<string>();
  const [error, setError] = useState<string>();
  const [selected, setSelected] = useState<Selection>();
  const [loaded, setLoaded] = useState(false);
  const [reveal, setReveal] = useState<{ seq: number; n: number }>();

  const reload = () =>
    api.call('stores', {}).then(
      (answer) => {
        setLoaded(true);
        setStores(answer.stores);
        setQueries(answer.queries);
        setHint(answer.hint);
        setError(undefined);
      },
      (e: Error) => {
        setLoaded(true);
        setError(e.message);
      },
    );
  // biome-ignore lint/correctness/useExhaustiveDependencies: reload reads only api
  useEffect(() => void reload(), [api]);
  // Stores come whole with their event; the query count and the hint are asked again, at most twice a second.
  const later = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(later.current), []);
  usePluginEvents(stateProtocol, session.id, (events) => {
    for (const e of events) {
      if (e.event === 'stores') setStores(e.data.stores);
      if (later.current === undefined && (e.event === 'queries' || e.event === 'stores')) {
        later.current = setTimeout(() => {
          later.current = undefined;
          void reload();
        }, 500);
      }
    }
  });

  // An action opened from the session's timeline (its ref is `store:seq`): its store, then the action.
  useReveal(stateProtocol, session.id, (ref) => {
    if (!loaded) return false;
    const at = ref.lastIndexOf(':');
    const id = ref.slice(0, at);
    if (!stores.some((s) => s.id === id)) {
      setError(`The store of that action (${id}) is no longer kept.`);
      return true;
    }
    setSelected({ kind: 'store', id });
    setReveal({ seq: Number(ref.slice(at + 1)), n: ++reveals });
    return true;
  });

  const current =
    selected ?? (stores[0] ? { kind: 'store', id: stores[0].id } : queries ? { kind: 'queries' } : undefined);
  const store = current?.kind === 'store' ? stores.find((s) => s.id === current.id) : undefined;

  return (
    <div className="st-panel" data-testid="state-panel">
      <nav className="st-stores" aria-label="Stores">
        <h3 className="st-heading">Stores</h3>
        {stores.length === 0 && <p className="small muted st-hint">{hint ?? 'No store yet.'}</p>}
        <ul className="plain-list">
          {stores.map((s) => (
            <li key={s.id}>
              <button
                type="button"
                className="list-item st-store"
                aria-current={current?.kind === 'store' && current.id === s.id ? 'true' : undefined}
                onClick={() => {
                  setReveal(undefined);
                  setSelected({ kind: 'store', id: s.id });
                }}
                data-testid="state-store"
              >
                <span className="st-store-name">
                  <span className={`dot ${s.active ? 'on' : 'off'}`} aria-hidden="true" /> {s.name}
                </span>
                <span className="small muted">
                  {s.library} · {s.actions} action{s.actions === 1 ? '' : 's'}
                  {s.active ? '' : ' · gone'}
                </span>
              </button>
            </li>
          ))}
          {queries > 0 && (
            <li>
              <button
                type="button"
                className="list-item st-store"
                aria-current={current?.kind === 'queries' ? 'true' : undefined}
                onClick={() => {
                  setReveal(undefined);
                  setSelected({ kind: 'queries' });
                }}
                data-testid="state-queries"
              >
                <span className="st-store-name">TanStack Query</span>
                <span className="small muted">
                  {queries} quer{queries === 1 ? 'y' : 'ies'}
                </span>
              </button>
            </li>
          )}
        </ul>
        {error && (
          <p className="small st-error" role="alert">
            {error}
          </p>
        )}
      </nav>
      {store && (
        <StoreDetail
          key={store.id}
          api={api}
          sessionId={session.id}
          store={store}
          connected={session.active}
          reveal={reveal}
        />
      )}
      {current?.kind === 'queries' && <QueriesView api={api} sessionId={session.id} connected={session.active} />}
      {!current && (
        <div className="empty st-empty">
          <p>{hint ?? 'No store has connected yet.'}</p>
        </div>
      )}
    </div>
  );
}
