import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Renders into a fresh container of the happy-dom document; `unmount` cleans up. */
export function render(node: ReactNode): { container: HTMLElement; root: Root; unmount(): void } {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  act(() => root.render(node));
  return {
    container,
    root,
    unmount() {
      act(() => root.unmount());
      container.remove();
    },
  };
}

/** Types into an input, textarea or select the way React notices (the native setter, then an input/change event). */
export function type(element: Element | null, value: string): void {
  if (!element) throw new Error('no element to type into');
  const proto = Object.getPrototypeOf(element) as object;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  act(() => {
    setter?.call(element, value);
    element.dispatchEvent(new Event(element.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }));
  });
}

export function click(element: Element | null): void {
  if (!element) throw new Error('no element to click');
  act(() => (element as HTMLElement).click());
}

export function byLabel(container: HTMLElement, text: string): HTMLElement | null {
  const label = [...container.querySelectorAll('label')].find((l) => l.textContent?.trim().startsWith(text));
  const id = label?.getAttribute('for');
  return id ? container.querySelector(`[id="${id}"]`) : (label?.querySelector('input, select, textarea') ?? null);
}

export function button(container: HTMLElement, name: string): HTMLButtonElement | null {
  return [...container.querySelectorAll('button')].find((b) => b.textContent?.trim() === name) ?? null;
}
