import { type KeyboardEvent, useEffect, useState } from 'react';
import type { CallDetail, CallSummary } from '../../../shared/bridge.js';
import { useBridge } from '../bridge/context.js';
import { FailedMark } from '../components/FailedMark.js';
import { JsonTree } from '../components/JsonTree.js';
import { formatMs, ResultView } from '../components/ResultView.js';
import { clientLabel, filterCalls, NO_FILTERS, useHistory } from '../stores/history.js';
import { useNav } from '../stores/nav.js';
import { useSessions } from '../stores/sessions.js';

const PAGE = 300;

/** Every tool call from every surface, newest first; failures in red; filters; details with the result. */
export function HistoryView() {
  const calls = useHistory((s) => s.calls);
  const filters = useHistory((s) => s.filters);
  const setFilters = useHistory((s) => s.setFilters);
  const callId = useNav((s) => s.callId);
  const selectCall = useNav((s) => s.selectCall);
  const sessions = useSessions((s) => s.sessions);
  const [limit, setLimit] = useState(PAGE);
  const shown = filterCalls(calls, filters);
  const tools = [...new Set(calls.map((c) => c.tool))].sort();
  const clients = [...new Set(calls.map(clientLabel))].sort();
  const sessionIds = [...new Set(calls.map((c) => c.sessionId).filter((id): id is string => !!id))];
  const sessionName = (id?: string) => {
    const s = id ? sessions[id] : undefined;
    return s ? `${s.app.name} · ${s.device.name}` : id ? `${id.slice(0, 8)}…` : '—';
  };
  const failed = calls.filter((c) => c.status === 'failed').length;

  const onKeys = (e: KeyboardEvent) => {
    if (e.key === 'Escape') return selectCall(undefined);
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const index = shown.findIndex((c) => c.id === callId);
    const next = shown[Math.max(0, Math.min(shown.length - 1, index + (e.key === 'ArrowDown' ? 1 : -1)))];
    if (next) selectCall(next.id);
  };

  return (
    <div className="split" style={{ gridTemplateColumns: callId ? 'minmax(440px, 1.5fr) minmax(340px, 1fr)' : '1fr' }}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: arrow keys move through the rows */}
      <div onKeyDown={onKeys}>
        <div className="filters" role="toolbar" aria-label="Filters">
          <select
            aria-label="Status"
            value={filters.status}
            onChange={(e) => setFilters({ status: e.target.value as typeof filters.status })}
          >
            <option value="all">All statuses</option>
            <option value="failed">Failed</option>
            <option value="succeeded">Succeeded</option>
            <option value="running">Running</option>
            <option value="cancelled">Cancelled</option>
          </select>
          <select aria-label="Tool" value={filters.tool} onChange={(e) => setFilters({ tool: e.target.value })}>
            <option value="">All tools</option>
            {tools.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
          <select
            aria-label="Session"
            value={filters.sessionId}
            onChange={(e) => setFilters({ sessionId: e.target.value })}
          >
            <option value="">All sessions</option>
            {sessionIds.map((id) => (
              <option key={id} value={id}>
                {sessionName(id)}
              </option>
            ))}
          </select>
          <select aria-label="Client" value={filters.client} onChange={(e) => setFilters({ client: e.target.value })}>
            <option value="">All clients</option>
            {clients.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
          {JSON.stringify(filters) !== JSON.stringify(NO_FILTERS) && (
            <button type="button" className="link" onClick={() => setFilters(NO_FILTERS)}>
              Clear filters
            </button>
          )}
          <span className="spacer" />
          <span className="muted small">
            {shown.length} of {calls.length} calls{failed > 0 ? ` · ${failed} failed` : ''}
          </span>
        </div>
        {calls.length === 0 ? (
          <div className="empty">
            <h2>No tool calls yet</h2>
            <p className="muted">
              Calls from MCP clients and from this window's tools browser appear here as they happen, newest first.
            </p>
          </div>
        ) : (
          <table className="table" aria-label="Call history">
            <thead>
              <tr>
                <th>Time</th>
                <th>Status</th>
                <th>Tool</th>
                <th>Session</th>
                <th>Client</th>
                <th>Surface</th>
                <th>Duration</th>
              </tr>
            </thead>
            <tbody>
              {shown.slice(0, limit).map((call) => (
                <tr
                  key={call.id}
                  className={`clickable${call.status === 'failed' ? ' failed' : ''}`}
                  aria-selected={call.id === callId}
                  data-testid="call-row"
                  data-status={call.status}
                  tabIndex={0}
                  onClick={() => selectCall(call.id)}
                  onKeyDown={(e) => e.key === 'Enter' && selectCall(call.id)}
                >
                  <td className="muted">{new Date(call.startedAt).toLocaleTimeString()}</td>
                  <td>
                    <Status call={call} />
                  </td>
                  <td className="mono">{call.tool}</td>
                  <td>{sessionName(call.sessionId)}</td>
                  <td>{clientLabel(call)}</td>
                  <td>{call.surface}</td>
                  <td>{call.durationMs === undefined ? '…' : formatMs(call.durationMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {shown.length > limit && (
          <div className="pane">
            <button type="button" onClick={() => setLimit(limit + PAGE)}>
              Show {Math.min(PAGE, shown.length - limit)} more
            </button>
          </div>
        )}
      </div>
      {callId && <CallDetailPane key={callId} id={callId} summary={calls.find((c) => c.id === callId)} />}
    </div>
  );
}

export function Status({ call }: { call: Pick<CallSummary, 'status'> }) {
  switch (call.status) {
    case 'failed':
      return <FailedMark />;
    case 'running':
      return <span className="status-running">● Running</span>;
    case 'cancelled':
      return <span className="muted">Cancelled</span>;
    default:
      return <span className="status-ok">✓ OK</span>;
  }
}

function CallDetailPane({ id, summary }: { id: string; summary?: CallSummary }) {
  const { client } = useBridge();
  const selectCall = useNav((s) => s.selectCall);
  const [detail, setDetail] = useState<CallDetail>();
  const [error, setError] = useState<string>();
  const status = summary?.status;

  // Reload when the call finishes, so a running call's detail fills in.
  useEffect(() => {
    if (!status) return;
    client
      .request('history.get', { id })
      .then(({ call }) => setDetail(call))
      .catch((e: Error) => setError(e.message));
  }, [client, id, status]);

  const call = detail ?? summary;
  return (
    <aside className="pane stack" aria-label="Call detail" data-testid="call-detail">
      <div className="row">
        <h2 className="mono">{call?.tool ?? id}</h2>
        <span className="spacer" />
        <button type="button" aria-label="Close detail" onClick={() => selectCall(undefined)}>
          ×
        </button>
      </div>
      {error && <div className="banner error">{error}</div>}
      {call && (
        <dl className="kv">
          <dt>Status</dt>
          <dd>
            <Status call={call} />
          </dd>
          {call.error && (
            <>
              <dt>Error</dt>
              <dd className="status-failed">{call.error}</dd>
            </>
          )}
          <dt>Started</dt>
          <dd>{new Date(call.startedAt).toLocaleString()}</dd>
          <dt>Duration</dt>
          <dd>{call.durationMs === undefined ? 'running' : formatMs(call.durationMs)}</dd>
          <dt>Surface</dt>
          <dd>{call.surface}</dd>
          <dt>Client</dt>
          <dd>{clientLabel(call)}</dd>
          <dt>Plugin</dt>
          <dd>{call.plugin ?? 'inspector'}</dd>
          <dt>Session</dt>
          <dd className="mono small">{call.sessionId ?? '—'}</dd>
        </dl>
      )}
      {detail && (
        <>
          <h3>Arguments</h3>
          <div className="card">
            <JsonTree value={detail.args} expandDepth={3} label="Arguments" />
          </div>
          <h3>Result</h3>
          {detail.result ? (
            <ResultView result={detail.result} durationMs={detail.durationMs} />
          ) : (
            <p className="muted">{detail.status === 'running' ? 'Still running…' : 'No result was recorded.'}</p>
          )}
        </>
      )}
    </aside>
  );
}
