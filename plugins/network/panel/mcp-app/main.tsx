import { useMemo, useState } from 'react';
import type { AppLink, ToolResultParams } from '../../../../renderer/mcp-apps/app-link.js';
import {
  DetailSection,
  mountView,
  ResultText,
  tableHeight,
  useDetail,
  useToolResult,
  Waiting,
} from '../../../../renderer/mcp-apps/view-kit.js';
import type { Transaction, TransactionSummary } from '../../protocol.js';
import { BodyView } from '../BodyView.js';
import type { ColumnLayout } from '../column-layout.js';
import { COLUMNS, DEFAULT_VISIBLE } from '../columns.js';
import { formatDuration, grpcLabel } from '../format.js';
import { HeaderList } from '../HeaderList.js';
import { TransactionTable } from '../TransactionTable.js';
import '../../../../renderer/src/styles.css';
import '../network.css';
import '../../../../renderer/mcp-apps/mcp-app.css';

/** What network_list_transactions answers in structuredContent (the fields the view reads). */
interface Page {
  summary?: string;
  transactions?: TransactionSummary[];
  total?: number;
  next?: string;
}

/** One request as network_get_transaction answers it, with the panel's header lists and body views. */
function TransactionView({ result }: { result: ToolResultParams }) {
  const tx = (result.structuredContent as { transaction?: Transaction } | undefined)?.transaction;
  if (result.isError || !tx) return <ResultText result={result} />;
  const { request, response } = tx;
  return (
    <div className="stack" style={{ gap: 8 }}>
      <p>
        <strong>
          {request.method} {request.url}
        </strong>{' '}
        → {response ? `${response.status} ${response.statusText ?? ''}` : tx.state}
        {tx.timing.durationMs !== undefined && <span className="muted"> · {formatDuration(tx.timing.durationMs)}</span>}
      </p>
      {tx.error && <p className="mcp-app-error">{tx.error.message}</p>}
      {tx.grpc && tx.grpc.status !== 0 && <p className="mcp-app-error">gRPC status {grpcLabel(tx.grpc)}</p>}
      <HeaderList title="Request headers" headers={request.headers} />
      {request.body && <BodyView body={request.body} label="Request body" />}
      {response && <HeaderList title="Response headers" headers={response.headers} />}
      {response?.trailers && <HeaderList title="Response trailers" headers={response.trailers} />}
      {response && <BodyView body={response.body} contentType={response.body?.contentType} label="Response body" />}
    </div>
  );
}

const LAYOUT: ColumnLayout = { visible: DEFAULT_VISIBLE, widths: {} };
const columns = COLUMNS.filter((c) => DEFAULT_VISIBLE.includes(c.id));

/**
 * network_list_transactions as an MCP App: the panel's own request table over the page the tool
 * answered; selecting a row (a click, the arrow keys) reads it with network_get_transaction through the
 * host, as the window's panel opens its detail.
 */
function NetworkRequests({ link }: { link: AppLink }) {
  const result = useToolResult(link);
  const page = result?.structuredContent as Page | undefined;
  // The table lists oldest first, as the window does.
  const rows = useMemo(() => [...(page?.transactions ?? [])].sort((a, b) => a.seq - b.seq), [page]);
  const [selectedId, setSelectedId] = useState<string>();
  const { detail, open } = useDetail(link, 'network_get_transaction');

  if (!result) return <Waiting />;
  if (result.isError || !page?.transactions) return <ResultText result={result} />;
  return (
    <main className="mcp-app" aria-label="Network requests">
      <p className="mcp-app-summary" data-testid="mcp-app-summary">
        {page.summary}
      </p>
      {rows.length > 0 && (
        <div className="mcp-app-table" style={{ height: tableHeight(rows.length) }}>
          <TransactionTable
            rows={rows}
            columns={columns}
            layout={LAYOUT}
            selectedId={selectedId}
            onSelect={(id) => {
              setSelectedId(id);
              if (id) open(result, `request ${id}`, { id });
            }}
          />
        </div>
      )}
      {page.next && <p className="muted">{page.next}</p>}
      <DetailSection detail={detail} shown={result}>
        {(answer) => <TransactionView result={answer} />}
      </DetailSection>
    </main>
  );
}

mountView('porthole-network-requests', NetworkRequests);
