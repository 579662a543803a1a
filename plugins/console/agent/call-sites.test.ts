import { afterEach, describe, expect, it } from 'vitest';
import { startPlugin } from '../../../electron/host/plugin-testing.js';
import { waitFor } from '../../../electron/host/testing.js';
import consoleHost from '../host/index.js';
import { consolePlugin } from './index.js';

// The agent in this process, its console.log quiet: a burst far beyond the old 1000/s call-site cap.

const quiet = globalThis.console.log;
afterEach(() => {
  globalThis.console.log = quiet;
});

describe('call sites', () => {
  it('are taken for every message of a burst, each at its own line; the panel rows carry them with %c and objects', async () => {
    globalThis.console.log = () => {};
    const plugin = consolePlugin({ methods: ['log'], errors: false });
    // The agent part knows only the wire half of the protocol (no panel): the same plugin to the kit.
    const t = await startPlugin(consoleHost, plugin as never);
    try {
      for (let i = 0; i < 3000; i++) {
        if (i % 2) console.log('odd', i);
        else console.log('even', i);
      }
      console.log('%cstyled', 'color: red', { id: 1 });
      plugin.flush();
      const host = t.host;
      await waitFor(() => host.store.size >= 3001 || undefined, 'the burst', 15_000);
      const entries = host.store.all();
      const file = import.meta.filename.replace(/\\/g, '/');
      expect(entries.filter((e) => e.callSite).length).toBe(entries.length);
      for (const e of entries) expect(e.callSite?.file.replace(/^file:\/\//, '')).toContain(file.split('/').pop());
      const odd = entries.find((e) => e.text.startsWith('odd'))!.callSite!.line;
      const even = entries.find((e) => e.text.startsWith('even'))!.callSite!.line;
      expect(Math.abs(odd - even)).toBe(1);
      const burst = entries.filter((e) => /^(odd|even)/.test(e.text));
      expect(burst).toHaveLength(3000);
      expect(burst.every((e) => e.callSite!.line === (e.text.startsWith('odd') ? odd : even))).toBe(true);

      const page = await t.panel.call('list', { afterSeq: 2999, limit: 10 });
      const styled = page.messages.find((m) => m.text.startsWith('styled'))!;
      expect(styled).toMatchObject({ styles: [[0, 'color: red']], expandable: true });
      expect(styled.site).toMatch(/call-sites\.test\.ts:\d+:\d+$/);
    } finally {
      await t.stop();
    }
  });

  it('under maxCallSitesPerSecond, the first messages of a window carry their own line and the rest none', async () => {
    globalThis.console.log = () => {};
    const plugin = consolePlugin({ methods: ['log'], errors: false, maxCallSitesPerSecond: 50 });
    const t = await startPlugin(consoleHost, plugin as never);
    try {
      for (let i = 0; i < 20; i++) console.log('capped', i);
      plugin.flush();
      const host = t.host;
      await waitFor(() => host.store.size >= 20 || undefined, 'the capped burst');
      const sites = host.store.all().map((e) => e.callSite);
      const line = sites[0]?.line;
      expect(sites.slice(0, 5).every((s) => s?.line === line && s?.file.includes('call-sites.test'))).toBe(true);
      expect(sites.filter((s) => s === undefined).length).toBeGreaterThanOrEqual(10);
    } finally {
      await t.stop();
    }
  });

  it('past maxQueue counts what it drops, and an uncaught error still gets in, with its stack and the call sites of the rest', async () => {
    globalThis.console.log = () => {};
    const plugin = consolePlugin({ methods: ['log'], maxQueue: 5 });
    const t = await startPlugin(consoleHost, plugin as never);
    try {
      for (let i = 0; i < 8; i++) console.log('n', i);
      // What Node emits before an uncaught exception's handlers (the agent only observes it).
      const emit = process.emit.bind(process) as (event: string, ...args: unknown[]) => boolean;
      emit('uncaughtExceptionMonitor', new Error('boom'), 'uncaughtException');
      const host = t.host;
      await waitFor(() => host.store.size >= 5 || undefined, 'the queue and the error');
      const entries = host.store.all();
      expect(entries.map((e) => e.text)).toEqual(['n 1', 'n 2', 'n 3', 'n 4', expect.stringContaining('boom')]);
      expect(entries.slice(0, 4).every((e) => e.callSite?.file.includes('call-sites.test'))).toBe(true);
      expect(JSON.stringify(entries[4]!.stack)).toContain('call-sites.test');
      expect(host.store.stats()).toMatchObject({ droppedByApp: 3 });
    } finally {
      await t.stop();
    }
  });
});
