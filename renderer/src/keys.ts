import type { KeyboardEvent } from 'react';

/**
 * A detail pane's keydown handler: Escape closes it and puts the focus back on `returnTo` (its
 * list), unless something inside (a suggestion list, a menu) already used that Escape.
 */
export function closeOnEscape(close: () => void, returnTo?: string) {
  return (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    e.preventDefault();
    e.stopPropagation();
    close();
    if (returnTo) document.querySelector<HTMLElement>(returnTo)?.focus();
  };
}
