import { type ReactNode, type RefObject, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type GridColumn, VirtualGrid } from '../../../renderer/src/components/VirtualGrid.js';
import { formatTimeOfDay } from '../../../renderer/src/time.js';
import type { TransactionSummary } from '../protocol.js';
import { type ColumnLayout, widthOf } from './column-layout.js';
import { type Column, type Span, spanOf } from './columns.js';
import { statusTone } from './format.js';
import { isLoadRow, type LoadRow, type TableRow } from './loads.js';

const rowKey = (row: TableRow) => row.id;
const rowClassName = (row: TableRow) => (isLoadRow(row) ? 'net-load-row' : `net-row tone-${statusTone(row)}`);
const rowAttributes = (row: TableRow): Record<`data-${string}`, string> =>
  isLoadRow(row) ? { 'data-load': String(row.load), 'data-open': String(row.open) } : { 'data-state': row.state };
const rowTestId = (row: TableRow) => (isLoadRow(row) ? 'network-load' : 'network-row');
const expanded = (row: TableRow) => (isLoadRow(row) ? row.open : undefined);

/** A page load's (or process start's) header: which, when, how many requests; opens and closes them. */
function LoadHeader({ row, onToggle }: { row: LoadRow; onToggle(): void }): ReactNode {
  return (
    <>
      <span className="net-load-toggle" aria-hidden="true" data-testid="network-load-toggle" onClick={onToggle}>
        {row.open ? '▾' : '▸'}
      </span>{' '}
      <span className="visually-hidden">{row.open ? 'Open: ' : 'Closed (Right opens): '}</span>
      <span className="net-load-name">Load {row.load}</span>
      {row.latest ? <span className="muted"> (current)</span> : null}
      <span className="muted">
        {' '}
        · {row.requests.toLocaleString()} request{row.requests === 1 ? '' : 's'} · from {formatTimeOfDay(row.startedAt)}
      </span>
    </>
  );
}

/**
 * The transactions as a virtualized grid with the chosen columns: sortable, resizable, a right-click
 * on the header opens the columns menu. Follows the newest row while scrolled to the bottom.
 */
export function TransactionTable({
  rows,
  span: zoom,
  columns,
  layout,
  selectedId,
  onSelect,
  onOpen,
  onExpand,
  onSort,
  onResize,
  onHeaderMenu,
}: {
  /** The requests, with the header rows of page loads among them (loads.ts). */
  rows: readonly TableRow[];
  /** The waterfall's time range (the overview's zoom); the rows' own span when absent. */
  span?: Span;
  columns: Column[];
  layout: ColumnLayout;
  selectedId?: string;
  onSelect(id: string | undefined): void;
  onOpen?(id: string): void;
  /** A load's header opened or closed (Right, Left, Enter, a click on its toggle). */
  onExpand?(id: string, open: boolean): void;
  onSort?(id: string): void;
  onResize?(id: string, width: number): void;
  onHeaderMenu?(x: number, y: number): void;
}) {
  const requests = useMemo(() => rows.filter((r): r is TransactionSummary => !isLoadRow(r)), [rows]);
  const span = useMemo(() => zoom ?? spanOf(requests), [requests, zoom]);
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const shown = useMemo(() => fitColumns(columns, layout, width), [columns, layout, width]);
  const gridColumns = useMemo(
    (): GridColumn<TableRow>[] =>
      shown.map((c) => ({
        id: c.id,
        title: c.title,
        width: c.id === 'url' ? c.minWidth : widthOf(layout, c),
        minWidth: c.minWidth,
        align: c.align,
        sortable: c.compare !== undefined,
        // Header rows are drawn by spanRow: only requests reach the cells.
        cell: (tx) => c.cell(tx as TransactionSummary, span),
        tooltip: c.tooltip && ((tx) => c.tooltip!(tx as TransactionSummary)),
      })),
    [shown, layout, span],
  );
  const spanRow = useCallback(
    (row: TableRow) =>
      isLoadRow(row) ? <LoadHeader row={row} onToggle={() => onExpand?.(row.id, !row.open)} /> : undefined,
    [onExpand],
  );
  const template = gridColumns.map((c) => (c.id === 'url' ? `minmax(${c.width}px, 1fr)` : `${c.width}px`)).join(' ');
  const hidden = columns.length - shown.length;
  return (
    <div ref={box} className="net-table" data-hidden-columns={hidden || undefined}>
      <VirtualGrid
        label="Requests"
        testId="network-table"
        rowTestId={rowTestId}
        rows={rows}
        rowKey={rowKey}
        rowClassName={rowClassName}
        rowAttributes={rowAttributes}
        spanRow={spanRow}
        expanded={expanded}
        onExpand={onExpand}
        columns={gridColumns}
        template={template}
        selectedKey={selectedId}
        onSelect={onSelect}
        onOpen={(id) => {
          const row = rows.find((r) => r.id === id);
          if (row && isLoadRow(row)) onExpand?.(id, !row.open);
          else onOpen?.(id);
        }}
        followTail={!layout.sort}
        sort={layout.sort}
        onSort={onSort}
        onResize={onResize}
        onHeaderMenu={onHeaderMenu}
      />
    </div>
  );
}

/** Columns least worth their room go first when the table is narrow (DevTools keeps the name). */
const DROP_ORDER = ['waterfall', 'started', 'remote', 'protocol', 'initiator', 'type', 'size', 'time', 'method'];

/** The chosen columns that fit `width`: the URL shrinks to its minimum first, then columns go in DROP_ORDER. */
export function fitColumns(columns: Column[], layout: ColumnLayout, width: number | undefined): Column[] {
  if (!width) return columns;
  const need = (list: Column[]) =>
    list.reduce((sum, c) => sum + (c.id === 'url' ? c.minWidth : widthOf(layout, c)) + 8, 20);
  let list = columns;
  for (const id of DROP_ORDER) {
    if (need(list) <= width || list.length <= 2) break;
    list = list.filter((c) => c.id !== id);
  }
  return list;
}

function useWidth(ref: RefObject<HTMLElement | null>): number | undefined {
  const [width, setWidth] = useState<number>();
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry!.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
