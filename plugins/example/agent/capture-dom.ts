import { RequestError } from '../../../shared/protocol/request-error.js';
import type { Screenshot } from '../protocol.js';

// The page's DOM as a PNG (modern-screenshot), loaded on the first captureScreenshot.

export async function captureDom(): Promise<Screenshot> {
  const doc = (globalThis as { document?: Document }).document;
  if (!doc?.documentElement) {
    throw new RequestError(
      'handler-error',
      'this app cannot capture screenshots: it has no DOM; give example({ captureScreenshot }) a function that returns { base64, mimeType }',
    );
  }
  const { domToPng } = await import('modern-screenshot');
  const root = doc.documentElement;
  const width = Math.max(1, Math.min(root.scrollWidth, 4096));
  const height = Math.max(1, Math.min(root.clientHeight || root.scrollHeight, 4096));
  const dataUrl = await domToPng(root, { width, height, backgroundColor: '#ffffff' });
  return { base64: dataUrl.slice(dataUrl.indexOf(',') + 1), mimeType: 'image/png', width, height };
}
