const SHOWN_MS = 2000;
let overlay: HTMLElement | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * Outlines the box around a component's DOM nodes for 2 s, as React DevTools does, in an element of
 * its own at the end of <html> (outside the app's React roots; pointer events pass through).
 * Returns true, or why it could not.
 */
export function highlight(nodes: unknown[], name: string): true | string {
  const doc = (globalThis as { document?: Document }).document;
  if (!doc?.documentElement) return 'no page to highlight in: highlighting is for web pages';
  let top = Infinity;
  let left = Infinity;
  let bottom = -Infinity;
  let right = -Infinity;
  for (const n of nodes) {
    const el = n as Element;
    if (typeof el?.getBoundingClientRect !== 'function') continue;
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    top = Math.min(top, r.top);
    left = Math.min(left, r.left);
    bottom = Math.max(bottom, r.bottom);
    right = Math.max(right, r.right);
  }
  if (top === Infinity) return 'nothing to outline: it renders no visible element';
  overlay ??= doc.createElement('div');
  overlay.setAttribute('data-porthole-highlight', '');
  overlay.setAttribute('aria-hidden', 'true');
  overlay.style.cssText = `position:fixed;z-index:2147483647;pointer-events:none;box-sizing:border-box;top:${top}px;left:${left}px;width:${right - left}px;height:${bottom - top}px;background:rgba(61,142,247,.2);outline:2px solid #3d8ef7;font:12px/1.4 system-ui,sans-serif`;
  overlay.textContent = '';
  const label = doc.createElement('span');
  label.style.cssText = `position:absolute;${top > 22 ? 'bottom:100%' : 'top:100%'};left:0;white-space:nowrap;padding:1px 6px;background:#1d2433;color:#fff;border-radius:3px`;
  label.textContent = `${name} ${Math.round(right - left)}×${Math.round(bottom - top)}`;
  overlay.appendChild(label);
  if (!overlay.isConnected) doc.documentElement.appendChild(overlay);
  clearTimeout(timer);
  timer = setTimeout(() => overlay?.remove(), SHOWN_MS);
  return true;
}
