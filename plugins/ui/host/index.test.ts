import { describe, expect, it } from 'vitest';
import { startPlugin } from '../../../electron/host/plugin-testing.js';
import { ui } from '../agent/index.js';
import uiPlugin from './index.js';

// The ui plugin in a Node app (this test process): no DOM, so seeing and acting fail with what to
// do instead, while ui_evaluate runs code in the process. The browser side is e2e/ui-*.spec.ts.

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

/** Answers every permission question the window is asked with `answer`. */
function answerAsks(t: Awaited<ReturnType<typeof startPlugin>>, answer: 'allow-once' | 'deny') {
  const asked: { tool: string; change: string; destructive: boolean }[] = [];
  const off = t.core.bus.on('permission:ask', ({ ask }) => {
    asked.push(ask);
    t.core.permissions.answer(ask.id, answer);
  });
  return { asked, off };
}

describe('the ui plugin in a Node app', () => {
  it('refuses to outline, act, navigate or capture an app without a DOM, saying what to use instead', async () => {
    const t = await startPlugin(uiPlugin, ui());
    await t.panel.waitForEvent('page', (p) => p.runtime === 'none');
    for (const [tool, args] of [
      ['ui_snapshot', {}],
      ['ui_act', { action: 'click', ref: 'e1' }],
      ['ui_navigate', { to: 'reload' }],
      ['ui_wait_for', { text: 'Saved' }],
    ] as const) {
      const answer = await t.mcp.call(tool, args);
      expect(answer.isError, tool).toBe(true);
      expect(answer.text, tool).toMatch(/no UI to see or act on: it runs without a DOM.*ui_evaluate.*actions_list/);
    }
    const shot = await t.mcp.call('ui_screenshot');
    expect(shot.isError).toBe(true);
    expect(shot.text).toMatch(/no DOM to capture.*ui\(\{ screenshot \}\)/);
  });

  it("captures through the app's screenshot hook", async () => {
    const t = await startPlugin(
      uiPlugin,
      ui({ screenshot: () => ({ base64: PNG, mimeType: 'image/png', width: 1, height: 1 }) }),
      { app: { id: 'com.test.service', name: 'Service' } },
    );
    const shot = await t.mcp.call('ui_screenshot');
    expect(shot.content).toEqual([
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'text', text: 'Screenshot of Service (1×1)' },
    ]);
  });

  it('refuses a screenshot whose bytes are not what its MIME type says', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]).toString('base64');
    const html = Buffer.from('<svg onload=alert(1)>').toString('base64');
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['a JPEG labelled PNG', { base64: jpeg, mimeType: 'image/png' }, /labelled image\/png but its bytes are a JPEG/],
      ['markup labelled WebP', { base64: html, mimeType: 'image/webp' }, /bytes are not a PNG, JPEG or WebP image/],
      ['not base64', { base64: '%%%not base64%%%', mimeType: 'image/jpeg' }, /not base64/],
    ];
    for (const [what, shot, message] of cases) {
      const t = await startPlugin(uiPlugin, ui({ screenshot: () => shot as never }));
      const refused = await t.mcp.call('ui_screenshot');
      expect(refused.isError, what).toBe(true);
      expect(refused.text, what).toMatch(message);
      expect(refused.text, what).toContain('ui({ screenshot }) hook must return');
      expect(
        refused.content.some((c) => c.type === 'image'),
        what,
      ).toBe(false);
      await t.stop();
    }
    const t = await startPlugin(uiPlugin, ui({ screenshot: () => ({ base64: jpeg, mimeType: 'image/jpeg' }) }));
    expect((await t.mcp.call('ui_screenshot')).content[0]).toMatchObject({ mimeType: 'image/jpeg' });
  });

  it('evaluates code in the process: values, promises, errors, cycles, huge values, busy loops', async () => {
    const t = await startPlugin(uiPlugin, ui());
    const run = async (expression: string, extra: Record<string, unknown> = {}) =>
      t.window.run('ui_evaluate', { expression, ...extra });
    (globalThis as { portholeTestState?: unknown }).portholeTestState = { cart: { items: 2, total: 12.5 } };
    try {
      expect((await run('portholeTestState.cart')).structuredContent).toEqual({
        summary: expect.any(String),
        value: { items: 2, total: 12.5 },
        ms: expect.any(Number),
      });
      expect((await run('{ a: 1, b: [1, 2] }')).structuredContent?.value).toEqual({ a: 1, b: [1, 2] });
      expect((await run('const x = 6; x * 7')).structuredContent?.value).toBe(42);
      expect((await run('await new Promise((r) => setTimeout(() => r("later"), 20))')).structuredContent?.value).toBe(
        'later',
      );
      expect((await run('new Map([["k", 1]])')).structuredContent?.value).toEqual({
        $: 'map',
        entries: [['k', 1]],
        size: 1,
      });
      expect((await run('undefined')).structuredContent?.value).toEqual({ $: 'undefined' });

      const cycle = (await run('const o = { name: "o" }; o.self = o; o')).structuredContent?.value;
      expect(cycle).toEqual({ name: 'o', self: { $: 'circular' } });

      const huge = await run('"x".repeat(100 * 1024 * 1024)');
      expect(huge.isError).toBe(false);
      expect(huge.structuredContent?.value).toMatchObject({ $: 'string', length: 100 * 1024 * 1024 });
      expect(JSON.stringify(huge.structuredContent).length).toBeLessThan(25_000);

      const many = await run('Array.from({ length: 100000 }, (_, i) => ({ i, text: "row " + i }))');
      expect(JSON.stringify(many.structuredContent).length).toBeLessThan(25_000);

      const thrown = await run('null.property');
      expect(thrown.isError).toBe(true);
      expect(thrown.text).toMatch(/^the code threw: TypeError: Cannot read properties of null/);

      const rejected = await run('Promise.reject(new RangeError("out of stock"))');
      expect(rejected.text).toMatch(/the code threw: RangeError: out of stock/);

      const syntax = await run('this is not javascript');
      expect(syntax.text).toMatch(/could not run the code: SyntaxError/);

      const started = Date.now();
      const never = await run('new Promise(() => {})', { timeoutMs: 300 });
      expect(never.text).toMatch(/did not settle within 300 ms/);
      const busy = await run('while (true) {}', { timeoutMs: 300 });
      expect(busy.isError).toBe(true);
      expect(busy.text).toMatch(/did not settle within 300 ms/);
      expect(Date.now() - started).toBeLessThan(5000);

      // The app kept answering: the busy loop was stopped at its timeout.
      expect((await run('1 + 1')).structuredContent?.value).toBe(2);
    } finally {
      delete (globalThis as { portholeTestState?: unknown }).portholeTestState;
    }
  });

  it('asks the person before an agent evaluates, records the code, and hides it in read-only mode', async () => {
    const t = await startPlugin(uiPlugin, ui());
    const asks = answerAsks(t, 'allow-once');
    const allowed = await t.mcp.call('ui_evaluate', { expression: '[1, 2, 3].length' });
    expect(allowed.structuredContent?.value).toBe(3);
    expect(asks.asked).toMatchObject([
      { tool: 'ui_evaluate', change: 'Run this code in the app: [1, 2, 3].length', destructive: true },
    ]);
    const calls = t.core.history.list();
    expect(calls[0]).toMatchObject({ tool: 'ui_evaluate', status: 'succeeded', decision: { outcome: 'allowed' } });
    expect(t.core.history.get(calls[0]!.id)?.args).toMatchObject({ expression: '[1, 2, 3].length' });
    asks.off();

    const denied = answerAsks(t, 'deny');
    const refused = await t.mcp.call('ui_evaluate', { expression: 'process.exit(1)' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/declined ui_evaluate/);
    denied.off();

    t.core.permissions.set({ ...t.core.permissions.policy(), readOnly: true });
    const names = (await t.mcp.tools()).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['ui_snapshot', 'ui_wait_for', 'ui_screenshot']));
    for (const hidden of ['ui_evaluate', 'ui_act', 'ui_navigate']) expect(names).not.toContain(hidden);

    // What was evaluated is on the session's timeline and in the panel's log.
    const timeline = t.core.plugins.timeline(t.sessionId).query({ plugins: ['ui'], limit: 10 });
    expect(timeline.entries.map((e) => [e.kind, e.summary, e.level])).toEqual([
      ['evaluate', 'evaluate [1, 2, 3].length', 'info'],
    ]);
    expect((await t.panel.call('actions', {})).entries).toMatchObject([
      { tool: 'evaluate', ok: true, result: '3', surface: 'porthole-test-client' },
    ]);
  });

  it('refuses ui_evaluate in an app that turned it off', async () => {
    const t = await startPlugin(uiPlugin, ui({ evaluate: false }));
    const answer = await t.window.run('ui_evaluate', { expression: '1' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/refuses ui_evaluate \(it passes ui\(\{ evaluate: false \}\)\)/);
  });
});
