import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useEffect, useRef } from 'react';
import type { TransactionSummary } from '../protocol.js';
import { formatBytes, formatDuration, shortType, splitUrl, statusLabel, statusTone } from './format.js';

const ROW_HEIGHT = 24;

/**
 * The transactions as a virtualized table: only the rows in view are in the DOM, so 100,000 scroll
 * as smoothly as 100. Follows the newest row while scrolled to the bottom. Up/Down/Home/End move.
 */
export function TransactionTable({
  rows,
  selectedId,
  onSelect,
}: {
  rows: readonly TransactionSummary[];
  selectedId?: string;
  onSelect(id: string | undefined): void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
  });

  useEffect(() => {
    if (atBottom.current && rows.length > 0) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [rows.length, virtualizer]);

  const selectedIndex = selectedId === undefined ? -1 : rows.findIndex((r) => r.id === selectedId);

  const onKeyDown = (e: KeyboardEvent) => {
    const last = rows.length - 1;
    let next: number | undefined;
    if (e.key === 'ArrowDown') next = Math.min(last, selectedIndex + 1);
    else if (e.key === 'ArrowUp') next = Math.max(0, selectedIndex < 0 ? last : selectedIndex - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = last;
    else if (e.key === 'Escape') return onSelect(undefined);
    if (next === undefined || next < 0) return;
    e.preventDefault();
    atBottom.current = next === last;
    onSelect(rows[next]!.id);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  return (
    <div className="net-table" data-testid="network-table">
      <div className="net-row net-head" aria-hidden="true">
        <span>Status</span>
        <span>Method</span>
        <span>URL</span>
        <span>Type</span>
        <span className="num">Size</span>
        <span className="num">Time</span>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a virtualized grid cannot be a <table> */}
      <div
        ref={scrollRef}
        className="net-body"
        role="grid"
        aria-label="Requests"
        aria-rowcount={rows.length}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onScroll={(e) => {
          const el = e.currentTarget;
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < ROW_HEIGHT * 2;
        }}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const tx = rows[item.index]!;
            const { path, origin } = splitUrl(tx.url);
            const tone = statusTone(tx);
            return (
              // biome-ignore lint/a11y/useFocusableInteractive: the grid takes focus; arrows move the selection
              // biome-ignore lint/a11y/useSemanticElements: virtualized rows are positioned divs, not <tr>
              // biome-ignore lint/a11y/useKeyWithClickEvents: the grid's onKeyDown handles the keyboard
              <div
                key={tx.id}
                role="row"
                aria-rowindex={item.index + 1}
                aria-selected={tx.id === selectedId}
                data-testid="network-row"
                data-state={tx.state}
                className={`net-row tone-${tone}`}
                style={{ transform: `translateY(${item.start}px)` }}
                onClick={() => onSelect(tx.id)}
              >
                <span className="net-status">
                  {statusLabel(tx)}
                  {tx.mockRuleId && (
                    <span className="badge accent" title={`Answered by mock rule ${tx.mockRuleId}`}>
                      mock
                    </span>
                  )}
                </span>
                <span>{tx.method}</span>
                <span className="net-url" title={tx.url}>
                  {path} <span className="muted">{origin}</span>
                </span>
                <span className="muted">{shortType(tx.responseType)}</span>
                <span className="num">{formatBytes(tx.responseSize)}</span>
                <span className="num">{tx.state === 'pending' ? '…' : formatDuration(tx.durationMs)}</span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
