import { useEffect, useState } from 'react';
import { CopyButton } from '../../../renderer/src/components/CopyButton.js';
import type { PanelClient } from '../../../renderer/src/panel-kit.js';
import type { Header, NetworkProtocol, Transaction, TransactionSummary } from '../protocol.js';
import { BodyView } from './BodyView.js';
import { formatDuration, statusLabel } from './format.js';

type Tab = 'headers' | 'request' | 'response' | 'timing';

/** One transaction in full: headers, bodies, timing; copy as cURL or fetch; "Mock this". */
export function TransactionDetail({
  api,
  summary,
  onClose,
  onMock,
}: {
  api: PanelClient<NetworkProtocol>;
  summary: TransactionSummary;
  onClose(): void;
  onMock(tx: Transaction): void;
}) {
  const [tx, setTx] = useState<Transaction>();
  const [error, setError] = useState<string>();
  const [tab, setTab] = useState<Tab>('headers');

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

  return (
    <aside className="net-detail" aria-label="Request detail" data-testid="network-detail">
      <div className="row pane" style={{ paddingBottom: 6 }}>
        <strong className="mono" style={{ overflowWrap: 'anywhere' }}>
          {summary.method} {summary.url}
        </strong>
        <span className="spacer" />
        <button type="button" aria-label="Close detail" onClick={onClose}>
          ×
        </button>
      </div>
      <div className="row" style={{ padding: '0 18px 8px', flexWrap: 'wrap' }}>
        <CopyButton get={snippet('curl')} label="Copy as cURL" />
        <CopyButton get={snippet('fetch')} label="Copy as fetch" />
        <button type="button" disabled={!tx} onClick={() => tx && onMock(tx)}>
          Mock this
        </button>
      </div>
      <div className="tabs" role="tablist">
        {(['headers', 'request', 'response', 'timing'] as const).map((t) => (
          <button key={t} type="button" role="tab" aria-selected={tab === t} onClick={() => setTab(t)}>
            {t[0]!.toUpperCase() + t.slice(1)}
          </button>
        ))}
      </div>
      <div className="pane stack">
        {error && <div className="banner error">{error}</div>}
        {tx?.error && (
          <div className="banner error" role="alert">
            Failed: {tx.error.message}
            {tx.error.code ? ` (${tx.error.code})` : ''}
          </div>
        )}
        {tx && tab === 'headers' && <HeadersTab tx={tx} />}
        {tx && tab === 'request' && <BodyView body={tx.request.body} label="Request body" />}
        {tx &&
          tab === 'response' &&
          (tx.response ? (
            <BodyView body={tx.response.body} label="Response body" />
          ) : (
            <p className="muted">{tx.state === 'pending' ? 'Waiting for the response…' : 'No response.'}</p>
          ))}
        {tx && tab === 'timing' && <TimingTab tx={tx} />}
      </div>
    </aside>
  );
}

function HeadersTab({ tx }: { tx: Transaction }) {
  return (
    <>
      <dl className="kv">
        <dt>URL</dt>
        <dd className="mono small">{tx.request.url}</dd>
        <dt>Method</dt>
        <dd>{tx.request.method}</dd>
        <dt>Status</dt>
        <dd>
          {tx.response
            ? `${tx.response.status} ${tx.response.statusText}`
            : statusLabel({ state: tx.state, status: undefined })}
        </dd>
        <dt>Initiator</dt>
        <dd>{tx.initiator}</dd>
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
      <HeaderList title="Response headers" headers={tx.response?.headers} />
      <HeaderList title="Request headers" headers={tx.request.headers} sensitive={tx.sensitiveHeaders} />
    </>
  );
}

function HeaderList({ title, headers, sensitive }: { title: string; headers?: Header[]; sensitive?: string[] }) {
  const hidden = new Set(sensitive?.map((h) => h.toLowerCase()));
  return (
    <section aria-label={title}>
      <h3>{title}</h3>
      {!headers?.length ? (
        <p className="muted">None.</p>
      ) : (
        <dl className="kv mono small">
          {headers.map((h, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: headers repeat (set-cookie); position is their identity
            <div key={i} style={{ display: 'contents' }}>
              <dt title={hidden.has(h.name.toLowerCase()) ? 'Hidden from MCP clients' : undefined}>{h.name}</dt>
              <dd>{h.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

function TimingTab({ tx }: { tx: Transaction }) {
  const { startedAt, waitMs, durationMs } = tx.timing;
  const total = durationMs ?? waitMs ?? 0;
  const download = durationMs !== undefined && waitMs !== undefined ? durationMs - waitMs : undefined;
  const pct = (ms: number) => `${total > 0 ? (ms / total) * 100 : 0}%`;
  return (
    <section className="stack" aria-label="Timing">
      <dl className="kv">
        <dt>Started</dt>
        <dd>{new Date(startedAt).toLocaleTimeString(undefined, { hour12: false, fractionalSecondDigits: 3 })}</dd>
        <dt>Waiting (to first byte)</dt>
        <dd>{waitMs === undefined ? '—' : formatDuration(waitMs)}</dd>
        <dt>Content download</dt>
        <dd>{download === undefined ? '—' : formatDuration(download)}</dd>
        <dt>Total</dt>
        <dd>{durationMs === undefined ? 'still running' : formatDuration(durationMs)}</dd>
      </dl>
      {total > 0 && (
        <div className="timing-bar" aria-hidden="true">
          <span className="wait" style={{ width: pct(waitMs ?? total) }} />
          {download !== undefined && <span className="download" style={{ width: pct(download) }} />}
        </div>
      )}
    </section>
  );
}
