import { useMemo } from 'react';
import { type GridColumn, VirtualGrid } from '../../../renderer/src/components/VirtualGrid.js';
import type { TransactionSummary } from '../protocol.js';
import { type ColumnLayout, widthOf } from './column-layout.js';
import { type Column, spanOf } from './columns.js';
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
  columns: Column[];
  layout: ColumnLayout;
  selectedId?: string;
  onSelect(id: string | undefined): void;
  onOpen?(id: string): void;
  onSort?(id: string): void;
  onResize?(id: string, width: number): void;
  onHeaderMenu?(x: number, y: number): void;
}) {
  const span = useMemo(() => spanOf(rows), [rows]);
  const gridColumns = useMemo(
    (): GridColumn<TransactionSummary>[] =>
      columns.map((c) => ({
        id: c.id,
        title: c.title,
        width: widthOf(layout, c),
        minWidth: c.minWidth,
        align: c.align,
        sortable: c.compare !== undefined,
        cell: (tx) => c.cell(tx, span),
        tooltip: c.tooltip,
      })),
    [columns, layout, span],
  );
  const template = gridColumns.map((c) => (c.id === 'url' ? `minmax(${c.width}px, 1fr)` : `${c.width}px`)).join(' ');
  return (
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
  );
}
