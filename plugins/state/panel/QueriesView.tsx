import { useEffect, useMemo, useState } from 'react';
import { JsonTree } from '../../../renderer/src/components/JsonTree.js';
import { toDisplay } from '../../../renderer/src/components/serialized-value.js';
import { type PanelClient, usePluginEvents } from '../../../renderer/src/panel-kit.js';
import { formatClock } from '../../../renderer/src/time.js';
import { plain } from '../plain.js';
import { type QueryWire, type ReadResult, type StateProtocol, stateProtocol } from '../protocol.js';
import { AgentView } from './AgentView.js';
import { age } from './model.js';

/** The app's TanStack queries: a table, and the selected one's data with invalidate and refetch. */
export function QueriesView({
  api,
  sessionId,
  connected,
}: {
  api: PanelClient<StateProtocol>;
  sessionId: string;
  connected: boolean;
}) {
  const [queries, setQueries] = useState(new Map<string, QueryWire>());
  const [selected, setSelected] = useState<string>();
  const [filter, setFilter] = useState('');
  const [now, setNow] = useState(Date.now());

  useEffect(() => {
    api.call('queries', {}).then(
      (answer) => setQueries(new Map(answer.queries.map((q) => [q.hash, q]))),
      () => {},
    );
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [api]);
  usePluginEvents(stateProtocol, sessionId, (events) => {
    setQueries((old) => {
      const next = new Map(old);
      for (const e of events) {
        if (e.event !== 'queries') continue;
        for (const q of e.data.queries) next.set(q.hash, q);
        for (const hash of e.data.removed) next.delete(hash);
      }
      return next;
    });
  });

  const shown = useMemo(
    () =>
      [...queries.values()]
        .filter((q) => q.hash.toLowerCase().includes(filter.toLowerCase()))
        .sort((a, b) => b.dataUpdatedAt - a.dataUpdatedAt),
    [queries, filter],
  );
  const query = selected ? queries.get(selected) : undefined;

  return (
    <div className="st-detail">
      <section className="st-timeline" aria-label="Queries">
        <div className="filters">
          <input
            type="search"
            aria-label="Filter queries by key"
            placeholder="Filter by key"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
          <span className="small muted">{shown.length.toLocaleString()} queries</span>
        </div>
        <table className="table st-queries">
          <caption className="visually-hidden">TanStack queries</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Status</th>
              <th scope="col">Fetch</th>
              <th scope="col">Age</th>
              <th scope="col">Observers</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((q) => (
              <tr key={q.hash} aria-current={q.hash === selected ? 'true' : undefined} data-testid="state-query">
                <td>
                  <button type="button" className="link mono small" onClick={() => setSelected(q.hash)}>
                    {JSON.stringify(plain(q.key))}
                  </button>
                </td>
                <td className={q.status === 'error' ? 'st-error' : undefined}>
                  {q.status}
                  {q.stale ? ' · stale' : ''}
                  {q.invalidated ? ' · invalidated' : ''}
                </td>
                <td>{q.fetchStatus}</td>
                <td>{q.dataUpdatedAt ? age(now - q.dataUpdatedAt) : '—'}</td>
                <td>{q.observers}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="st-side" aria-label="Query">
        {query ? (
          <QueryDetail api={api} query={query} connected={connected} />
        ) : (
          <p className="muted st-pad">Select a query to see its data.</p>
        )}
      </section>
    </div>
  );
}

function QueryDetail({
  api,
  query,
  connected,
}: {
  api: PanelClient<StateProtocol>;
  query: QueryWire;
  connected: boolean;
}) {
  const [read, setRead] = useState<ReadResult>();
  const [message, setMessage] = useState<{ error?: boolean; text: string }>();
  const [tab, setTab] = useState<'data' | 'agent'>('data');
  useEffect(() => {
    if (!connected) return;
    api
      .call('read', { query: query.hash, path: '', offset: 0, maxBytes: 2_000_000 })
      .then(setRead, (e: Error) => setMessage({ error: true, text: e.message }));
  }, [api, query, connected]);
  const act = async (mode: 'invalidate' | 'refetch') => {
    try {
      const result = await api.call('change', { mode, value: plain(query.key) });
      setMessage({
        text: `${mode === 'invalidate' ? 'Invalidated' : 'Refetching'} ${result.queries} quer${result.queries === 1 ? 'y' : 'ies'}.`,
      });
    } catch (e) {
      setMessage({ error: true, text: (e as Error).message });
    }
  };
  return (
    <div className="stack st-pad" data-testid="state-query-detail">
      <div className="row">
        <strong className="mono">{JSON.stringify(plain(query.key))}</strong>
        <span className="spacer" />
        <button type="button" disabled={!connected} onClick={() => void act('invalidate')}>
          Invalidate
        </button>
        <button type="button" disabled={!connected} onClick={() => void act('refetch')}>
          Refetch
        </button>
      </div>
      {query.error && <div className="banner error">{query.error}</div>}
      <dl className="kv small">
        <dt>Status</dt>
        <dd>
          {query.status} · {query.fetchStatus}
        </dd>
        <dt>Updated</dt>
        <dd>{query.dataUpdatedAt ? formatClock(query.dataUpdatedAt) : 'never'}</dd>
        <dt>Updates / failures</dt>
        <dd>
          {query.updates} / {query.failures}
        </dd>
      </dl>
      {message && (
        <p className={`small ${message.error ? 'st-error' : 'muted'}`} role={message.error ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      <div className="tabs" role="tablist" aria-label="Query views">
        {(['data', 'agent'] as const).map((t) => (
          <button key={t} type="button" role="tab" aria-selected={tab === t} onClick={() => setTab(t)}>
            {t === 'data' ? 'Data' : 'Agent view'}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        {tab === 'data' && read && <JsonTree value={toDisplay(read.value)} label="Query data" expandDepth={2} />}
        {tab === 'agent' && connected && (
          <AgentView api={api} read={{ query: query.hash, path: '', offset: 0, maxBytes: 20_000 }} />
        )}
      </div>
    </div>
  );
}
