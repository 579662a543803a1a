import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { type GridColumn, VirtualGrid } from '../../../renderer/src/components/VirtualGrid.js';
import type { TransactionSummary } from '../protocol.js';
import { type ColumnLayout, widthOf } from './column-layout.js';
import { type Column, type Span, spanOf } from './columns.js';
import { statusTone } from './format.js';

const rowKey = (tx: TransactionSummary) => tx.id;
const rowClassName = (tx: TransactionSummary) => `net-row tone-${statusTone(tx)}`;
const rowAttributes = (tx: TransactionSummary) => ({ 'data-state': tx.state });

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
  onSort,
  onResize,
  onHeaderMenu,
}: {
  rows: readonly TransactionSummary[];
  /** The waterfall's time range (the overview's zoom); the rows' own span when absent. */
  span?: Span;
  columns: Column[];
  layout: ColumnLayout;
  selectedId?: string;
  onSelect(id: string | undefined): void;
  onOpen?(id: string): void;
  onSort?(id: string): void;
  onResize?(id: string, width: number): void;
  onHeaderMenu?(x: number, y: number): void;
}) {
  const span = useMemo(() => zoom ?? spanOf(rows), [rows, zoom]);
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const shown = useMemo(() => fitColumns(columns, layout, width), [columns, layout, width]);
  const gridColumns = useMemo(
    (): GridColumn<TransactionSummary>[] =>
      shown.map((c) => ({
        id: c.id,
        title: c.title,
        width: c.id === 'url' ? c.minWidth : widthOf(layout, c),
        minWidth: c.minWidth,
        align: c.align,
        sortable: c.compare !== undefined,
        cell: (tx) => c.cell(tx, span),
        tooltip: c.tooltip,
      })),
    [shown, layout, span],
  );
  const template = gridColumns.map((c) => (c.id === 'url' ? `minmax(${c.width}px, 1fr)` : `${c.width}px`)).join(' ');
  const hidden = columns.length - shown.length;
  return (
    <div ref={box} className="net-table" data-hidden-columns={hidden || undefined}>
      <VirtualGrid
        label="Requests"
        testId="network-table"
        rowTestId="network-row"
        rows={rows}
        rowKey={rowKey}
        rowClassName={rowClassName}
        rowAttributes={rowAttributes}
        columns={gridColumns}
        template={template}
        selectedKey={selectedId}
        onSelect={onSelect}
        onOpen={onOpen}
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
