import { cut } from './aria.js';

// The window's "inspect" highlight: a box over one element with its role, name and size, drawn in
// a shadow root of its own (the page's styles do not reach it) that the outline never shows.

export class Highlighter {
  private host: HTMLElement | null = null;
  private box: HTMLElement | null = null;
  private label: HTMLElement | null = null;

  constructor(private readonly doc: Document) {}

  get element(): Element | null {
    return this.host;
  }

  show(el: Element | undefined, caption: string): void {
    if (!el?.isConnected) {
      this.hide();
      return;
    }
    const rect = el.getBoundingClientRect();
    const frame = el.ownerDocument.defaultView?.frameElement?.getBoundingClientRect();
    const left = rect.left + (frame?.left ?? 0);
    const top = rect.top + (frame?.top ?? 0);
    if (!this.host) this.build();
    const box = this.box!;
    Object.assign(box.style, {
      left: `${left}px`,
      top: `${top}px`,
      width: `${rect.width}px`,
      height: `${rect.height}px`,
    });
    this.label!.textContent = `${cut(caption, 80)}  ${Math.round(rect.width)}×${Math.round(rect.height)}`;
    Object.assign(this.label!.style, {
      left: `${Math.max(0, left)}px`,
      top: `${top > 24 ? top - 22 : top + rect.height + 2}px`,
    });
    if (!this.host!.isConnected) this.doc.documentElement.appendChild(this.host!);
  }

  hide(): void {
    this.host?.remove();
  }

  private build(): void {
    const host = this.doc.createElement('porthole-highlight');
    host.setAttribute('aria-hidden', 'true');
    host.style.cssText = 'all: initial; position: fixed; inset: 0; pointer-events: none; z-index: 2147483647;';
    const root = host.attachShadow({ mode: 'open' });
    const box = this.doc.createElement('div');
    box.className = 'box';
    box.style.cssText =
      'position: fixed; background: rgba(111, 168, 220, 0.45); outline: 1px solid rgb(42, 112, 196); box-sizing: border-box;';
    const label = this.doc.createElement('div');
    label.style.cssText =
      'position: fixed; font: 12px/18px system-ui, sans-serif; padding: 1px 6px; border-radius: 3px; background: #1d2433; color: #fff; white-space: nowrap;';
    root.append(box, label);
    this.host = host;
    this.box = box;
    this.label = label;
  }
}
