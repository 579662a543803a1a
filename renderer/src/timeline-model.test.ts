import { describe, expect, it } from 'vitest';
import type { TimelineEntry } from '../../shared/timeline.js';
import { filterTimeline, TimelineModel } from './timeline-model.js';

const entry = (time: number, ref: string, extra: Partial<TimelineEntry> = {}): TimelineEntry => ({
  time,
  plugin: 'network',
  kind: 'request',
  ref,
  summary: `GET /${ref}`,
  ...extra,
});

describe('the timeline model', () => {
  it('merges answers to the same entry, keeps time order and drops the oldest past its bound', () => {
    const model = new TimelineModel(3);
    model.merge([entry(10, 'a', { pending: true }), entry(20, 'b')]);
    expect(model.refreshSince(30)).toBe(10);
    model.merge([entry(10, 'a', { end: 15 }), entry(5, 'c', { plugin: 'console', kind: 'message' })]);
    expect(model.rows.map((r) => r.ref)).toEqual(['c', 'a', 'b']);
    expect(model.rows[1]).toMatchObject({ end: 15 });
    expect(model.refreshSince(30)).toBe(20);
    model.merge([entry(30, 'd')]);
    expect(model.rows.map((r) => r.ref)).toEqual(['a', 'b', 'd']);
    expect(model.dropped).toBe(1);
    // Seen again (a refresh from an older time), a dropped entry is still older than the rest kept.
    model.merge([entry(5, 'c', { plugin: 'console', kind: 'message' })]);
    expect(model.rows.map((r) => r.ref)).toEqual(['a', 'b', 'd']);
    expect(model.dropped).toBe(2);
  });

  it('does not hold the refresh open for a request pending for ages', () => {
    const model = new TimelineModel();
    model.merge([entry(0, 'stream', { pending: true }), entry(11 * 60_000, 'later')]);
    expect(model.refreshSince(11 * 60_000)).toBe(11 * 60_000);
  });

  it('filters by plugin, level and text, and counts per plugin', () => {
    const model = new TimelineModel();
    model.merge([
      entry(1, 'a', { level: 'error', summary: 'GET /cart → 500' }),
      entry(2, '1', { plugin: 'console', kind: 'message', level: 'warn', summary: 'Cart is slow' }),
      entry(3, '2', { plugin: 'console', kind: 'message', level: 'debug', summary: 'tick' }),
    ]);
    const refs = (f: Parameters<typeof filterTimeline>[1]) => filterTimeline(model.rows, f).map((r) => r.ref);
    expect(refs({ hidden: new Set(), text: '' })).toEqual(['a', '1', '2']);
    expect(refs({ hidden: new Set(), text: 'CART' })).toEqual(['a', '1']);
    expect(refs({ hidden: new Set(['network']), text: '' })).toEqual(['1', '2']);
    expect(refs({ hidden: new Set(), minLevel: 'warn', text: '' })).toEqual(['a', '1']);
    expect(refs({ hidden: new Set(), minLevel: 'error', text: 'cart' })).toEqual(['a']);
    expect(Object.fromEntries(model.countsByPlugin())).toEqual({ network: 1, console: 2 });
  });
});
