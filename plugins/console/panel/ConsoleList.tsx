import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { nextRowIndex } from '../../../renderer/src/components/list-keys.js';
import type { ConsoleRow } from '../protocol.js';
import type { LoadHeader } from './model.js';

const ESTIMATE = 22;

export interface ListItem {
  key: string;
  row?: ConsoleRow;
  /** Nesting depth (console.group). */
  depth: number;
  /** undefined: nothing to open. */
  open?: boolean;
  /** The row is a load's header (its marker, or the one of the messages before the first). */
  load?: LoadHeader;
}

/**
 * The console's messages as DevTools lists them: a virtualized ARIA treegrid (one tab stop), rows
 * as tall as what they show (an opened object, a table, a stack). Up/Down, PageUp/PageDown and
 * Home/End move the selection, Right opens (then steps into a group or load), Left closes (then goes
 * to the group or load), Enter opens the detail, Escape clears. Follows the newest message while at the bottom.
 */
export function ConsoleList({
  items,
  selectedKey,
  onSelect,
  onToggle,
  onOpen,
  renderRow,
}: {
  items: readonly ListItem[];
  selectedKey?: string;
  onSelect(key: string | undefined): void;
  onToggle(key: string, open: boolean): void;
  onOpen(key: string): void;
  renderRow(item: ListItem, selected: boolean): ReactNode;
}) {
  const id = useId();
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATE,
    getItemKey: (i) => items[i]!.key,
    overscan: 12,
  });

  useEffect(() => {
    if (atBottom.current && items.length > 0) virtualizer.scrollToIndex(items.length - 1, { align: 'end' });
  }, [items.length, virtualizer]);

  const selectedIndex = selectedKey === undefined ? -1 : items.findIndex((i) => i.key === selectedKey);

  // A selection made elsewhere (a message opened from the timeline) is scrolled into view once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the selected key changes
  useEffect(() => {
    if (selectedIndex < 0) return;
    atBottom.current = selectedIndex === items.length - 1;
    virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedKey]);

  const select = (index: number) => {
    const item = items[index];
    if (!item) return;
    atBottom.current = index === items.length - 1;
    onSelect(item.key);
    virtualizer.scrollToIndex(index, { align: 'auto' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget) return;
    const last = items.length - 1;
    const page = Math.max(1, Math.floor(e.currentTarget.clientHeight / ESTIMATE) - 1);
    const current = items[selectedIndex];
    const next = nextRowIndex(e.key, selectedIndex, last, page);
    switch (e.key) {
      case 'ArrowRight':
        if (!current || current.open === undefined) return;
        e.preventDefault();
        if (!current.open) onToggle(current.key, true);
        // A group's or a load's first message (an opened object has none below it).
        else if (items[selectedIndex + 1]?.depth === current.depth + 1) select(selectedIndex + 1);
        return;
      case 'ArrowLeft': {
        if (!current) return;
        e.preventDefault();
        if (current.open) return onToggle(current.key, false);
        // The nearest row above one level up is the group or load it is in.
        for (let i = selectedIndex - 1; i >= 0 && current.depth > 0; i--) {
          if (items[i]!.depth === current.depth - 1) return select(i);
        }
        return;
      }
      case 'Enter':
        if (current) {
          e.preventDefault();
          onOpen(current.key);
        }
        return;
      case 'Escape':
        if (current) {
          e.preventDefault();
          e.stopPropagation();
          onSelect(undefined);
        }
        return;
    }
    if (next === undefined || next < 0) return;
    e.preventDefault();
    select(next);
  };

  const virtual = virtualizer.getVirtualItems();
  const activeRendered = virtual.some((v) => v.index === selectedIndex);
  return (
    <div
      ref={scrollRef}
      className="con-list"
      data-testid="console-list"
      role="treegrid"
      aria-label="Console messages"
      aria-rowcount={items.length}
      aria-colcount={1}
      aria-activedescendant={activeRendered ? `${id}-r${selectedIndex}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < ESTIMATE * 2;
      }}
    >
      {/* biome-ignore lint/a11y/useSemanticElements: the tree grid's rows */}
      <div role="rowgroup" className="con-rows" style={{ height: virtualizer.getTotalSize() }}>
        {virtual.map((v) => {
          const item = items[v.index]!;
          const selected = item.key === selectedKey;
          return (
            // biome-ignore lint/a11y/useFocusableInteractive: the tree grid takes focus; arrows move the selection
            // biome-ignore lint/a11y/useSemanticElements: virtualized rows are positioned divs
            // biome-ignore lint/a11y/useKeyWithClickEvents: the tree grid's onKeyDown handles the keyboard
            <div
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={v.index}
              id={`${id}-r${v.index}`}
              role="row"
              aria-rowindex={v.index + 1}
              aria-level={item.depth + 1}
              aria-expanded={item.open}
              aria-selected={selected}
              className="con-item"
              style={{ transform: `translateY(${v.start}px)` }}
              onClick={(e) => {
                onSelect(item.key);
                if (!(e.target as HTMLElement).closest('a,button,input,select,textarea,summary'))
                  scrollRef.current?.focus({ preventScroll: true });
              }}
            >
              {renderRow(item, selected)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
