import { estimateBytes, stringBytes } from '../../../shared/estimate-bytes.js';
import type { Body, Transaction } from '../protocol.js';

// A transaction's estimated bytes: what estimateBytes(tx) answers, measured again on every change.
// Its bodies' data are most of it and the one part that grows in place (a live body is appended to).
// What was read of each data string is remembered by its body, and an append is read as it is made
// (appended()): reading the grown string would make V8 flatten it, copying the whole body again for
// every chunk of a stream.

/**
 * Per live body (one appendPart() grew): characters of its `data` read so far, times two, plus one
 * when one of them needed two bytes. A body that came whole has no entry: it is read whole when measured.
 */
const read = new WeakMap<object, number>();

export function transactionBytes(tx: Transaction): number {
  return objectBytes(tx, 0);
}

/** An object as estimateBytes measures it at `depth`, with a live body's data as appended() read it. */
function objectBytes(value: object, depth: number): number {
  let n = 32;
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (key === 'data' && typeof v === 'string') n += 16 + dataBytes(value, v);
    else if (v !== null && typeof v === 'object' && !Array.isArray(v) && depth < 32)
      n += 16 + objectBytes(v, depth + 1);
    else n += 16 + estimateBytes(v, depth + 1);
  }
  return n;
}

function dataBytes(body: object, data: string): number {
  const seen = read.get(body);
  if (seen === undefined || seen >> 1 !== data.length) return stringBytes(data);
  return 16 + (seen & 1 ? data.length * 2 : data.length);
}

/** appendPart() added `added` to a live body's data: read now, so that measuring it reads nothing more. */
export function appended(body: Body, added: string): void {
  const length = body.data.length;
  const seen = read.get(body) ?? (length === added.length ? 0 : undefined);
  // Not followed from its start (or changed otherwise): measured by reading it whole.
  if (seen === undefined || seen >> 1 !== length - added.length) return void read.delete(body);
  read.set(body, length * 2 + (seen & 1 || +(stringBytes(added) > 16 + added.length)));
}
