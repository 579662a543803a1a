import { describe, expect, it } from 'vitest';
import type { Message } from '../protocol.js';
import { appendMessages, filterMessages, MAX_SHOWN, messageJson, messagePreview } from './messages.js';

const msg = (n: number, over: Partial<Message> = {}): Message => ({
  n,
  direction: n % 2 ? 'received' : 'sent',
  time: 1000 + n,
  opcode: 1,
  size: 10,
  encoding: 'text',
  data: `message ${n}`,
  ...over,
});

describe('the Messages tab model', () => {
  const all = [
    msg(0, { data: '{"type":"join","room":"lobby"}' }),
    msg(1, { data: '{"type":"chat","text":"Hello"}' }),
    msg(2, { encoding: 'base64', data: 'AAEC', opcode: 2, size: 3 }),
    msg(3, {
      data: '42["price",{"sku":"A1"}]',
      socketio: { engine: 'message', socket: 'EVENT', event: 'price', data: [{ sku: 'A1' }] },
    }),
    msg(4, { data: 'ping', event: 'heartbeat' }),
  ];
  const ns = (direction: 'all' | 'sent' | 'received', text: string) =>
    filterMessages(all, { direction, text }).rows.map((m) => m.n);

  it('filters by direction, text (data, SSE event, socket.io event) and /regex/', () => {
    expect(ns('all', '')).toEqual([0, 1, 2, 3, 4]);
    expect(ns('sent', '')).toEqual([0, 2, 4]);
    expect(ns('received', 'HELLO')).toEqual([1]);
    expect(ns('all', 'heartbeat')).toEqual([4]);
    expect(ns('all', 'price')).toEqual([3]);
    expect(ns('all', '/"type":"(join|chat)"/')).toEqual([0, 1]);
    const bad = filterMessages(all, { direction: 'all', text: '/(/' });
    expect(bad.error).toMatch(/not a valid regular expression/);
    expect(bad.rows).toHaveLength(5); // a bad regex filters nothing out, and says so
  });

  it('appends pages in order without repeats and keeps the newest MAX_SHOWN', () => {
    const held = appendMessages([], all.slice(0, 3));
    expect(appendMessages(held, all.slice(1)).map((m) => m.n)).toEqual([0, 1, 2, 3, 4]);
    expect(appendMessages(held, [])).toBe(held);
    const many = Array.from({ length: MAX_SHOWN + 5 }, (_, i) => msg(i));
    const kept = appendMessages([], many);
    expect(kept).toHaveLength(MAX_SHOWN);
    expect(kept[0]!.n).toBe(5);
  });

  it('previews socket.io events, binary and JSON', () => {
    expect(messagePreview(all[3]!)).toBe('price [{"sku":"A1"}]');
    expect(messagePreview(all[2]!)).toBe('Binary message (3 bytes)');
    expect(messageJson(all[1]!)).toEqual({ type: 'chat', text: 'Hello' });
    expect(messageJson(all[4]!)).toBeUndefined();
  });
});
