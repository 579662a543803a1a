import type { Attached } from '../../../shared/protocol/attachment.js';
import type { Body } from '../protocol.js';

export { inPage } from '../../../agent/in-page.js';

// A page's large text bodies (an XHR's responseText): the UTF-8 goes as a Blob the browser makes,
// for the page's socket, so the text is neither escaped into JSON nor sent as a string by the page.
// React Native has no such page (text-parts.native.ts).

/** The Body with its text moved into an attachment at `body.data`. */
export function textParts(body: Body | undefined): { body: Body; attached?: Attached } | undefined {
  if (!body) return undefined;
  const text = body.data;
  const blob = blobOfText(text);
  const attached = { path: ['body', 'data'], as: 'utf8' as const, chunks: [], size: blob.size, blob, text };
  return { body: { ...body, data: '' }, attached };
}

let scratch: Uint8Array<ArrayBuffer> | undefined;
/**
 * A Blob of the text's UTF-8, encoded into memory kept for the next text: in Chromium, a Blob of the
 * string itself took 36 ms per MiB of the page's thread, of freshly encoded bytes 25, this 10.
 */
function blobOfText(text: string): Blob {
  const most = text.length * 3;
  if (!scratch || scratch.byteLength < most) scratch = new Uint8Array(most);
  const { written } = new TextEncoder().encodeInto(text, scratch);
  return new Blob([scratch.subarray(0, written)]);
}
