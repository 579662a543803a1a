import { describe, expect, it } from 'vitest';
import { Waiting } from './waiting.js';

const all = (w: Waiting<string>) => {
  const out: [string, number, unknown, number][] = [];
  w.take(Number.POSITIVE_INFINITY, (s, seq, a, t) => out.push([s, seq, a, t]) > 0);
  return out;
};

describe('the ring of waiting entries', () => {
  it('gives entries back oldest first; full, it drops the oldest and says whose', () => {
    const w = new Waiting<string>((a) => `small ${a}`, 100, 3);
    expect(w.push('a', 0, 'x0', 10)).toBeUndefined();
    w.push('b', 0, 'y0', 11);
    w.push('a', 1, 'x1', 12);
    expect(w.push('b', 1, 'y1', 13)).toBe('a');
    expect(w.count).toBe(3);
    expect(all(w)).toEqual([
      ['b', 0, 'y0', 11],
      ['a', 1, 'x1', 12],
      ['b', 1, 'y1', 13],
    ]);
    expect(w.count).toBe(0);
    w.push('a', 2, 'x2', 14);
    expect(all(w)).toEqual([['a', 2, 'x2', 14]]);
  });

  it('stops taking where the taker says, and the rest waits', () => {
    const w = new Waiting<string>((a) => a, 100, 10);
    for (let i = 0; i < 5; i++) w.push('s', i, i, i);
    const got: number[] = [];
    w.take(10, (_s, seq) => seq < 2 && got.push(seq) > 0);
    expect(got).toEqual([0, 1]);
    expect(w.count).toBe(3);
    expect(all(w).map((e) => e[1])).toEqual([2, 3, 4]);
  });

  it('shrinks an action once `whole` newer ones wait behind it, never a newer one', () => {
    const w = new Waiting<string>((a) => `type of ${a}`, 4, 100);
    for (let i = 0; i < 12; i++) w.push('s', i, `a${i}`, i);
    const actions = all(w).map((e) => e[2]);
    // Shrunk in steps (every 4 pushes), so at most `whole` + 3 stay whole; the newest 4 always do.
    expect(actions.slice(-4)).toEqual(['a8', 'a9', 'a10', 'a11']);
    expect(actions.slice(0, 8)).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((i) => `type of a${i}`));
  });

  it('keeps order and counts what no longer fits when it is made smaller', () => {
    const w = new Waiting<string>((a) => a, 100, 4);
    for (let i = 0; i < 6; i++) w.push(`s${i}`, i, i, i);
    const dropped: string[] = [];
    w.resize(2, (s) => dropped.push(s));
    expect(dropped).toEqual(['s2', 's3']);
    expect(all(w).map((e) => e[0])).toEqual(['s4', 's5']);
  });
});

describe('runs', () => {
  it('lets the newest entry stand for the actions after it, up to a bound, and counts them when dropped', () => {
    const w = new Waiting<string>((a) => a, 100, 2);
    expect(w.join(3)).toBe(false);
    w.push('a', 0, 'tick', 1);
    expect([w.join(3), w.join(3), w.join(3)]).toEqual([true, true, false]);
    w.push('b', 3, 'tock', 2);
    expect(w.join(3)).toBe(true);
    w.push('a', 5, 'x', 3);
    expect(w.droppedActions).toBe(3);
    const out: [string, number, unknown, number][] = [];
    w.take(10, (s, seq, a, _t, more) => out.push([s, seq, a, more]) > 0);
    expect(out).toEqual([
      ['b', 3, 'tock', 1],
      ['a', 5, 'x', 0],
    ]);
  });

  it('keeps what runs stand for when it is made smaller, and counts the dropped ones', () => {
    const w = new Waiting<string>((a) => a, 100, 4);
    w.push('a', 0, 't', 0);
    w.join(10);
    w.push('b', 0, 'u', 0);
    w.join(10);
    w.join(10);
    w.push('c', 0, 'v', 0);
    const dropped: [string, number][] = [];
    w.resize(2, (s, n) => dropped.push([s, n]));
    expect(dropped).toEqual([['a', 2]]);
    const more: number[] = [];
    w.take(10, (_s, _seq, _a, _t, m) => more.push(m) > 0);
    expect(more).toEqual([2, 0]);
  });
});
