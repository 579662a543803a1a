import { describe, expect, it } from 'vitest';
import type { TransactionSummary } from '../protocol.js';
import { currentLoadOnly, isLoadRow, latestLoad, requestCount, withLoads } from './loads.js';

const tx = (n: number, load: number | undefined, over: Partial<TransactionSummary> = {}): TransactionSummary => ({
  id: `t${n}`,
  seq: n,
  state: 'complete',
  initiator: 'fetch',
  method: 'GET',
  url: `http://localhost:3000/api/item/${n}`,
  status: 200,
  startedAt: 1000 + n,
  ...(load !== undefined ? { load } : {}),
  ...over,
});

const ids = (rows: readonly ReturnType<typeof withLoads>[number][]) =>
  rows.map((r) => (isLoadRow(r) ? `[${r.load}${r.open ? ' open' : ''}: ${r.requests}]` : r.id));

describe('page loads in the network table', () => {
  const rows = [tx(1, 1), tx(2, 1), tx(3, 2), tx(4, 3), tx(5, 3), tx(6, 3)];

  it('adds nothing while the requests are of one load (or say none)', () => {
    expect(withLoads([tx(1, 4), tx(2, 4)], 4, new Map())).toHaveLength(2);
    expect(withLoads([tx(1, undefined), tx(2, undefined)], undefined, new Map())).toHaveLength(2);
  });

  it('puts each load under a header: the current one open, older ones closed with their count', () => {
    expect(ids(withLoads(rows, 3, new Map()))).toEqual(['[1: 2]', '[2: 1]', '[3 open: 3]', 't4', 't5', 't6']);
    expect(
      ids(
        withLoads(
          rows,
          3,
          new Map([
            [1, true],
            [3, false],
          ]),
        ),
      ),
    ).toEqual(['[1 open: 2]', 't1', 't2', '[2: 1]', '[3: 3]']);
    expect(requestCount(withLoads(rows, 3, new Map()))).toBe(6);
  });

  it('keeps the table order within a load, whatever order the rows come in', () => {
    const sorted = [tx(5, 3), tx(2, 1), tx(4, 3), tx(1, 1)];
    expect(ids(withLoads(sorted, 3, new Map([[1, true]])))).toEqual([
      '[1 open: 2]',
      't2',
      't1',
      '[3 open: 2]',
      't5',
      't4',
    ]);
  });

  it('without Preserve log keeps the current load and requests without one', () => {
    expect(currentLoadOnly([...rows, tx(7, undefined)], 3).map((r) => r.id)).toEqual(['t4', 't5', 't6', 't7']);
    expect(currentLoadOnly(rows, undefined)).toHaveLength(6);
  });

  it('takes the current load from the session, else from the newest request', () => {
    expect(latestLoad(5, rows)).toBe(5);
    expect(latestLoad(undefined, rows)).toBe(3);
    expect(latestLoad(undefined, [tx(1, undefined)])).toBeUndefined();
  });
});
