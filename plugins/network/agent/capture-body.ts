import { bytesToBase64 } from '../../../shared/bytes.js';
import type { AttachmentKind } from '../../../shared/protocol/attachment.js';
import { BINARY_TYPE as BINARY, isTextualType } from '../content-type.js';
import type { Body } from '../protocol.js';

export { bytesToBase64 };

// Body capture for the agent: web APIs only (streams, TextDecoder, btoa), so it runs in browsers,
// Node and React Native alike.

export { isTextualType };

/**
 * Turns captured bytes into a Body: text for textual types (or unlabelled valid UTF-8), decoded by
 * the Content-Type's charset; base64 otherwise.
 */
export function encodeBody(
  bytes: Uint8Array,
  truncated: boolean,
  contentType: string | undefined,
  declaredLength?: number,
): Body {
  const type = contentType || undefined;
  const size = bytes.byteLength;
  const totalSize = truncated ? declaredLength : size;
  const kind = classify(type);
  if (kind.textual || (kind.charset && !kind.binary)) {
    const data = decoderFor(kind.charset, truncated).decode(bytes, { stream: truncated });
    return { size, truncated, contentType: type, totalSize, encoding: 'text', data };
  }
  if (!kind.binary) {
    try {
      const strict = truncated
        ? new TextDecoder('utf-8', { fatal: true })
        : (strictUtf8 ??= new TextDecoder('utf-8', { fatal: true }));
      const data = strict.decode(bytes, { stream: truncated });
      return { size, truncated, contentType: type, totalSize, encoding: 'text', data };
    } catch {
      // not UTF-8: fall through to base64
    }
  }
  return { size, truncated, contentType: type, totalSize, encoding: 'base64', data: bytesToBase64(bytes) };
}

interface TypeKind {
  textual: boolean;
  binary: boolean;
  charset: string | undefined;
}
const UNLABELLED: TypeKind = { textual: false, binary: false, charset: undefined };
const kinds = new Map<string, TypeKind>();

/** What a Content-Type says of its body; remembered per type, since an app sends few of them. */
function classify(type: string | undefined): TypeKind {
  if (!type) return UNLABELLED;
  let kind = kinds.get(type);
  if (kind) return kind;
  kind = { textual: isTextualType(type), binary: BINARY.test(type), charset: charsetOf(type) };
  if (kinds.size < 64) kinds.set(type, kind);
  return kind;
}

/**
 * encodeBody() for a body the inspector will encode: the Body with an empty `data` and how the
 * inspector makes `data` from the bytes (attachment.ts) when that gives the same as encodeBody();
 * undefined for text in other charsets and for unlabelled bytes whose UTF-8 cannot be checked here
 * without decoding them (those are encoded here).
 */
export function planBody(
  size: number,
  /** The bytes joined; called only when they must be read (is an unlabelled body UTF-8?). */
  bytes: () => Uint8Array,
  truncated: boolean,
  contentType: string | undefined,
  declaredLength?: number,
): { body: Body; as: AttachmentKind } | undefined {
  const type = contentType || undefined;
  const base = {
    size,
    truncated,
    contentType: type,
    totalSize: truncated ? declaredLength : size,
    data: '',
  };
  const utf8: AttachmentKind = truncated ? 'utf8-prefix' : 'utf8';
  const kind = classify(type);
  if (kind.textual || (kind.charset && !kind.binary)) {
    return decoderFor(kind.charset).encoding === 'utf-8'
      ? { body: { ...base, encoding: 'text' }, as: utf8 }
      : undefined;
  }
  if (!kind.binary) {
    const valid = isUtf8();
    if (!valid) return undefined;
    if (valid(bytes())) return { body: { ...base, encoding: 'text' }, as: utf8 };
    // A cut body may end inside a character and still be UTF-8 as far as it goes: encodeBody() decides.
    if (truncated) return undefined;
  }
  return { body: { ...base, encoding: 'base64' }, as: 'base64' };
}

type IsUtf8 = (bytes: Uint8Array) => boolean;
let utf8Check: IsUtf8 | null | undefined;

/** Node's buffer.isUtf8 (checks without making a string), where the runtime gives it synchronously. */
function isUtf8(): IsUtf8 | undefined {
  if (utf8Check === undefined) {
    const proc = (globalThis as { process?: { getBuiltinModule?(name: string): unknown } }).process;
    const mod = proc?.getBuiltinModule?.('node:buffer') as { isUtf8?: IsUtf8 } | undefined;
    utf8Check = typeof mod?.isUtf8 === 'function' ? mod.isUtf8 : null;
  }
  return utf8Check ?? undefined;
}

/** The charset parameter of a Content-Type, lower-cased; undefined when there is none. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = contentType && /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return match ? match[1]!.toLowerCase() : undefined;
}

const decoders = new Map<string, TextDecoder>();
let strictUtf8: TextDecoder | undefined;

/**
 * The decoder for a charset label (UTF-8 for none or one this runtime does not know, as browsers
 * fall back to). Shared per label, since making one costs more than decoding a small body: a
 * `stream` decode keeps state in its decoder, so it gets a fresh one.
 */
function decoderFor(charset: string | undefined, stream = false): TextDecoder {
  const label = charset ?? 'utf-8';
  const known = stream ? undefined : decoders.get(label);
  if (known) return known;
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  if (!stream && decoders.size < 64) decoders.set(label, decoder);
  return decoder;
}

export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
