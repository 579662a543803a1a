import { describe, expect, it } from 'vitest';
import type { TransactionSummary } from '../protocol.js';
import { NO_FILTER, TransactionModel } from './model.js';

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

  it('filters by text, method, status class, failed and mocked, combined', () => {
    const model = new TransactionModel();
    model.upsert([
      tx(1, { url: 'http://x/API/Cart' }),
      tx(2, { method: 'POST', status: 404 }),
      tx(3, { state: 'failed', status: undefined, error: 'ECONNREFUSED' }),
      tx(4, { state: 'pending', status: undefined }),
      tx(5, { status: 503, mockRuleId: 'rule-1' }),
      tx(6, { status: 302, method: 'post' }),
    ]);
    const ids = (f: Partial<typeof NO_FILTER>) => model.filtered({ ...NO_FILTER, ...f }).map((t) => t.id);
    expect(ids({})).toEqual(['t1', 't2', 't3', 't4', 't5', 't6']);
    expect(ids({ text: 'api/cart' })).toEqual(['t1']);
    expect(ids({ text: '  item ' })).toEqual(['t2', 't3', 't4', 't5', 't6']);
    expect(ids({ method: 'POST' })).toEqual(['t2', 't6']);
    expect(ids({ statusClass: '4xx' })).toEqual(['t2']);
    expect(ids({ statusClass: '5xx' })).toEqual(['t5']);
    expect(ids({ statusClass: '3xx', method: 'post' })).toEqual(['t6']);
    expect(ids({ statusClass: 'pending' })).toEqual(['t4']);
    expect(ids({ failedOnly: true })).toEqual(['t3']);
    expect(ids({ mockedOnly: true })).toEqual(['t5']);
    expect(ids({ mockedOnly: true, statusClass: '2xx' })).toEqual([]);
  });

  it('computes a filtered view once per change and tells subscribers about changes', () => {
    const model = new TransactionModel();
    let told = 0;
    const off = model.subscribe(() => told++);
    model.upsert([tx(1), tx(2)]);
    const first = model.filtered({ ...NO_FILTER, text: 'item' });
    expect(model.filtered({ ...NO_FILTER, text: 'item' })).toBe(first);
    model.upsert([tx(3)]);
    expect(model.filtered({ ...NO_FILTER, text: 'item' })).not.toBe(first);
    expect(model.filtered({ ...NO_FILTER, text: 'item' })).toHaveLength(3);
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
    expect(model.filtered({ ...NO_FILTER, statusClass: '5xx' })).toHaveLength(10_000);
    expect(model.filtered({ ...NO_FILTER, text: 'item/99999' })).toHaveLength(1);
  });
});
