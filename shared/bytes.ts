/** The chunks as one array: the chunk itself when there is only one. */
export function concatBytes(
  chunks: readonly Uint8Array[],
  size = chunks.reduce((n, c) => n + c.byteLength, 0),
): Uint8Array {
  if (chunks.length === 1 && chunks[0]!.byteLength === size) return chunks[0]!;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

type Base64Bytes = Uint8Array & { toBase64?: () => string };
const NodeBuffer = (
  globalThis as { Buffer?: { from(b: ArrayBuffer, o: number, l: number): { toString(e: string): string } } }
).Buffer;

/** Base64 of bytes: the runtime's native encoder where there is one (Node's Buffer, toBase64). */
export function bytesToBase64(bytes: Uint8Array): string {
  if (NodeBuffer)
    return NodeBuffer.from(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  if (typeof (bytes as Base64Bytes).toBase64 === 'function') return (bytes as Base64Bytes).toBase64!();
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) {
    binary += String.fromCharCode(...bytes.subarray(i, i + step));
  }
  return btoa(binary);
}
