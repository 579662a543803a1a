import { estimateBytes } from '../../../shared/estimate-bytes.js';
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
const read = new WeakMap<Body, number>();
const TWO_BYTE = /[\u0100-\uffff]/g;

export function transactionBytes(tx: Transaction): number {
  return membersBytes(tx, txMember);
}

/** An object as estimateBytes measures it, each member by `member`. */
function membersBytes<T extends object>(value: T, member: (value: T, key: string) => number): number {
  let n = 32;
  for (const key in value) n += 16 + member(value, key);
  return n;
}

function txMember(tx: Transaction, key: string): number {
  const value = tx[key as keyof Transaction];
  if ((key === 'request' || key === 'response') && value) return membersBytes(value as object, partMember);
  return estimateBytes(value, 1);
}

function partMember(part: object, key: string): number {
  const value = (part as Record<string, unknown>)[key];
  if (key === 'body' && value) return membersBytes(value as Body, bodyMember);
  return estimateBytes(value, 2);
}

function bodyMember(body: Body, key: string): number {
  const value = body[key as keyof Body];
  if (key !== 'data' || typeof value !== 'string') return estimateBytes(value, 3);
  const seen = read.get(body);
  if (seen === undefined || seen >> 1 !== value.length) return estimateBytes(value, 3);
  return 16 + (seen & 1 ? value.length * 2 : value.length);
}

/** appendPart() added `added` to a live body's data: read now, so that measuring it reads nothing more. */
export function appended(body: Body, added: string): void {
  const length = body.data.length;
  const seen = read.get(body) ?? (length === added.length ? 0 : undefined);
  // Not followed from its start (or changed otherwise): measured by reading it whole.
  if (seen === undefined || seen >> 1 !== length - added.length) return void read.delete(body);
  TWO_BYTE.lastIndex = 0;
  read.set(body, length * 2 + (seen & 1 || +TWO_BYTE.test(added)));
}
