/** The image formats screenshots come in, by their first bytes ("magic numbers"). */
const SIGNATURES: { mime: 'image/png' | 'image/jpeg' | 'image/webp'; name: string; test(b: Uint8Array): boolean }[] = [
  {
    mime: 'image/png',
    name: 'PNG',
    test: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v),
  },
  { mime: 'image/jpeg', name: 'JPEG', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    mime: 'image/webp',
    name: 'WebP',
    test: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP',
  },
];

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

/** The first bytes of base64 text (enough for any signature), or undefined when it is not base64. */
function headOf(base64: string): Uint8Array | undefined {
  const head = base64.slice(0, 24);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(head) || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64.slice(24, 24 + 4096))) {
    return undefined;
  }
  const text = atob(head.replace(/=+$/, '').slice(0, head.length - (head.length % 4)));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/**
 * Why base64 image bytes are not what their MIME type says (a PNG, a JPEG or a WebP), in words for
 * the user; undefined when they are. Only the signature is read: a well-labelled broken image passes.
 */
export function imageMismatch(base64: string, mimeType: string): string | undefined {
  const head = headOf(base64);
  if (!head) return 'its data is not base64';
  const claimed = SIGNATURES.find((s) => s.mime === mimeType);
  if (!claimed) return `${mimeType} is not an image type the inspector shows (PNG, JPEG or WebP)`;
  if (claimed.test(head)) return undefined;
  const actual = SIGNATURES.find((s) => s.test(head));
  return `it is labelled ${mimeType} but its bytes are ${actual ? `a ${actual.name}` : 'not a PNG, JPEG or WebP image'}`;
}
