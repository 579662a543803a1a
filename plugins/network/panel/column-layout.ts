import { useCallback, useState } from 'react';
import type { TransactionSummary } from '../protocol.js';
import { COLUMNS, type Column, DEFAULT_VISIBLE } from './columns.js';
import type { RowOrder } from './model.js';

export interface Sort {
  id: string;
  dir: 'asc' | 'desc';
}

/** Which columns show, how wide, and the sort: remembered across sessions and restarts. */
export interface ColumnLayout {
  visible: string[];
  widths: Record<string, number>;
  sort?: Sort;
}

const KEY = 'porthole.network.columns';
const DEFAULT_LAYOUT: ColumnLayout = { visible: DEFAULT_VISIBLE, widths: {} };

function read(): ColumnLayout {
  try {
    const raw = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? 'null') as Partial<ColumnLayout> | null;
    if (!raw || !Array.isArray(raw.visible)) return DEFAULT_LAYOUT;
    const visible = raw.visible.filter((id) => COLUMNS.some((c) => c.id === id));
    return {
      visible: visible.length > 0 ? visible : DEFAULT_VISIBLE,
      widths: typeof raw.widths === 'object' && raw.widths ? raw.widths : {},
      sort: raw.sort && COLUMNS.some((c) => c.id === raw.sort?.id) ? raw.sort : undefined,
    };
  } catch {
    return DEFAULT_LAYOUT;
  }
}

/** Next sort on a header click: ascending, descending, then back to arrival order. */
export function nextSort(current: Sort | undefined, id: string): Sort | undefined {
  if (current?.id !== id) return { id, dir: 'asc' };
  return current.dir === 'asc' ? { id, dir: 'desc' } : undefined;
}

/** The model's row order for a sort (arrival order breaks ties, so the order is stable). */
export function orderOf(sort: Sort | undefined): RowOrder | undefined {
  const compare = sort && COLUMNS.find((c) => c.id === sort.id)?.compare;
  if (!sort || !compare) return undefined;
  const sign = sort.dir === 'asc' ? 1 : -1;
  return {
    key: `${sort.id}:${sort.dir}`,
    compare: (a: TransactionSummary, b: TransactionSummary) => sign * compare(a, b) || a.seq - b.seq,
  };
}

export function widthOf(layout: ColumnLayout, column: Column): number {
  return Math.max(column.minWidth, layout.widths[column.id] ?? column.width);
}

export function useColumnLayout() {
  const [layout, setLayout] = useState<ColumnLayout>(read);
  const update = useCallback((change: (l: ColumnLayout) => ColumnLayout) => {
    setLayout((l) => {
      const next = change(l);
      try {
        globalThis.localStorage?.setItem(KEY, JSON.stringify(next));
      } catch {
        // not remembered across reloads; it still applies now
      }
      return next;
    });
  }, []);
  return {
    layout,
    columns: COLUMNS.filter((c) => layout.visible.includes(c.id)),
    toggle: (id: string) =>
      update((l) => {
        const on = l.visible.includes(id);
        if (on && l.visible.length === 1) return l;
        const visible = on
          ? l.visible.filter((v) => v !== id)
          : COLUMNS.map((c) => c.id).filter((c) => c === id || l.visible.includes(c));
        return { ...l, visible };
      }),
    resize: (id: string, width: number) => update((l) => ({ ...l, widths: { ...l.widths, [id]: Math.round(width) } })),
    sortBy: (id: string) => update((l) => ({ ...l, sort: nextSort(l.sort, id) })),
    reset: () => update(() => DEFAULT_LAYOUT),
  };
}
