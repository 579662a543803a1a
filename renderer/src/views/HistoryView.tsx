import { type Ref, useEffect, useMemo, useRef, useState } from 'react';
import type { CallDetail, CallSummary } from '../../../shared/bridge.js';
import { describeDecision } from '../../../shared/permissions.js';
import { useBridge } from '../bridge/context.js';
import { FailedMark } from '../components/FailedMark.js';
import { JsonTree } from '../components/JsonTree.js';
import { formatMs, ResultView } from '../components/ResultView.js';
import { type GridColumn, VirtualGrid } from '../components/VirtualGrid.js';
import { closeOnEscape } from '../keys.js';
import { clientLabel, filterCalls, NO_FILTERS, useHistory } from '../stores/history.js';
import { useNav } from '../stores/nav.js';
import { usePermissions } from '../stores/permissions.js';
import { useSessions } from '../stores/sessions.js';
import { formatDateTime, formatTimeOfDay } from '../time.js';
import { SaveAsTest } from './SaveAsTest.js';

const rowKey = (c: CallSummary) => c.id;
const rowClassName = (c: CallSummary) => (c.status === 'failed' ? 'failed' : '');
const rowAttributes = (c: CallSummary) => ({ 'data-status': c.status });

/**
 * Every tool call from every surface, newest first, all the core keeps (virtualized); failures in
 * red; filters and a search in arguments and results; details with the result, and "Run again".
 */
export function HistoryView() {
  const { client } = useBridge();
  const calls = useHistory((s) => s.calls);
  const filters = useHistory((s) => s.filters);
  const setFilters = useHistory((s) => s.setFilters);
  const callId = useNav((s) => s.callId);
  const selectCall = useNav((s) => s.selectCall);
  const sessions = useSessions((s) => s.sessions);
  const [searchText, setSearchText] = useState('');
  const [found, setFound] = useState<{ text: string; ids: ReadonlySet<string>; error?: string }>();
  const detailRef = useRef<HTMLElement>(null);

  // The search runs in the core (arguments and results are there), shortly after typing stops.
  useEffect(() => {
    const text = searchText.trim();
    if (!text) return setFound(undefined);
    let live = true;
    const timer = setTimeout(() => {
      client
        .request('history.search', { text })
        .then(({ ids }) => live && setFound({ text, ids: new Set(ids) }))
        .catch((e: Error) => live && setFound({ text, ids: new Set(), error: e.message }));
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, searchText]);

  const shown = useMemo(() => {
    const filtered = filterCalls(calls, filters);
    return found ? filtered.filter((c) => found.ids.has(c.id)) : filtered;
  }, [calls, filters, found]);
  const tools = useMemo(() => [...new Set(calls.map((c) => c.tool))].sort(), [calls]);
  const clients = useMemo(() => [...new Set(calls.map(clientLabel))].sort(), [calls]);
  const sessionIds = useMemo(
    () => [...new Set(calls.map((c) => c.sessionId).filter((id): id is string => !!id))],
    [calls],
  );
  const sessionName = (id?: string) => {
    const s = id ? sessions[id] : undefined;
    return s ? `${s.app.name} · ${s.device.name}` : id ? `${id.slice(0, 8)}…` : '—';
  };
  const failed = useMemo(() => calls.filter((c) => c.status === 'failed').length, [calls]);
  const filtering = JSON.stringify(filters) !== JSON.stringify(NO_FILTERS) || !!found;

  const columns: GridColumn<CallSummary>[] = [
    { id: 'time', title: 'Time', width: 92, minWidth: 60, cell: (c) => formatTimeOfDay(c.startedAt) },
    { id: 'status', title: 'Status', width: 84, minWidth: 60, cell: (c) => <Status call={c} /> },
    { id: 'tool', title: 'Tool', width: 220, minWidth: 120, cell: (c) => <span className="mono">{c.tool}</span> },
    { id: 'session', title: 'Session', width: 160, minWidth: 80, cell: (c) => sessionName(c.sessionId) },
    { id: 'client', title: 'Client', width: 140, minWidth: 80, cell: clientLabel },
    { id: 'surface', title: 'Surface', width: 80, minWidth: 60, cell: (c) => c.surface },
    {
      id: 'duration',
      title: 'Duration',
      width: 72,
      minWidth: 56,
      align: 'right',
      cell: (c) => (c.durationMs === undefined ? '…' : formatMs(c.durationMs)),
    },
  ];
  const template = columns.map((c) => (c.id === 'tool' ? `minmax(${c.width}px, 1fr)` : `${c.width}px`)).join(' ');

  return (
    <div className="split" style={{ gridTemplateColumns: callId ? 'minmax(300px, 1.5fr) minmax(300px, 1fr)' : '1fr' }}>
      <div className="history-list">
        <div className="filters" role="toolbar" aria-label="Filters">
          <input
            type="search"
            aria-label="Search arguments and results"
            placeholder="Search arguments and results (press /)"
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            data-filter
          />
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
            <option value="refused">Refused (permissions)</option>
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
          {filtering && (
            <button
              type="button"
              className="link"
              onClick={() => {
                setFilters(NO_FILTERS);
                setSearchText('');
              }}
            >
              Clear filters
            </button>
          )}
          <span className="spacer" />
          <span className="muted small" data-testid="history-count" aria-live="polite">
            {shown.length.toLocaleString()} of {calls.length.toLocaleString()} calls
            {failed > 0 ? ` · ${failed} failed` : ''}
          </span>
          {found?.error && <span className="error-text small">{found.error}</span>}
          <SaveAsTest calls={shown} />
        </div>
        {calls.length === 0 ? (
          <div className="empty">
            <h2>No tool calls yet</h2>
            <p className="muted">
              Calls from MCP clients and from this window's tools browser appear here as they happen, newest first.
            </p>
          </div>
        ) : shown.length === 0 ? (
          <div className="empty" role="status">
            <h2>No call matches</h2>
            <p className="muted">
              {found ? (
                <>
                  No call's arguments or result contain <code>{found.text}</code>
                  {JSON.stringify(filters) !== JSON.stringify(NO_FILTERS) ? ' with these filters' : ''}.
                </>
              ) : (
                'No call passes these filters.'
              )}{' '}
              Clear the filters to see all {calls.length.toLocaleString()}.
            </p>
          </div>
        ) : (
          <VirtualGrid
            label="Call history"
            testId="history-table"
            rowTestId="call-row"
            rows={shown}
            rowKey={rowKey}
            rowClassName={rowClassName}
            rowAttributes={rowAttributes}
            columns={columns}
            template={template}
            selectedKey={callId}
            onSelect={selectCall}
            onOpen={() => detailRef.current?.focus()}
          />
        )}
      </div>
      {callId && (
        <CallDetailPane key={callId} ref={detailRef} id={callId} summary={calls.find((c) => c.id === callId)} />
      )}
    </div>
  );
}

/** A running call that waits for the user's answer says so. */
function Running({ callId }: { callId?: string }) {
  const waiting = usePermissions((s) => callId !== undefined && s.asks.some((a) => a.callId === callId));
  return <span className="status-running">{waiting ? '● Waiting for you' : '● Running'}</span>;
}

export function Status({ call }: { call: Pick<CallSummary, 'status' | 'decision'> & { id?: string } }) {
  switch (call.status) {
    case 'failed':
      return <FailedMark />;
    case 'running':
      return <Running callId={call.id} />;
    case 'cancelled':
      return <span className="muted">Cancelled</span>;
    case 'refused':
      return (
        <span className="status-refused" title={call.decision && describeDecision(call.decision)}>
          ⊘ Refused
        </span>
      );
    default:
      return <span className="status-ok">✓ OK</span>;
  }
}

function CallDetailPane({ id, summary, ref }: { id: string; summary?: CallSummary; ref?: Ref<HTMLElement> }) {
  const { client } = useBridge();
  const selectCall = useNav((s) => s.selectCall);
  const selectTool = useNav((s) => s.selectTool);
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
  const args = detail?.args;
  const rerunnable = typeof args === 'object' && args !== null && !Array.isArray(args) && !('(not kept)' in args);
  return (
    <aside
      ref={ref}
      className="pane stack"
      aria-label="Call detail"
      data-testid="call-detail"
      tabIndex={-1}
      onKeyDown={closeOnEscape(() => selectCall(undefined), '[data-testid="history-table"]')}
    >
      <div className="row">
        <h2 className="mono">{call?.tool ?? id}</h2>
        <span className="spacer" />
        {call && (
          <button
            type="button"
            disabled={!rerunnable}
            title="Open the tools browser with these arguments"
            onClick={() => selectTool(call.tool, args as Record<string, unknown>)}
          >
            Run again…
          </button>
        )}
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
          {call.decision && (
            <>
              <dt>Decision</dt>
              <dd data-testid="call-decision">{describeDecision(call.decision)}</dd>
            </>
          )}
          {call.error && (
            <>
              <dt>{call.status === 'refused' ? 'Told the agent' : 'Error'}</dt>
              <dd className={call.status === 'refused' ? undefined : 'status-failed'}>{call.error}</dd>
            </>
          )}
          <dt>Started</dt>
          <dd>{formatDateTime(call.startedAt)}</dd>
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
