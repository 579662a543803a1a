import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
} from 'react';
import { nextRowIndex } from './list-keys.js';

export const ROW_HEIGHT = 24;
const HEADER_HEIGHT = 26;

export interface GridColumn<T> {
  id: string;
  title: string;
  /** px; the grid's template decides how it is laid out. */
  width: number;
  minWidth: number;
  align?: 'right';
  sortable?: boolean;
  cell(row: T): ReactNode;
  tooltip?(row: T): string | undefined;
}

export interface GridSort {
  id: string;
  dir: 'asc' | 'desc';
}

/**
 * A virtualized ARIA grid: only the rows in view are in the DOM, so 100,000 scroll as smoothly as
 * 100. One tab stop (the grid; its sort buttons aside); arrows, PageUp/PageDown and Home/End move
 * the selection, Enter opens it, Escape clears it (and only then stops there). With `followTail`
 * it follows the newest row while scrolled to the bottom; rows that leave the top (dropped, or
 * another order) never move a scrolled-up view.
 */
export function VirtualGrid<T>({
  label,
  rows,
  rowKey,
  columns,
  template,
  selectedKey,
  onSelect,
  onOpen,
  rowClassName,
  rowAttributes,
  followTail = false,
  spanRow,
  expanded,
  onExpand,
  sort,
  onSort,
  onResize,
  onHeaderMenu,
  testId,
  rowTestId,
}: {
  label: string;
  rows: readonly T[];
  rowKey(row: T): string;
  columns: GridColumn<T>[];
  /** CSS grid-template-columns for the header and every row. */
  template: string;
  selectedKey?: string;
  onSelect(key: string | undefined): void;
  onOpen?(key: string): void;
  rowClassName?(row: T): string;
  rowAttributes?(row: T): Record<`data-${string}`, string>;
  followTail?: boolean;
  /** A row shown as one cell across every column (a section's header), or undefined for an ordinary row. */
  spanRow?(row: T): ReactNode | undefined;
  /**
   * Whether a row is open (its section shown), undefined for rows that do not open. Only for the
   * keys: a grid's rows cannot carry aria-expanded (a treegrid's can), so the row says it in its text.
   */
  expanded?(row: T): boolean | undefined;
  /** Right opens the selected row, Left closes it (rows `expanded` says open). */
  onExpand?(key: string, open: boolean): void;
  sort?: GridSort;
  onSort?(id: string): void;
  onResize?(id: string, width: number): void;
  onHeaderMenu?(x: number, y: number): void;
  testId?: string;
  rowTestId?: string | ((row: T) => string);
}) {
  const gridId = useId();
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(followTail);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
    scrollMargin: HEADER_HEIGHT,
    // The sticky header covers the top of the viewport: a row scrolled to "start" (PageUp, Up, Home)
    // lands below it, never under it.
    scrollPaddingStart: HEADER_HEIGHT,
  });

  const previous = useRef<readonly T[]>(rows);
  useLayoutEffect(() => {
    const before = previous.current;
    previous.current = rows;
    const el = scrollRef.current;
    if (!el || atBottom.current || before === rows || before[0] === rows[0] || el.scrollTop === 0) return;
    const topIndex = Math.floor(el.scrollTop / ROW_HEIGHT);
    const anchor = before[topIndex];
    if (anchor === undefined) return;
    const now = rows.indexOf(anchor);
    if (now >= 0 && now !== topIndex) el.scrollTop += (now - topIndex) * ROW_HEIGHT;
  }, [rows]);

  useEffect(() => {
    if (followTail && atBottom.current && rows.length > 0) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [followTail, rows.length, virtualizer]);

  const selectedIndex = useMemo(
    () => (selectedKey === undefined ? -1 : rows.findIndex((r) => rowKey(r) === selectedKey)),
    [rows, rowKey, selectedKey],
  );

  // A selection made elsewhere (a row opened from the timeline) is scrolled into view once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the selected key changes
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedKey]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget) return;
    const last = rows.length - 1;
    const page = Math.max(1, Math.floor((e.currentTarget.clientHeight - HEADER_HEIGHT) / ROW_HEIGHT) - 1);
    const next = nextRowIndex(e.key, selectedIndex, last, page);
    switch (e.key) {
      case 'Enter':
        if (selectedKey !== undefined && onOpen) {
          e.preventDefault();
          onOpen(selectedKey);
        }
        return;
      case 'Escape':
        if (selectedKey !== undefined) {
          e.preventDefault();
          e.stopPropagation();
          onSelect(undefined);
        }
        return;
      case 'ArrowRight':
      case 'ArrowLeft': {
        const row = rows[selectedIndex];
        const open = row === undefined ? undefined : expanded?.(row);
        if (open === undefined || !onExpand) return;
        e.preventDefault();
        if (open !== (e.key === 'ArrowRight')) onExpand(rowKey(row!), !open);
        return;
      }
    }
    if (next === undefined || next < 0) return;
    e.preventDefault();
    atBottom.current = followTail && next === last;
    onSelect(rowKey(rows[next]!));
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const items = virtualizer.getVirtualItems();
  const activeRendered = items.some((i) => i.index === selectedIndex);

  return (
    // biome-ignore lint/a11y/useSemanticElements: a virtualized grid cannot be a <table>
    <div
      ref={scrollRef}
      className="vgrid"
      data-testid={testId}
      role="grid"
      aria-label={label}
      aria-rowcount={rows.length + 1}
      aria-colcount={columns.length}
      aria-activedescendant={activeRendered ? `${gridId}-r${selectedIndex}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      style={
        {
          '--grid-cols': template,
          '--grid-min': `${columns.reduce((sum, c) => sum + c.width, 0) + 8 * (columns.length - 1) + 20}px`,
        } as CSSProperties
      }
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = followTail && el.scrollHeight - el.scrollTop - el.clientHeight < ROW_HEIGHT * 2;
      }}
    >
      {/* biome-ignore lint/a11y/useSemanticElements: the grid's header row group */}
      <div role="rowgroup" className="vgrid-head">
        {/* biome-ignore lint/a11y/useSemanticElements: an ARIA grid row */}
        {/* biome-ignore lint/a11y/useFocusableInteractive: the grid holds the focus */}
        <div
          role="row"
          aria-rowindex={1}
          className="vgrid-row"
          onContextMenu={(e) => {
            if (!onHeaderMenu) return;
            e.preventDefault();
            onHeaderMenu(e.clientX, e.clientY);
          }}
        >
          {columns.map((c, i) => (
            <HeaderCell key={c.id} column={c} index={i} sort={sort} onSort={onSort} onResize={onResize} />
          ))}
        </div>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: the grid's body row group */}
      <div role="rowgroup" className="vgrid-rows" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const row = rows[item.index]!;
          const key = rowKey(row);
          const span = spanRow?.(row);
          return (
            // biome-ignore lint/a11y/useFocusableInteractive: the grid takes focus; arrows move the selection
            // biome-ignore lint/a11y/useSemanticElements: virtualized rows are positioned divs, not <tr>
            // biome-ignore lint/a11y/useKeyWithClickEvents: the grid's onKeyDown handles the keyboard
            <div
              key={key}
              id={`${gridId}-r${item.index}`}
              role="row"
              aria-rowindex={item.index + 2}
              aria-selected={key === selectedKey}
              data-testid={typeof rowTestId === 'function' ? rowTestId(row) : rowTestId}
              {...rowAttributes?.(row)}
              className={`vgrid-row ${rowClassName?.(row) ?? ''}`}
              style={{ transform: `translateY(${item.start - HEADER_HEIGHT}px)` }}
              onClick={() => {
                onSelect(key);
                scrollRef.current?.focus({ preventScroll: true });
              }}
            >
              {span !== undefined ? (
                // biome-ignore lint/a11y/useSemanticElements: an ARIA grid cell
                // biome-ignore lint/a11y/useFocusableInteractive: the grid holds the focus
                <div role="gridcell" aria-colindex={1} aria-colspan={columns.length} className="vgrid-span">
                  {span}
                </div>
              ) : (
                columns.map((c, i) => (
                  // biome-ignore lint/a11y/useSemanticElements: an ARIA grid cell
                  // biome-ignore lint/a11y/useFocusableInteractive: the grid holds the focus
                  <div
                    key={c.id}
                    role="gridcell"
                    aria-colindex={i + 1}
                    className={`${c.align === 'right' ? 'num ' : ''}col-${c.id}`}
                    title={c.tooltip?.(row)}
                  >
                    {c.cell(row)}
                  </div>
                ))
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function HeaderCell<T>({
  column,
  index,
  sort,
  onSort,
  onResize,
}: {
  column: GridColumn<T>;
  index: number;
  sort?: GridSort;
  onSort?(id: string): void;
  onResize?(id: string, width: number): void;
}) {
  const sorted = sort?.id === column.id ? sort.dir : undefined;
  const drag = useRef<{ x: number; width: number } | undefined>(undefined);
  const onPointerDown = (e: PointerEvent<HTMLSpanElement>) => {
    e.preventDefault();
    e.stopPropagation();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = {
      x: e.clientX,
      width: e.currentTarget.parentElement?.getBoundingClientRect().width ?? column.width,
    };
  };
  const onPointerMove = (e: PointerEvent<HTMLSpanElement>) => {
    if (!drag.current) return;
    onResize?.(column.id, Math.max(column.minWidth, drag.current.width + e.clientX - drag.current.x));
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: an ARIA grid column header
    // biome-ignore lint/a11y/useFocusableInteractive: its sort button takes the focus
    <div
      role="columnheader"
      aria-colindex={index + 1}
      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
      className={`${column.align === 'right' ? 'num ' : ''}col-${column.id}`}
    >
      {column.sortable && onSort ? (
        <button
          type="button"
          className="col-sort"
          onClick={() => onSort(column.id)}
          title={`Sort by ${column.title.toLowerCase()}`}
        >
          {column.title}
          <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}</span>
        </button>
      ) : (
        <span className="col-title">{column.title}</span>
      )}
      {onResize && (
        <span
          className="col-resize"
          aria-hidden="true"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={() => {
            drag.current = undefined;
          }}
          onClick={(e) => e.stopPropagation()}
        />
      )}
    </div>
  );
}
