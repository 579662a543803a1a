import { describe, expect, it } from 'vitest';
import { OfflineBuffer } from './offline-buffer.js';

describe('OfflineBuffer', () => {
  it('keeps the newest entries up to its capacity and counts the dropped', () => {
    const buffer = new OfflineBuffer(3);
    for (let i = 1; i <= 5; i++) buffer.push('example', 'log', i);
    expect(buffer.dropped).toBe(2);
    expect(buffer.drain().map((e) => e.params)).toEqual([3, 4, 5]);
    expect(buffer.size).toBe(0);
  });

  it('puts back unsent entries ahead of newer ones, still bounded', () => {
    const buffer = new OfflineBuffer(3);
    buffer.push('example', 'log', 1);
    buffer.push('example', 'log', 2);
    const drained = buffer.drain();
    buffer.push('example', 'log', 3);
    buffer.push('example', 'log', 4);
    buffer.restore(drained);
    expect(buffer.drain().map((e) => e.params)).toEqual([2, 3, 4]);
    expect(buffer.dropped).toBe(1);
  });

  it('orders entries of different buffers by a shared sequence', () => {
    const a = new OfflineBuffer(10);
    const b = new OfflineBuffer(10);
    a.push('a', 'm', 1);
    b.push('b', 'm', 2);
    a.push('a', 'm', 3);
    const merged = [...a.drain(), ...b.drain()].sort((x, y) => x.seq - y.seq);
    expect(merged.map((e) => e.params)).toEqual([1, 2, 3]);
  });
});
