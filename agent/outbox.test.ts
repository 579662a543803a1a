import { describe, expect, it } from 'vitest';
import { validateMessage } from '../shared/protocol/codec.js';
import { decodeFrame } from '../shared/protocol/frame.js';
import { Limits } from '../shared/protocol/limits.js';
import type { Notification } from '../shared/protocol/messages.js';
import { Outbox } from './outbox.js';

const note = (n: number, params: unknown = { n }): Notification => ({
  type: 'notification',
  plugin: 'example',
  method: 'log',
  params,
});
const turn = () => new Promise((resolve) => setTimeout(resolve, 40));

function outbox(maxFrameBytes = Limits.maxFrameBytes) {
  const written: string[] = [];
  const unsent: Notification[][] = [];
  const dropped: string[] = [];
  let broken = false;
  const box = new Outbox(
    (text) => {
      if (broken) throw new Error('closed');
      written.push(text);
    },
    maxFrameBytes,
    (frames) => unsent.push(frames),
    (frame, error) => dropped.push(`${frame.method}: ${error.message}`),
  );
  /** Every written frame as the inspector decodes it, flattened to the notifications' `n`. */
  const delivered = () =>
    written.flatMap((text) => {
      const decoded = decodeFrame(text, validateMessage);
      if (!decoded.ok) throw new Error(decoded.error.message);
      const m = decoded.message;
      const frames = m.type === 'batch' ? m.frames : [m as Notification];
      return frames.map((f) => (f.params as { n: number }).n);
    });
  return { box, written, unsent, dropped, delivered, breakLink: () => (broken = true) };
}

describe('the outbox', () => {
  it('writes the notifications made close together as one batch frame, in order, a moment later', async () => {
    const { box, written, delivered } = outbox();
    for (let n = 0; n < 5; n++) box.notify(note(n));
    expect(written).toEqual([]);
    await turn();
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!).type).toBe('batch');
    expect(delivered()).toEqual([0, 1, 2, 3, 4]);
  });

  it('writes a lone notification as a plain notification frame', async () => {
    const { box, written } = outbox();
    box.notify(note(1));
    await turn();
    expect(JSON.parse(written[0]!)).toEqual(note(1));
  });

  it('splits batches so that each stays within the frame limits the inspector checks', async () => {
    const { box, written, delivered } = outbox();
    // 30,000 values each: four of them would be over the 100,000-value budget.
    const wide = (n: number) => note(n, { n, list: Array.from({ length: 30_000 }, () => 0) });
    for (let n = 0; n < 4; n++) box.notify(wide(n));
    for (let n = 4; n < 4 + Limits.maxBatchFrames + 5; n++) box.notify(note(n));
    await turn();
    expect(written.length).toBeGreaterThanOrEqual(3);
    expect(delivered()).toEqual(Array.from({ length: 4 + Limits.maxBatchFrames + 5 }, (_, i) => i));
  });

  it('writes a large notification at once, after what was queued before it', async () => {
    const { box, written, delivered } = outbox();
    box.notify(note(0));
    box.notify(note(1, { n: 1, text: 'x'.repeat(200_000) }));
    expect(written).toHaveLength(2);
    expect(delivered()).toEqual([0, 1]);
  });

  it('keeps batches within a small maxFrameBytes', async () => {
    const { box, written, delivered } = outbox(4096);
    for (let n = 0; n < 200; n++) box.notify(note(n));
    await turn();
    expect(written.every((t) => Buffer.byteLength(t) <= 4096)).toBe(true);
    expect(delivered()).toHaveLength(200);
  });

  it('hands back what it could not write, oldest first', async () => {
    const { box, unsent, breakLink } = outbox();
    box.notify(note(0));
    box.notify(note(1));
    breakLink();
    await turn();
    expect(unsent).toEqual([[note(0), note(1)]]);
    box.notify(note(2));
    box.strand();
    expect(unsent[1]).toEqual([note(2)]);
  });

  it('refuses a notification over the limits when it is made, as a single frame would be', () => {
    const { box } = outbox(1024);
    expect(() => box.notify(note(0, { text: 'x'.repeat(2000) }))).toThrow(/exceeds the 1024-byte limit/);
  });

  describe('params given as a function', () => {
    const lazy = (n: number, make: () => unknown = () => ({ n })): Notification => ({ ...note(n), params: make });

    it('makes them only when the batch leaves, in the order the notifications were made', async () => {
      const { box, delivered } = outbox();
      let made = 0;
      box.notify(note(0));
      box.notify(lazy(1, () => ({ n: 1, made: ++made })));
      box.notify(note(2));
      expect(made).toBe(0);
      await turn();
      expect(made).toBe(1);
      expect(delivered()).toEqual([0, 1, 2]);
    });

    it('drops one the inspector would refuse, or whose function throws, and says why; the others go', async () => {
      const { box, delivered, dropped } = outbox(4096);
      box.notify(lazy(0));
      box.notify(lazy(1, () => ({ n: 1, text: 'x'.repeat(8000) })));
      box.notify(
        lazy(2, () => {
          throw new Error('no such header');
        }),
      );
      box.notify(lazy(3));
      await turn();
      expect(delivered()).toEqual([0, 3]);
      expect(dropped).toEqual([
        expect.stringMatching(/^log: .*exceeds the 4096-byte limit/),
        'log: its params could not be made: no such header',
      ]);
    });

    it('sends a large one alone, after what came before it', async () => {
      const { box, written, delivered } = outbox();
      box.notify(lazy(0));
      box.notify(lazy(1, () => ({ n: 1, text: 'x'.repeat(200_000) })));
      box.notify(lazy(2));
      await turn();
      expect(delivered()).toEqual([0, 1, 2]);
      expect(written).toHaveLength(3);
    });

    it('hands them back made when the link is gone', async () => {
      const { box, unsent, breakLink } = outbox();
      box.notify(note(0));
      box.notify(lazy(1));
      breakLink();
      await turn();
      expect(unsent).toEqual([[note(0), note(1)]]);
      box.notify(lazy(2));
      box.strand();
      expect(unsent[1]).toEqual([note(2)]);
    });

    it('writes at once when a thousand wait, without making the app wait for a timer', () => {
      const { box, written, delivered } = outbox();
      for (let n = 0; n < Limits.maxBatchFrames; n++) box.notify(lazy(n));
      expect(written).toHaveLength(1);
      expect(delivered()).toHaveLength(Limits.maxBatchFrames);
    });
  });
});
