import type { Screenshot } from '../../protocol.js';

// ui_screenshot in a page: the DOM rendered to an image (modern-screenshot, loaded on first use) —
// the viewport as scrolled, the whole page, or one element. Large captures are scaled down.

const MAX_PIXELS = 8_000_000;
/** A full page is captured down to this height at most (copying the DOM is the slow part). */
export const MAX_FULL_HEIGHT = 8000;
const JPEG_ABOVE = 2_000_000;

export async function capture(
  doc: Document,
  el: Element | undefined,
  fullPage: boolean,
  overlay: Element | null,
): Promise<Screenshot> {
  const { domToDataUrl } = await import('modern-screenshot');
  const win = doc.defaultView ?? window;
  const root = doc.documentElement;
  const node = el ?? root;
  let width: number;
  let height: number;
  if (el) {
    const rect = el.getBoundingClientRect();
    width = Math.ceil(rect.width);
    height = Math.ceil(rect.height);
  } else if (fullPage) {
    width = Math.max(root.scrollWidth, win.innerWidth);
    height = Math.min(Math.max(root.scrollHeight, win.innerHeight), MAX_FULL_HEIGHT);
  } else {
    width = win.innerWidth;
    height = win.innerHeight;
  }
  width = Math.max(1, width);
  height = Math.max(1, height);
  const scale = Math.min(1, Math.sqrt(MAX_PIXELS / (width * height)));
  const type = width * height * scale * scale > JPEG_ABOVE ? 'image/jpeg' : 'image/png';
  // The viewport only: what lies outside it is not copied (the copy is the slow part on big pages).
  const offset = fullPage ? { x: win.scrollX, y: win.scrollY } : { x: 0, y: 0 };
  const inView = el
    ? undefined
    : (e: Element) => {
        const r = e.getBoundingClientRect();
        const top = r.top + offset.y;
        const left = r.left + offset.x;
        return r.bottom + offset.y >= 0 && r.right + offset.x >= 0 && top <= height && left <= width;
      };
  const background = win.getComputedStyle(doc.body ?? root).backgroundColor;
  const dataUrl = await domToDataUrl(node, {
    width,
    height,
    scale,
    type,
    quality: 0.85,
    backgroundColor: !background || background === 'rgba(0, 0, 0, 0)' ? '#ffffff' : background,
    filter: (n) => n !== overlay && (!inView || n.nodeType !== 1 || inView(n as Element)),
  });
  return {
    base64: dataUrl.slice(dataUrl.indexOf(',') + 1),
    mimeType: dataUrl.startsWith('data:image/jpeg') ? 'image/jpeg' : 'image/png',
    width: Math.round(width * scale),
    height: Math.round(height * scale),
    ...(fullPage && !el && root.scrollHeight > height ? { pageHeight: root.scrollHeight } : {}),
  };
}
