import { type KeyboardEvent, type PointerEvent, useRef } from 'react';

/**
 * A vertical splitter between two panes (ARIA window splitter): drag it, or focus it and use
 * Left/Right (Shift for bigger steps), Home/End. `size` is the right pane's width in px.
 */
export function Splitter({
  label,
  size,
  min,
  max,
  onResize,
}: {
  label: string;
  size: number;
  min: number;
  max: number;
  onResize(size: number): void;
}) {
  const drag = useRef<{ x: number; size: number } | undefined>(undefined);
  const clamp = (n: number) => Math.round(Math.max(min, Math.min(max, n)));
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 80 : 16;
    const next =
      e.key === 'ArrowLeft'
        ? size + step
        : e.key === 'ArrowRight'
          ? size - step
          : e.key === 'Home'
            ? max
            : e.key === 'End'
              ? min
              : undefined;
    if (next === undefined) return;
    e.preventDefault();
    onResize(clamp(next));
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable window splitter, not a thematic break
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={size}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      className="splitter"
      onKeyDown={onKeyDown}
      onPointerDown={(e: PointerEvent<HTMLDivElement>) => {
        e.preventDefault();
        e.currentTarget.setPointerCapture(e.pointerId);
        drag.current = { x: e.clientX, size };
      }}
      onPointerMove={(e) => {
        if (drag.current) onResize(clamp(drag.current.size - (e.clientX - drag.current.x)));
      }}
      onPointerUp={() => {
        drag.current = undefined;
      }}
    />
  );
}
