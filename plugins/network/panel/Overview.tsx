import { type KeyboardEvent, type PointerEvent, useMemo, useRef } from 'react';
import { formatClock } from '../../../renderer/src/time.js';
import type { TransactionSummary } from '../protocol.js';
import { endOf, type Span } from './columns.js';
import { formatDuration } from './format.js';

const BINS = 240;
const HEIGHT = 36;

/** Requests started per slice of `span` (all, failed), for the overview's bars. */
export function histogram(rows: readonly TransactionSummary[], span: Span, bins = BINS) {
  const all = new Uint32Array(bins);
  const failed = new Uint32Array(bins);
  const width = span.end - span.start;
  for (const tx of rows) {
    const i = Math.min(bins - 1, Math.max(0, Math.floor(((tx.startedAt - span.start) / width) * bins)));
    all[i]!++;
    if (tx.state === 'failed' || (tx.status ?? 0) >= 400) failed[i]!++;
  }
  return { all, failed };
}

/** The rows that overlap `range` (a request that runs across its start is in). */
export function inRange(rows: readonly TransactionSummary[], range: Span, now = Date.now()): TransactionSummary[] {
  return rows.filter((tx) => tx.startedAt <= range.end && endOf(tx, now) >= range.start);
}

/**
 * DevTools' overview above the requests: how many started when, across the whole span; dragging
 * over it (or the two handles' arrow keys) picks a time range that the table and its waterfall
 * zoom to. Escape or "Reset zoom" shows everything again.
 */
export function Overview({
  rows,
  span,
  range,
  onRange,
}: {
  rows: readonly TransactionSummary[];
  span: Span;
  range?: Span;
  onRange(range: Span | undefined): void;
}) {
  const { all, failed } = useMemo(() => histogram(rows, span), [rows, span]);
  const peak = useMemo(() => Math.max(1, ...all), [all]);
  const box = useRef<HTMLDivElement>(null);
  const drag = useRef<{ from: number } | undefined>(undefined);
  const width = span.end - span.start;
  const at = (clientX: number) => {
    const r = box.current!.getBoundingClientRect();
    return span.start + (Math.min(Math.max(clientX - r.left, 0), r.width) / r.width) * width;
  };
  const pick = (a: number, b: number) => {
    const start = Math.min(a, b);
    const end = Math.max(a, b);
    onRange(end - start < width / 500 ? undefined : { start, end });
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { from: at(e.clientX) };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current) pick(drag.current.from, at(e.clientX));
  };
  const onPointerUp = () => {
    drag.current = undefined;
  };
  const shown = range ?? span;
  const pct = (t: number) => ((t - span.start) / width) * 100;
  const handleKeys = (edge: 'start' | 'end') => (e: KeyboardEvent<HTMLDivElement>) => {
    const step = (e.shiftKey ? 0.1 : 0.01) * width;
    let delta = 0;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowDown') delta = -step;
    else if (e.key === 'ArrowRight' || e.key === 'ArrowUp') delta = step;
    else if (e.key === 'Home') delta = span.start - shown[edge];
    else if (e.key === 'End') delta = span.end - shown[edge];
    else if (e.key === 'Escape' && range) {
      e.preventDefault();
      e.stopPropagation();
      onRange(undefined);
      return;
    } else return;
    e.preventDefault();
    const next = { ...shown };
    next[edge] = Math.min(span.end, Math.max(span.start, shown[edge] + delta));
    if (next.end - next.start < width / 200) return;
    onRange(next.start <= span.start && next.end >= span.end ? undefined : next);
  };
  const valueText = (t: number) => `${formatClock(t)} (+${formatDuration(t - span.start)})`;

  return (
    <div className="net-overview" data-testid="network-overview">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the handles below are the keyboard's way */}
      <div
        ref={box}
        className="net-overview-plot"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onDoubleClick={() => onRange(undefined)}
        title="Drag to zoom the table to a time range; double-click to show all"
      >
        <svg viewBox={`0 0 ${BINS} ${HEIGHT}`} preserveAspectRatio="none" aria-hidden="true">
          {Array.from(all, (n, i) =>
            n === 0 ? null : (
              // biome-ignore lint/suspicious/noArrayIndexKey: a bin is its index
              <g key={i}>
                <rect
                  className="ov-all"
                  x={i}
                  width={0.9}
                  y={HEIGHT - (n / peak) * HEIGHT}
                  height={(n / peak) * HEIGHT}
                />
                {failed[i]! > 0 && (
                  <rect
                    className="ov-failed"
                    x={i}
                    width={0.9}
                    y={HEIGHT - (failed[i]! / peak) * HEIGHT}
                    height={(failed[i]! / peak) * HEIGHT}
                  />
                )}
              </g>
            ),
          )}
        </svg>
        {range && (
          <>
            <div className="ov-shade" style={{ left: 0, width: `${pct(range.start)}%` }} />
            <div className="ov-shade" style={{ left: `${pct(range.end)}%`, right: 0 }} />
            <div
              className="ov-brush"
              style={{ left: `${pct(range.start)}%`, width: `${pct(range.end) - pct(range.start)}%` }}
            />
          </>
        )}
        {(['start', 'end'] as const).map((edge) => (
          <div
            key={edge}
            className={`ov-handle ov-${edge}`}
            role="slider"
            tabIndex={0}
            aria-label={edge === 'start' ? 'Zoom from' : 'Zoom to'}
            aria-valuemin={span.start}
            aria-valuemax={span.end}
            aria-valuenow={shown[edge]}
            aria-valuetext={valueText(shown[edge])}
            style={{ left: `${pct(shown[edge])}%` }}
            onKeyDown={handleKeys(edge)}
          />
        ))}
      </div>
      <div className="net-overview-info small">
        {range ? (
          <>
            <span data-testid="network-zoom">
              {formatClock(range.start)} – {formatClock(range.end)} ({formatDuration(range.end - range.start)})
            </span>
            <button type="button" className="link" onClick={() => onRange(undefined)}>
              Reset zoom
            </button>
          </>
        ) : (
          <span className="muted">
            {formatDuration(width)} · {rows.length.toLocaleString()} requests
          </span>
        )}
      </div>
    </div>
  );
}
