import { type KeyboardEvent, useEffect, useRef } from 'react';
import type { Column } from './columns.js';

/** The columns menu (a button, or right-click on the header): which columns show, and a reset. */
export function ColumnMenu({
  columns,
  visible,
  open,
  at,
  onOpenChange,
  onToggle,
  onReset,
}: {
  columns: Column[];
  visible: string[];
  open: boolean;
  /** Where a right-click opened it; under the button otherwise. */
  at?: { x: number; y: number };
  onOpenChange(open: boolean): void;
  onToggle(id: string): void;
  onReset(): void;
}) {
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[role^="menuitem"]')?.focus();
    const close = (e: MouseEvent) => {
      if (!menu.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) onOpenChange(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open, onOpenChange]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      e.preventDefault();
      items[(to + items.length) % items.length]?.focus();
    };
    if (e.key === 'ArrowDown') move(index + 1);
    else if (e.key === 'ArrowUp') move(index - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(items.length - 1);
    else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onOpenChange(false);
      button.current?.focus();
    } else if (e.key === 'Tab') onOpenChange(false);
  };

  return (
    <div className="menu-anchor">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => onOpenChange(!open)}
        title="Choose the columns (or right-click the table header)"
      >
        Columns
      </button>
      {open && (
        <div
          ref={menu}
          role="menu"
          aria-label="Columns"
          className="menu"
          tabIndex={-1}
          onKeyDown={onKeyDown}
          style={at ? { position: 'fixed', left: at.x, top: at.y, right: 'auto' } : undefined}
        >
          {columns.map((c) => (
            <button
              key={c.id}
              type="button"
              role="menuitemcheckbox"
              aria-checked={visible.includes(c.id)}
              tabIndex={-1}
              onClick={() => onToggle(c.id)}
            >
              <span aria-hidden="true" className="check">
                {visible.includes(c.id) ? '✓' : ''}
              </span>
              {c.title}
            </button>
          ))}
          <hr />
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            onClick={() => {
              onReset();
              onOpenChange(false);
            }}
          >
            <span aria-hidden="true" className="check" />
            Reset columns
          </button>
        </div>
      )}
    </div>
  );
}
