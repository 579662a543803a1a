import { describe, expect, it } from 'vitest';
import type { TransactionSummary } from '../protocol.js';
import { type RowView, TransactionModel } from './model.js';
import { parseQuery } from './query.js';

const tx = (n: number, over: Partial<TransactionSummary> = {}): TransactionSummary => ({
  id: `t${n}`,
  seq: n,
  state: 'complete',
  initiator: 'fetch',
  method: 'GET',
  url: `http://localhost:3000/api/item/${n}`,
  status: 200,
  startedAt: n,
  ...over,
});

describe('the network panel model', () => {
  it('adds in arrival order and updates in place by id', () => {
    const model = new TransactionModel();
    model.upsert([tx(1, { state: 'pending', status: undefined }), tx(2)]);
    model.upsert([tx(1, { status: 201 }), tx(3)]);
    expect(model.all().map((t) => [t.id, t.status])).toEqual([
      ['t1', 201],
      ['t2', 200],
      ['t3', 200],
    ]);
    expect(model.get('t1')?.status).toBe(201);
  });

  it('drops from the oldest end and still finds and updates the rest', () => {
    const model = new TransactionModel();
    model.upsert([tx(1), tx(2), tx(3), tx(4)]);
    model.dropOldest(2);
    expect(model.all().map((t) => t.id)).toEqual(['t3', 't4']);
    expect(model.get('t1')).toBeUndefined();
    model.upsert([tx(4, { status: 500 }), tx(5)]);
    expect(model.all().map((t) => [t.id, t.status])).toEqual([
      ['t3', 200],
      ['t4', 500],
      ['t5', 200],
    ]);
    model.dropOldest(10);
    expect(model.size).toBe(0);
    model.upsert([tx(6)]);
    expect(model.get('t6')?.id).toBe('t6');
  });

  it('filters with a parsed query, keeps only search hits, and sorts', () => {
    const model = new TransactionModel();
    model.upsert([
      tx(1, { url: 'http://x/API/Cart' }),
      tx(2, { method: 'POST', status: 404 }),
      tx(3, { state: 'failed', status: undefined, error: 'ECONNREFUSED' }),
      tx(4, { state: 'pending', status: undefined }),
      tx(5, { status: 503, mockRuleId: 'rule-1' }),
    ]);
    const ids = (view: Partial<RowView> & { q?: string } = {}) =>
      model.filtered({ query: parseQuery(view.q ?? ''), ...view }).map((t) => t.id);
    expect(ids()).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(ids({ q: 'api/cart' })).toEqual(['t1']);
    expect(ids({ q: 'is:failed' })).toEqual(['t2', 't3', 't5']);
    expect(ids({ q: 'is:failed', hits: new Set(['t3', 't4']) })).toEqual(['t3']);
    const byStatus = {
      key: 'status-desc',
      compare: (a: TransactionSummary, b: TransactionSummary) => (b.status ?? 0) - (a.status ?? 0),
    };
    expect(ids({ order: byStatus })).toEqual(['t5', 't2', 't1', 't3', 't4']);
  });

  it('computes a filtered view once per change and tells subscribers about changes', () => {
    const model = new TransactionModel();
    let told = 0;
    const off = model.subscribe(() => told++);
    model.upsert([tx(1), tx(2)]);
    const first = model.filtered({ query: parseQuery('item') });
    expect(model.filtered({ query: parseQuery('item') })).toBe(first);
    model.upsert([tx(3)]);
    expect(model.filtered({ query: parseQuery('item') })).not.toBe(first);
    expect(model.filtered({ query: parseQuery('item') })).toHaveLength(3);
    model.clear();
    expect(told).toBe(3);
    off();
    model.upsert([tx(4)]);
    expect(told).toBe(3);
  });

  it('holds and filters 100,000 transactions', () => {
    const model = new TransactionModel();
    model.upsert(Array.from({ length: 100_000 }, (_, i) => tx(i, { status: i % 10 === 0 ? 500 : 200 })));
    expect(model.size).toBe(100_000);
    expect(model.filtered({ query: parseQuery('status:5xx') })).toHaveLength(10_000);
    expect(model.filtered({ query: parseQuery('item/99999') })).toHaveLength(1);
  });
});
