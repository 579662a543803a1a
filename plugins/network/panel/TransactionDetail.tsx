import { forwardRef, type KeyboardEvent, useEffect, useId, useState } from 'react';
import { CopyButton } from '../../../renderer/src/components/CopyButton.js';
import { closeOnEscape } from '../../../renderer/src/keys.js';
import type { PanelClient } from '../../../renderer/src/panel-kit.js';
import type { SafeRegex } from '../../../shared/safe-regex.js';
import type {
  AgentInfo,
  NetworkProtocol,
  ReplayRequest,
  SearchPlace,
  Transaction,
  TransactionSummary,
} from '../protocol.js';
import { AgentView } from './AgentView.js';
import { BodyView } from './BodyView.js';
import { parseFrame } from './columns.js';
import { formatClock, formatDuration, grpcLabel, statusLabel } from './format.js';
import { HeaderList } from './HeaderList.js';
import { Marked } from './Marked.js';
import { MessagesView } from './MessagesView.js';
import { ReplayForm } from './ReplayForm.js';
import { TimingView } from './TimingView.js';

const TABS = [
  { id: 'headers', label: 'Headers' },
  { id: 'messages', label: 'Messages' },
  { id: 'payload', label: 'Payload' },
  { id: 'response', label: 'Response' },
  { id: 'timing', label: 'Timing' },
  { id: 'initiator', label: 'Initiator' },
  { id: 'agent', label: 'Agent view' },
] as const;
type Tab = (typeof TABS)[number]['id'];

/** The tabs of a transaction: Messages for a WebSocket or an event stream only. */
function tabsOf(summary: TransactionSummary) {
  const messages = summary.initiator === 'websocket' || summary.messages !== undefined;
  return TABS.filter((t) => t.id !== 'messages' || messages);
}

/** A body/header search in force: its pattern, and where it hit in this transaction. */
export interface SearchHighlight {
  pattern: SafeRegex;
  places: readonly SearchPlace[];
}

/** The tab that shows where a search hit first. */
function tabFor(places: readonly SearchPlace[]): Tab | undefined {
  if (places.includes('requestHeaders') || places.includes('responseHeaders')) return 'headers';
  if (places.includes('responseBody')) return 'response';
  if (places.includes('requestBody')) return 'payload';
  return undefined;
}

/** The original of a replay, as the detail links to it. */
export interface ReplayLink {
  id: string;
  /** Its summary while the window still has it. */
  summary?: TransactionSummary;
  onSelect(): void;
}

/**
 * One transaction in full: headers (parsed or raw, redactions said), payload and query string,
 * the response body, timing phases; copy as cURL, fetch, HAR or the body; "Mock this"; replay it
 * as it was or edited.
 */
export const TransactionDetail = forwardRef<
  HTMLElement,
  {
    api: PanelClient<NetworkProtocol>;
    summary: TransactionSummary;
    agentInfo?: AgentInfo;
    search?: SearchHighlight;
    /** Why this session cannot replay (its app is gone); undefined when it can. */
    noReplay?: string;
    replayOf?: ReplayLink;
    onClose(): void;
    onMock(tx: Transaction): void;
    onReplay(request: ReplayRequest): Promise<void>;
  }
>(function TransactionDetail({ api, summary, agentInfo, search, noReplay, replayOf, onClose, onMock, onReplay }, ref) {
  const [tx, setTx] = useState<Transaction>();
  const [error, setError] = useState<string>();
  const [editing, setEditing] = useState(false);
  const [replaying, setReplaying] = useState(false);
  const [replayError, setReplayError] = useState<string>();
  const tabs = tabsOf(summary);
  const [chosen, setTab] = useState<Tab>(
    () => (search && tabFor(search.places)) ?? (summary.initiator === 'websocket' ? 'messages' : 'headers'),
  );
  const tab = tabs.some((t) => t.id === chosen) ? chosen : 'headers';
  const ids = useId();

  // Fetch again when the summary changes (the response arrived, the transaction ended).
  useEffect(() => {
    let live = true;
    api
      .call('get', { id: summary.id })
      .then(({ transaction }) => {
        if (!live) return;
        setTx(transaction);
        setError(transaction ? undefined : 'This request is no longer kept (cleared or dropped as the oldest).');
      })
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [api, summary]);

  const snippet = (kind: 'curl' | 'fetch') => async () => (await api.call('snippets', { id: summary.id }))[kind];
  const harEntry = async () => JSON.stringify(await api.call('harEntry', { id: summary.id }), null, 2);
  const responseBody = tx?.response?.body;
  const cannotReplay = noReplay ?? (tx?.imported ? 'Read from a HAR file: no app can send it again' : undefined);
  const replayNow = async () => {
    setReplaying(true);
    setReplayError(undefined);
    try {
      await onReplay({ id: summary.id });
    } catch (e) {
      setReplayError((e as Error).message);
    } finally {
      setReplaying(false);
    }
  };

  const onTabKeys = (e: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((t) => t.id === tab);
    const to =
      e.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : e.key === 'ArrowLeft'
          ? (index + tabs.length - 1) % tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? tabs.length - 1
              : undefined;
    if (to === undefined) return;
    e.preventDefault();
    setTab(tabs[to]!.id);
    document.getElementById(`${ids}-tab-${tabs[to]!.id}`)?.focus();
  };

  return (
    <aside
      ref={ref}
      className="net-detail"
      aria-label="Request detail"
      data-testid="network-detail"
      tabIndex={-1}
      onKeyDown={closeOnEscape(onClose)}
    >
      <div className="detail-head">
        <h2 className="mono detail-title">
          {summary.method}{' '}
          <Marked text={summary.url} pattern={search?.places.includes('url') ? search.pattern : undefined} />
        </h2>
        <button type="button" aria-label="Close detail" onClick={onClose}>
          ×
        </button>
      </div>
      {replayOf && (
        <p className="replay-of small" data-testid="replay-of">
          <span className="badge">replay</span> Replay of{' '}
          {replayOf.summary ? (
            <button type="button" className="link mono" title="Select the original request" onClick={replayOf.onSelect}>
              {replayOf.summary.method} {pathOf(replayOf.summary.url)}
            </button>
          ) : (
            <span className="muted">{replayOf.id} (no longer kept)</span>
          )}
        </p>
      )}
      {summary.beforeRules && (
        <p className="replay-of small" data-testid="before-rules">
          <span className="badge warn">before rules</span> Sent before this load of the app had its mock rules: it went
          out unmocked. Mocks are in force from the first request of the next load.
        </p>
      )}
      <div className="row detail-actions" role="toolbar" aria-label="Request actions">
        <CopyButton get={snippet('curl')} label="Copy as cURL" />
        <CopyButton get={snippet('fetch')} label="Copy as fetch" />
        <CopyButton get={harEntry} label="Copy as HAR" />
        <CopyButton
          get={async () => responseBody?.data}
          label={responseBody?.encoding === 'base64' ? 'Copy response (base64)' : 'Copy response'}
          disabled={!responseBody?.data}
        />
        <button type="button" disabled={!tx} onClick={() => tx && onMock(tx)}>
          Mock this
        </button>
        <button
          type="button"
          disabled={!tx || !!cannotReplay || replaying}
          title={cannotReplay ?? 'Send this request again from the app, as it was'}
          onClick={() => void replayNow()}
        >
          {replaying ? 'Replaying…' : 'Replay'}
        </button>
        <button
          type="button"
          disabled={!tx || !!cannotReplay}
          aria-pressed={editing}
          title={cannotReplay ?? 'Change the method, URL, headers or body, then send it from the app'}
          onClick={() => setEditing(!editing)}
        >
          Edit and resend
        </button>
      </div>
      {replayError && (
        <div className="banner error" role="alert">
          Replay refused: {replayError}
        </div>
      )}
      {editing && tx ? (
        <div className="pane stack">
          <ReplayForm tx={tx} onSend={onReplay} onCancel={() => setEditing(false)} />
        </div>
      ) : (
        <>
          <div className="tabs" role="tablist" aria-label="Request detail sections" onKeyDown={onTabKeys}>
            {tabs.map((t) => (
              <button
                key={t.id}
                id={`${ids}-tab-${t.id}`}
                type="button"
                role="tab"
                aria-selected={tab === t.id}
                aria-controls={`${ids}-panel`}
                tabIndex={tab === t.id ? 0 : -1}
                onClick={() => setTab(t.id)}
              >
                {t.label}
                {search && tabFor(search.places.filter((p) => p !== 'url')) === t.id && (
                  <span className="hit-dot" title="The search matches here" />
                )}
              </button>
            ))}
          </div>
          <div className="pane stack" role="tabpanel" id={`${ids}-panel`} aria-labelledby={`${ids}-tab-${tab}`}>
            {error && <div className="banner error">{error}</div>}
            {tx?.error && (
              <div className="banner error" role="alert">
                Failed: {tx.error.message}
                {tx.error.code ? ` (${tx.error.code})` : ''}
              </div>
            )}
            {!tx && !error && <p className="muted">Loading…</p>}
            {tx && tab === 'headers' && <HeadersTab tx={tx} agentInfo={agentInfo} pattern={search?.pattern} />}
            {tx && tab === 'payload' && <PayloadTab tx={tx} pattern={search?.pattern} />}
            {tx &&
              tab === 'response' &&
              (tx.response ? (
                <BodyView body={tx.response.body} label="Response body" pattern={search?.pattern} />
              ) : (
                <p className="muted">{tx.state === 'pending' ? 'Waiting for the response…' : 'No response.'}</p>
              ))}
            {tab === 'messages' && <MessagesView api={api} summary={summary} />}
            {tx && tab === 'timing' && <TimingView tx={tx} />}
            {tx && tab === 'initiator' && <InitiatorView tx={tx} />}
            {tx && tab === 'agent' && <AgentView api={api} tx={tx} />}
          </div>
        </>
      )}
    </aside>
  );
});

function HeadersTab({ tx, agentInfo, pattern }: { tx: Transaction; agentInfo?: AgentInfo; pattern?: SafeRegex }) {
  const [raw, setRaw] = useState(false);
  const remote = (tx as Transaction & { remoteAddress?: string }).remoteAddress;
  return (
    <>
      <section aria-label="General">
        <h3>General</h3>
        <dl className="kv">
          <dt>URL</dt>
          <dd className="mono small">
            <Marked text={tx.request.url} pattern={pattern} />
          </dd>
          <dt>Method</dt>
          <dd>{tx.request.method}</dd>
          <dt>Status</dt>
          <dd>
            {tx.response
              ? `${tx.response.status} ${tx.response.statusText}`
              : statusLabel({ state: tx.state, status: undefined })}
          </dd>
          {remote && (
            <>
              <dt>Remote address</dt>
              <dd className="mono small">{remote}</dd>
            </>
          )}
          <dt>Initiator</dt>
          <dd>{tx.initiator}</dd>
          <dt>Started</dt>
          <dd>{formatClock(tx.timing.startedAt)}</dd>
          <dt>Duration</dt>
          <dd>{tx.timing.durationMs === undefined ? 'still running' : formatDuration(tx.timing.durationMs)}</dd>
          {tx.grpc && (
            <>
              <dt>gRPC status</dt>
              <dd>{grpcLabel(tx.grpc)}</dd>
            </>
          )}
          {tx.mock && (
            <>
              <dt>Mocked by</dt>
              <dd>{tx.mock.ruleName ?? tx.mock.ruleId}</dd>
            </>
          )}
          {tx.imported && (
            <>
              <dt>Imported</dt>
              <dd>from {tx.imported.source}</dd>
            </>
          )}
        </dl>
      </section>
      <div className="row small">
        <span className="spacer" />
        <button type="button" className="link" aria-pressed={raw} onClick={() => setRaw(!raw)}>
          {raw ? 'Show parsed headers' : 'Show raw headers'}
        </button>
      </div>
      <HeaderList
        title="Response headers"
        headers={tx.response?.headers}
        raw={raw && tx.response ? `HTTP/1.1 ${tx.response.status} ${tx.response.statusText}` : undefined}
        sensitive={tx.sensitiveHeaders}
        redactedInApp={agentInfo?.redaction.scope === 'all' ? agentInfo.redaction.headers : undefined}
        pattern={pattern}
      />
      {tx.response?.trailers && (
        <HeaderList
          title="Response trailers"
          headers={tx.response.trailers}
          sensitive={tx.sensitiveHeaders}
          redactedInApp={agentInfo?.redaction.scope === 'all' ? agentInfo.redaction.headers : undefined}
          pattern={pattern}
        />
      )}
      <HeaderList
        title="Request headers"
        headers={tx.request.headers}
        raw={raw ? `${tx.request.method} ${pathOf(tx.request.url)} HTTP/1.1` : undefined}
        sensitive={tx.sensitiveHeaders}
        redactedInApp={agentInfo?.redaction.scope === 'all' ? agentInfo.redaction.headers : undefined}
        pattern={pattern}
      />
    </>
  );
}

function PayloadTab({ tx, pattern }: { tx: Transaction; pattern?: SafeRegex }) {
  const [encoded, setEncoded] = useState(false);
  const query = queryOf(tx.request.url);
  return (
    <>
      <section aria-label="Query string parameters" className="stack" style={{ gap: 6 }}>
        <div className="row">
          <h3>Query string parameters</h3>
          <span className="spacer" />
          {query && query.params.length > 0 && (
            <button type="button" className="link small" aria-pressed={encoded} onClick={() => setEncoded(!encoded)}>
              {encoded ? 'Show decoded' : 'Show URL-encoded'}
            </button>
          )}
        </div>
        {!query || query.params.length === 0 ? (
          <p className="muted">None.</p>
        ) : encoded ? (
          <pre className="code-block">{query.raw}</pre>
        ) : (
          <dl className="kv mono small">
            {query.params.map(([name, value], i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: parameters repeat; position is their identity
              <div key={i} style={{ display: 'contents' }}>
                <dt>
                  <Marked text={name} pattern={pattern} />
                </dt>
                <dd>
                  <Marked text={value} pattern={pattern} />
                </dd>
              </div>
            ))}
          </dl>
        )}
      </section>
      <BodyView body={tx.request.body} label="Request body" pattern={pattern} />
    </>
  );
}

function queryOf(url: string): { raw: string; params: [string, string][] } | undefined {
  try {
    const u = new URL(url);
    return { raw: u.search.slice(1), params: [...u.searchParams.entries()] };
  } catch {
    return undefined;
  }
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

/** Where the app made the request: the issuing API and the top frames of its stack, as DevTools' Initiator tab. */
function InitiatorView({ tx }: { tx: Transaction }) {
  const frames = tx.callStack?.split('\n').filter(Boolean) ?? [];
  const how =
    tx.initiator === 'har'
      ? 'read from a HAR file'
      : `${tx.initiator === 'http' ? "Node's http" : tx.initiator === 'xhr' ? 'XMLHttpRequest' : tx.initiator}`;
  return (
    <div className="stack" data-testid="network-initiator">
      <p>
        Issued by <strong>{how}</strong>
        {frames.length === 0 && tx.initiator !== 'har' && (
          <span className="muted">
            {' '}
            — no call site: the agent takes it where the engine offers it cheaply (V8: Chrome, Edge, Node, Electron) and
            from fetch, XMLHttpRequest and Node's http.
          </span>
        )}
      </p>
      {frames.length > 0 && (
        <ol className="call-stack mono small" aria-label="Call stack, innermost first">
          {frames.map((line, i) => {
            const f = parseFrame(line);
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: frames are positions in one fixed stack
              <li key={i}>
                {f ? (
                  <>
                    <span>{f.fn ?? '(anonymous)'}</span>{' '}
                    <span className="muted" title={f.file}>
                      {f.file}:{f.line}:{f.column}
                    </span>
                  </>
                ) : (
                  line.replace(/^at\s+/, '')
                )}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
