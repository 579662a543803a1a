import type { ReactNode } from 'react';
import type { TransactionSummary } from '../protocol.js';
import { formatBytes, formatClock, formatDuration, grpcLabel, shortType, splitUrl, statusLabel } from './format.js';

/** The time span the waterfall column draws, over the rows shown. */
export interface Span {
  start: number;
  end: number;
}

export interface Column {
  id: string;
  title: string;
  /** Default width in px; the URL column also takes what is left. */
  width: number;
  minWidth: number;
  align?: 'right';
  /** Absent: the column cannot be sorted. */
  compare?(a: TransactionSummary, b: TransactionSummary): number;
  cell(tx: TransactionSummary, span: Span): ReactNode;
  /** What the cell's tooltip says, when the cell may be cut. */
  tooltip?(tx: TransactionSummary): string | undefined;
}

const text = (a: string | undefined, b: string | undefined) => (a ?? '').localeCompare(b ?? '');
const num = (a: number | undefined, b: number | undefined) =>
  (a ?? Number.NEGATIVE_INFINITY) - (b ?? Number.NEGATIVE_INFINITY);

/** Where a transaction ends on the waterfall; a pending one runs to the end of the span. */
export function endOf(tx: TransactionSummary, now: number): number {
  return tx.durationMs === undefined ? Math.max(now, tx.startedAt) : tx.startedAt + tx.durationMs;
}

/** The span of the waterfall: from the first start to the last end of `rows`. */
export function spanOf(rows: readonly TransactionSummary[], now = Date.now()): Span {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const tx of rows) {
    if (tx.startedAt < start) start = tx.startedAt;
    const e = endOf(tx, tx.state === 'pending' ? now : tx.startedAt);
    if (e > end) end = e;
  }
  return start <= end ? { start, end: Math.max(end, start + 1) } : { start: 0, end: 1 };
}

/**
 * Every column the requests table can show, in their default order. A new field of the summary
 * (protocol.ts) becomes a column by adding one entry here.
 */
export const COLUMNS: Column[] = [
  {
    id: 'status',
    title: 'Status',
    width: 84,
    minWidth: 56,
    compare: (a, b) => num(a.status ?? (a.state === 'failed' ? -1 : -2), b.status ?? (b.state === 'failed' ? -1 : -2)),
    cell: (tx) => (
      <span className="net-status">
        {statusLabel(tx)}
        {tx.grpc && tx.grpc.status !== 0 && (
          <span className="badge failed" title={`gRPC status ${grpcLabel(tx.grpc)}`}>
            grpc {tx.grpc.status}
          </span>
        )}
        {tx.mockRuleId && (
          <span className="badge accent" title={`Answered by mock rule ${tx.mockRuleId}`}>
            mock
          </span>
        )}
        {tx.beforeRules && (
          <span className="badge warn" title="Sent before this load of the app had its mock rules: it was not mocked">
            before rules
          </span>
        )}
        {tx.replayOf && (
          <span className="badge" title={`Replay of ${tx.replayOf}`}>
            replay
          </span>
        )}
      </span>
    ),
  },
  {
    id: 'method',
    title: 'Method',
    width: 64,
    minWidth: 48,
    compare: (a, b) => text(a.method, b.method),
    cell: (tx) => tx.method,
  },
  {
    id: 'url',
    title: 'URL',
    width: 240,
    minWidth: 120,
    compare: (a, b) => text(a.url, b.url),
    cell: (tx) => {
      const { path, origin } = splitUrl(tx.url);
      return (
        <span className="net-url">
          {path} <span className="muted">{origin}</span>
        </span>
      );
    },
    tooltip: (tx) => tx.url,
  },
  {
    id: 'type',
    title: 'Type',
    width: 64,
    minWidth: 40,
    compare: (a, b) => text(shortType(a.responseType), shortType(b.responseType)),
    cell: (tx) => <span className="muted">{shortType(tx.responseType)}</span>,
    tooltip: (tx) => tx.responseType,
  },
  {
    id: 'initiator',
    title: 'Initiator',
    width: 160,
    minWidth: 48,
    compare: (a, b) => text(siteLabel(a) ?? a.initiator, siteLabel(b) ?? b.initiator),
    cell: (tx) => {
      const site = siteLabel(tx);
      return site ? (
        <>
          <span className="mono">{site}</span> <span className="muted">{tx.initiator}</span>
        </>
      ) : (
        tx.initiator
      );
    },
    tooltip: (tx) => (tx.callSite ? `${tx.initiator} from ${tx.callSite}` : tx.initiator),
  },
  {
    id: 'protocol',
    title: 'Protocol',
    width: 72,
    minWidth: 48,
    compare: (a, b) => text(extra(a).httpVersion, extra(b).httpVersion),
    cell: (tx) => extra(tx).httpVersion ?? '',
  },
  {
    id: 'remote',
    title: 'Remote address',
    width: 140,
    minWidth: 64,
    compare: (a, b) => text(extra(a).remoteAddress, extra(b).remoteAddress),
    cell: (tx) => extra(tx).remoteAddress ?? '',
  },
  {
    id: 'graphql',
    title: 'GraphQL',
    width: 140,
    minWidth: 64,
    compare: (a, b) => text(graphqlLabel(a), graphqlLabel(b)),
    cell: (tx) =>
      tx.graphql && (
        <span className="net-gql">
          <span className="muted">{tx.graphql.type ?? 'persisted'}</span>{' '}
          {tx.graphql.name ?? tx.graphql.hash?.slice(0, 12)}
          {tx.graphql.errors ? (
            <span className="badge failed" title={`${tx.graphql.errors} GraphQL errors in a ${tx.status ?? ''} answer`}>
              {tx.graphql.errors} err
            </span>
          ) : null}
        </span>
      ),
    tooltip: graphqlLabel,
  },
  {
    id: 'messages',
    title: 'Messages',
    width: 72,
    minWidth: 48,
    align: 'right',
    compare: (a, b) => num(a.messages, b.messages),
    cell: (tx) => (tx.messages === undefined ? '' : tx.messages.toLocaleString()),
  },
  {
    id: 'size',
    title: 'Size',
    width: 72,
    minWidth: 48,
    align: 'right',
    compare: (a, b) => num(a.responseSize, b.responseSize),
    cell: (tx) => formatBytes(tx.responseSize),
  },
  {
    id: 'time',
    title: 'Time',
    width: 72,
    minWidth: 48,
    align: 'right',
    compare: (a, b) => num(a.durationMs, b.durationMs),
    cell: (tx) => (tx.state === 'pending' ? '…' : formatDuration(tx.durationMs)),
  },
  {
    id: 'started',
    title: 'Started',
    width: 104,
    minWidth: 72,
    compare: (a, b) => a.startedAt - b.startedAt,
    cell: (tx) => formatClock(tx.startedAt),
  },
  {
    id: 'waterfall',
    title: 'Waterfall',
    width: 160,
    minWidth: 60,
    compare: (a, b) => a.startedAt - b.startedAt,
    cell: (tx, span) => <WaterfallBar tx={tx} span={span} />,
  },
];

export const DEFAULT_VISIBLE = ['status', 'method', 'url', 'type', 'initiator', 'size', 'time', 'waterfall'];

/** A call site as DevTools' Initiator column shows it: `file:line` (the last path segment). */
export function siteLabel(tx: Pick<TransactionSummary, 'callSite'>): string | undefined {
  const frame = parseFrame(tx.callSite);
  return frame && `${frame.file.split(/[/\\]/).at(-1)?.split('?')[0] || frame.file}:${frame.line}`;
}

/** One V8 frame, `fn (file:line:col)` or `file:line:col`, without its `at `. */
export function parseFrame(
  frame: string | undefined,
): { fn?: string; file: string; line: number; column: number } | undefined {
  const m = frame?.replace(/^\s*at\s+/, '').match(/^(?:(.*?) \()?(.+?):(\d+):(\d+)\)?$/);
  return m ? { fn: m[1] || undefined, file: m[2]!, line: Number(m[3]), column: Number(m[4]) } : undefined;
}

/** "mutation Checkout (2 errors)", for sorting and the tooltip. */
function graphqlLabel(tx: TransactionSummary): string | undefined {
  const op = tx.graphql;
  if (!op) return undefined;
  const name = op.name ?? (op.hash ? `#${op.hash}` : '');
  return `${op.type ?? ''} ${name}${op.batch ? ` (batch of ${op.batch})` : ''}${op.errors ? ` (${op.errors} errors)` : ''}`.trim();
}

/**
 * Fields the capture is adding to the summary (protocol.ts): shown when an agent sends them, empty
 * until then. Read through here so the columns compile before and after the contract has them.
 */
function extra(tx: TransactionSummary): { httpVersion?: string; remoteAddress?: string } {
  return tx as TransactionSummary & { httpVersion?: string; remoteAddress?: string };
}

function WaterfallBar({ tx, span }: { tx: TransactionSummary; span: Span }) {
  const width = span.end - span.start;
  const left = ((tx.startedAt - span.start) / width) * 100;
  const length = ((endOf(tx, span.end) - tx.startedAt) / width) * 100;
  return (
    <span className="waterfall" title={tx.durationMs === undefined ? 'still running' : formatDuration(tx.durationMs)}>
      <span
        className={`bar ${tx.state}`}
        style={{ left: `${Math.min(left, 99.5)}%`, width: `max(2px, ${Math.max(0, Math.min(length, 100 - left))}%)` }}
      />
    </span>
  );
}
