import { ToolArgumentError } from '../../../shared/tool.js';

/** Most JSON an argument-less page holds, so that it and its text mirror fit a context window. */
export const PAGE_BYTES = 10 * 1024;

export interface Page<T> {
  items: T[];
  /** Pass it back as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
  total: number;
}

/**
 * The items after `cursor` (an offset this function handed out): at most `limit`, and no more than
 * `maxBytes` of JSON, but always at least one.
 */
export function pageOf<T>(
  all: readonly T[],
  options: { limit: number; cursor?: string; maxBytes?: number; sizeOf?: (item: T) => number },
): Page<T> {
  const start = options.cursor === undefined ? 0 : offsetOf(options.cursor, all.length);
  const maxBytes = options.maxBytes ?? PAGE_BYTES;
  const sizeOf = options.sizeOf ?? jsonBytes;
  const items: T[] = [];
  let bytes = 0;
  for (let i = start; i < all.length && items.length < options.limit; i++) {
    bytes += sizeOf(all[i]!);
    if (items.length > 0 && bytes > maxBytes) break;
    items.push(all[i]!);
  }
  const next = start + items.length;
  return { items, total: all.length, ...(next < all.length ? { nextCursor: String(next) } : {}) };
}

/** Bytes of an item's JSON. */
export const jsonBytes = (item: unknown) => Buffer.byteLength(JSON.stringify(item));

function offsetOf(cursor: string, length: number): number {
  const offset = /^\d{1,9}$/.test(cursor) ? Number(cursor) : Number.NaN;
  if (!(offset >= 0 && offset <= length)) {
    throw new ToolArgumentError(
      `cursor "${cursor}" is not one this list handed out (it has ${length} entries now); pass a nextCursor of the previous page, or call again without cursor`,
    );
  }
  return offset;
}
