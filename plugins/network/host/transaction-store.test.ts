import { describe, expect, it } from 'vitest';
import { started, text } from './testing.js';
import { CursorError, TransactionStore } from './transaction-store.js';

describe('TransactionStore', () => {
  it('follows a transaction from pending to complete, and to failed', () => {
    const store = new TransactionStore();
    store.started(started('a'));
    expect(store.get('a')?.state).toBe('pending');
    store.response({ id: 'a', status: 201, statusText: 'Created', headers: [], waitMs: 5 });
    expect(store.get('a')).toMatchObject({ state: 'pending', response: { status: 201 }, timing: { waitMs: 5 } });
    store.completed({ id: 'a', body: text('done'), durationMs: 9 });
    expect(store.get('a')).toMatchObject({ state: 'complete', response: { body: { data: 'done' } } });

    store.started(started('b'));
    store.failed({ id: 'b', message: 'connect ECONNREFUSED', code: 'ECONNREFUSED', durationMs: 2 });
    expect(store.get('b')).toMatchObject({ state: 'failed', error: { code: 'ECONNREFUSED' } });
    // A late notification for a finished transaction changes nothing.
    expect(store.completed({ id: 'b', durationMs: 3 })).toBeUndefined();
    expect(store.get('b')?.state).toBe('failed');
    expect(store.completed({ id: 'never-started', durationMs: 1 })).toBeUndefined();
    expect(store.stats()).toMatchObject({ count: 2, pending: 0, orphans: 1 });
  });

  it('drops the oldest beyond the count limit, and counts the drops', () => {
    const store = new TransactionStore({ maxTransactions: 3, maxBodyChars: 1e9 });
    for (const id of ['a', 'b', 'c', 'd', 'e']) store.started(started(id));
    expect(store.all().map((t) => t.id)).toEqual(['c', 'd', 'e']);
    expect(store.stats()).toMatchObject({ count: 3, dropped: 2 });
  });

  it('drops the oldest beyond the body size limit, counting bodies that arrive later', () => {
    const store = new TransactionStore({ maxTransactions: 100, maxBodyChars: 10 });
    store.started(started('a', { body: text('12345') }));
    store.started(started('b', { body: text('1234') }));
    expect(store.stats()).toMatchObject({ count: 2, bodyChars: 9 });
    store.response({ id: 'b', status: 200, statusText: 'OK', headers: [], waitMs: 1 });
    const change = store.completed({ id: 'b', body: text('123'), durationMs: 2 });
    expect(change?.dropped).toBe(1);
    expect(store.all().map((t) => t.id)).toEqual(['b']);
    expect(store.stats()).toMatchObject({ bodyChars: 7, dropped: 1 });
  });

  it('counts the response body of a transaction added whole (a HAR import) against the body bound', () => {
    const store = new TransactionStore({ maxTransactions: 100, maxBodyChars: 10 });
    const whole = (id: string, body: string) => ({
      id,
      state: 'complete' as const,
      initiator: 'har' as const,
      request: { method: 'GET', url: `http://api.test/${id}`, headers: [] },
      response: { status: 200, statusText: 'OK', headers: [], body: text(body) },
      timing: { startedAt: 1_000, durationMs: 1 },
    });
    store.add(whole('a', 'aaaaaa'));
    expect(store.stats()).toMatchObject({ count: 1, bodyChars: 6 });
    store.add(whole('b', 'bbbbbb')); // 12 > 10: the oldest goes
    expect(store.all().map((t) => t.id)).toEqual(['b']);
    expect(store.stats()).toMatchObject({ count: 1, bodyChars: 6, dropped: 1 });
    store.clear();
    expect(store.stats()).toMatchObject({ count: 0, bodyChars: 0 });
  });

  it('filters and pages with a cursor, newest first by default', () => {
    const store = new TransactionStore();
    for (let i = 1; i <= 7; i++) {
      store.started(started(`t${i}`, { method: i % 2 ? 'GET' : 'POST', startedAt: i * 100 }));
      store.response({
        id: `t${i}`,
        status: i === 3 ? 404 : i === 6 ? 503 : 200,
        statusText: '',
        headers: [],
        waitMs: 1,
      });
      store.completed({ id: `t${i}`, durationMs: 1 });
    }
    const first = store.page({ limit: 3 });
    expect(first.transactions.map((t) => t.id)).toEqual(['t7', 't6', 't5']);
    expect(first.total).toBe(7);
    const second = store.page({ limit: 3, cursor: first.nextCursor });
    expect(second.transactions.map((t) => t.id)).toEqual(['t4', 't3', 't2']);
    const third = store.page({ limit: 3, cursor: second.nextCursor });
    expect(third.transactions.map((t) => t.id)).toEqual(['t1']);
    expect(third.nextCursor).toBeUndefined();

    expect(
      store.page({ limit: 10, order: 'oldest', filter: { method: 'post' } }).transactions.map((t) => t.id),
    ).toEqual(['t2', 't4', 't6']);
    expect(store.page({ limit: 10, filter: { status: 404 } }).transactions.map((t) => t.id)).toEqual(['t3']);
    expect(store.page({ limit: 10, filter: { status: { min: 400, max: 599 } } }).transactions.map((t) => t.id)).toEqual(
      ['t6', 't3'],
    );
    expect(store.page({ limit: 10, filter: { since: 200, until: 400 } }).total).toBe(3);
    expect(store.page({ limit: 10, filter: { urlContains: 'API.TEST/T5' } }).transactions.map((t) => t.id)).toEqual([
      't5',
    ]);
    expect(() => store.page({ limit: 3, cursor: 'garbage' })).toThrow(CursorError);
    expect(() => store.page({ limit: 3, cursor: first.nextCursor, order: 'oldest' })).toThrow(CursorError);
  });

  it('keeps pages stable while new transactions arrive', () => {
    const store = new TransactionStore();
    for (const id of ['a', 'b', 'c']) store.started(started(id));
    const first = store.page({ limit: 2 });
    store.started(started('d'));
    expect(store.page({ limit: 2, cursor: first.nextCursor }).transactions.map((t) => t.id)).toEqual(['a']);
  });
});
