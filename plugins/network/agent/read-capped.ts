import { concatBytes } from '../../../shared/bytes.js';

// The mock path's read of a request body it matches rules on (intercept.ts, loaded with the first rule).

/**
 * Reads at most `maxBytes` of a body stream, then cancels the rest: a huge body is never loaded whole.
 * `timeoutMs` stops waiting for a body that does not end (e.g. an upload waiting on the server).
 */
export async function readCapped(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  timeoutMs?: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut =
    timeoutMs === undefined
      ? undefined
      : new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), timeoutMs);
        });
  try {
    for (;;) {
      const next = timedOut ? await Promise.race([reader.read(), timedOut]) : await reader.read();
      if (next === 'timeout') {
        truncated = true;
        break;
      }
      if (next.done) break;
      const chunk = next.value;
      if (size + chunk.byteLength > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.byteLength;
    }
  } finally {
    if (timer) clearTimeout(timer);
    if (truncated) reader.cancel().catch(() => {});
    else reader.releaseLock();
  }
  return { bytes: concatBytes(chunks, size), truncated };
}
