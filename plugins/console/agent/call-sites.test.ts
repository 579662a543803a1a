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
});
