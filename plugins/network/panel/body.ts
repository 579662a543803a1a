import type { Body } from '../protocol.js';

export type BodyView =
  | { kind: 'empty' }
  | { kind: 'json'; value: unknown; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'image'; src: string; mime: string }
  | { kind: 'binary'; bytes: Uint8Array };

const HEX_LIMIT = 4096;

/** How a captured body is best shown: a JSON tree, an image, text, or a hex dump. */
export function viewOf(body: Body | undefined, contentType?: string): BodyView {
  if (!body || body.size === 0) return { kind: 'empty' };
  const mime = (body.contentType ?? contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (body.encoding === 'base64') {
    if (mime.startsWith('image/') && !body.truncated)
      return { kind: 'image', src: `data:${mime};base64,${body.data}`, mime };
    return { kind: 'binary', bytes: base64Bytes(body.data, HEX_LIMIT) };
  }
  const t = body.data.trimStart();
  if (mime.includes('json') || ((t.startsWith('{') || t.startsWith('[')) && !body.truncated)) {
    try {
      return { kind: 'json', value: JSON.parse(body.data), text: body.data };
    } catch {
      // a truncated or broken JSON body is shown as text
    }
  }
  return { kind: 'text', text: body.data };
}

/** Decodes at most `limit` bytes of base64. */
export function base64Bytes(base64: string, limit = Number.POSITIVE_INFINITY): Uint8Array {
  const chars = Math.min(base64.length, Math.ceil(limit / 3) * 4);
  const binary = atob(base64.slice(0, chars - (chars % 4)));
  const bytes = new Uint8Array(Math.min(binary.length, limit));
  for (let i = 0; i < bytes.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Classic hex dump lines: offset, 16 bytes in hex, and their printable ASCII. */
export function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let offset = 0; offset < bytes.length; offset += 16) {
    const chunk = bytes.subarray(offset, offset + 16);
    const hex = [...chunk].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = [...chunk].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  ${ascii}`);
  }
  return lines.join('\n');
}
