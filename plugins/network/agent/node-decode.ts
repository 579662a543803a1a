import { concatBytes } from '../../../shared/bytes.js';
import type { NodeZlib, NodeZlibStream } from './node-builtins.js';

// Undoing Content-Encoding for the stored body, in zlib's thread pool (off the app's thread): the
// app's code got the decoded body from its client, so that is what the capture shows. Output stops
// at the cap; a body cut at the cap decodes as far as its bytes go.

export type Decoder = (bytes: Uint8Array, encoding: string, maxBytes: number) => Promise<DecodeResult | undefined>;

export interface DecodeResult {
  bytes: Uint8Array;
  /** The decoded body goes on past the cap, or its encoded bytes were cut. */
  cut: boolean;
}

export function zlibDecoder(zlib: NodeZlib): Decoder {
  const one = decodeOne(zlib);
  return async (bytes, encoding, maxBytes) => {
    const codings = encoding
      .toLowerCase()
      .split(',')
      .map((c) => c.trim())
      .filter((c) => c && c !== 'identity');
    if (codings.length === 0 || codings.length > 4) return undefined;
    // Stacked codings (`gzip, br`) were applied in order: undone last first. Any layer that cannot
    // be undone leaves the body as it came (the caller keeps its bytes and names the coding).
    let result: DecodeResult = { bytes, cut: false };
    for (let i = codings.length - 1; i >= 0; i--) {
      const layer = await one(result.bytes, codings[i]!, maxBytes);
      if (!layer || (layer.cut && i > 0)) return undefined;
      result = { bytes: layer.bytes, cut: result.cut || layer.cut };
    }
    return result;
  };
}

function decodeOne(zlib: NodeZlib) {
  return (bytes: Uint8Array, coding: string, maxBytes: number): Promise<DecodeResult | undefined> => {
    const stream = make(zlib, coding, bytes);
    if (!stream) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const out: Uint8Array[] = [];
      let size = 0;
      let settled = false;
      const settle = (cut: boolean) => {
        if (settled) return;
        settled = true;
        stream.destroy();
        resolve(size || !cut ? { bytes: concatBytes(out, size), cut } : undefined);
      };
      stream.on('data', (chunk: Uint8Array) => {
        if (settled) return;
        const room = maxBytes - size;
        if (chunk.byteLength >= room) {
          out.push(chunk.subarray(0, room));
          size += room;
          settle(chunk.byteLength > room);
          return;
        }
        out.push(chunk);
        size += chunk.byteLength;
      });
      stream.on('end', () => settle(false));
      stream.on('error', () => settle(true));
      stream.end(bytes);
    });
  };
}

function make(zlib: NodeZlib, coding: string, bytes: Uint8Array): NodeZlibStream | undefined {
  const c = zlib.constants;
  const flush = { finishFlush: c.Z_SYNC_FLUSH };
  if (coding === 'gzip' || coding === 'x-gzip') return zlib.createGunzip(flush);
  if (coding === 'br') return zlib.createBrotliDecompress({ finishFlush: c.BROTLI_OPERATION_FLUSH });
  if (coding === 'zstd') return zlib.createZstdDecompress?.();
  if (coding === 'deflate') {
    // "deflate" is zlib-wrapped by the spec and raw by some servers; the first byte tells which.
    return (bytes[0]! & 0x0f) === 8 ? zlib.createInflate(flush) : zlib.createInflateRaw(flush);
  }
  return undefined;
}
