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
