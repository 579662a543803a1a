import { describe, expect, it } from 'vitest';
import { estimateBytes } from '../../../shared/estimate-bytes.js';
import { started, text } from './testing.js';
import { transactionBytes } from './transaction-bytes.js';
import { TransactionStore } from './transaction-store.js';

const json = [{ name: 'content-type', value: 'application/json' }];

describe('transactionBytes', () => {
  it('answers what estimateBytes answers, at every step of a transaction', () => {
    const store = new TransactionStore();
    const measured = () => {
      const tx = store.get('a')!;
      return [transactionBytes(tx), estimateBytes(tx)];
    };
    const steps: number[][] = [];
    store.started(
      started('a', { method: 'POST', headers: json, body: text('{"q":"é"}'), callStack: 'at f (app.js:1:1)' }),
    );
    steps.push(measured());
    store.response({ id: 'a', status: 200, statusText: 'OK', headers: [{ name: 'x', value: 'ü' }], waitMs: 3 });
    steps.push(measured());
    store.appendBody('a', { text: 'one byte each, ' }, 'text/plain', 1 << 20);
    steps.push(measured());
    // A character past U+00FF makes the whole string two bytes a character, the part read before too.
    store.appendBody('a', { text: 'then ☃' }, 'text/plain', 1 << 20);
    steps.push(measured());
    store.appendBody('a', { text: ' and more' }, 'text/plain', 1 << 20);
    steps.push(measured());
    store.completed({ id: 'a', body: text('a new body, one byte each'), durationMs: 9, encodedSize: 25 });
    steps.push(measured());
    for (const [ours, theirs] of steps) expect(ours).toBe(theirs);
    // The snowman doubled the live body's data, and the finished body (a new one) is read anew.
    expect(steps[3]![0]! - steps[2]![0]!).toBe(2 * 'one byte each, then ☃'.length - 'one byte each, '.length);
    expect(steps[5]![0]!).toBeLessThan(steps[4]![0]!);
  });

  it('answers what estimateBytes answers for a base64 body and a failed transaction', () => {
    const store = new TransactionStore();
    store.started(started('b', { headers: json }));
    store.response({ id: 'b', status: 200, statusText: 'OK', headers: [], waitMs: 1 });
    store.appendBody('b', { bytes: new Uint8Array([1, 2, 3, 4, 5]) }, 'application/octet-stream', 1 << 20);
    store.failed({ id: 'b', message: 'reset', code: 'ECONNRESET', durationMs: 4 });
    const tx = store.get('b')!;
    expect(tx.response?.body?.encoding).toBe('base64');
    expect(transactionBytes(tx)).toBe(estimateBytes(tx));
  });
});
