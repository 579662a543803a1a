import { describe, expect, it } from 'vitest';
import { startPlugin } from '../../../electron/host/plugin-testing.js';
import { example } from '../agent/index.js';
import examplePlugin from './index.js';

// A real 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

describe('the example plugin, through MCP, the window and its panel', () => {
  it('answers a ping with its output schema on every surface', async () => {
    const t = await startPlugin(examplePlugin, example());

    const mcp = await t.mcp.call('example_send_ping');
    expect(mcp.isError, mcp.text).toBe(false);
    expect(mcp.structuredContent).toEqual({
      summary: expect.stringMatching(/^The app answered the ping in [0-9.]+ ms\.$/),
      roundTripMs: expect.any(Number),
      agentTime: expect.any(Number),
    });
    expect((await t.mcp.tools()).find((tool) => tool.name === 'example_send_ping')?.outputSchema).toMatchObject({
      properties: { roundTripMs: { type: 'number' }, agentTime: { type: 'number' } },
    });

    const window = await t.window.run('example_send_ping');
    // The raw value is the handler's own; the structured answer adds the framework's summary.
    expect({ summary: expect.any(String), ...(window.raw as object) }).toEqual(window.structuredContent);
    expect(t.core.history.list()).toMatchObject([
      { tool: 'example_send_ping', surface: 'ui', status: 'succeeded' },
      { tool: 'example_send_ping', surface: 'mcp-http', status: 'succeeded' },
    ]);

    const panel = await t.panel.call('ping', {});
    expect(panel.roundTripMs).toBeGreaterThanOrEqual(0);
    expect(panel.agentTime).toBeLessThanOrEqual(Date.now());
  });

  it('echoes text through the app, and refuses a bad argument without asking it', async () => {
    const t = await startPlugin(examplePlugin, example());
    const text = 'hello ✓ '.repeat(1000);
    expect((await t.mcp.call('example_echo', { text })).text).toBe(text);
    expect((await t.window.run('example_echo', { text: 'from the window' })).text).toBe('from the window');

    const bad = await t.mcp.call('example_echo', { text: 42 });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/example_echo.*text/);
  });

  it('says how to get screenshots from an app without a DOM, and shows the image of one with a hook (the panel)', async () => {
    const noDom = await startPlugin(examplePlugin, example());
    await expect(noDom.panel.call('captureScreenshot', {})).rejects.toThrow(
      /no DOM.*example\(\{ captureScreenshot \}\)/,
    );
    // The agent's screenshots are ui_screenshot's (the ui plugin); the example's hook serves its panel.
    expect((await noDom.mcp.tools()).map((tool) => tool.name).filter((name) => name.startsWith('example_'))).toEqual([
      'example_send_ping',
      'example_echo',
    ]);
    await noDom.stop();

    const shot = { base64: PNG, mimeType: 'image/png', width: 1, height: 1 } as const;
    const t = await startPlugin(examplePlugin, example({ captureScreenshot: () => shot }));
    expect(await t.panel.call('captureScreenshot', {})).toEqual(shot);
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
      const t = await startPlugin(examplePlugin, example({ captureScreenshot: () => shot as never }));
      await expect(t.panel.call('captureScreenshot', {}), what).rejects.toThrow(message);
      await t.stop();
    }
    const t = await startPlugin(
      examplePlugin,
      example({ captureScreenshot: () => ({ base64: jpeg, mimeType: 'image/jpeg' }) }),
    );
    expect(await t.panel.call('captureScreenshot', {})).toMatchObject({ mimeType: 'image/jpeg' });
  });

  it("brings the app's log entries to the panel, live and kept after the app is gone", async () => {
    const t = await startPlugin(examplePlugin, example());
    t.agent.log('warn', 'disk almost full', { free: 3 });
    expect(await t.panel.waitForEvent('log')).toMatchObject({
      level: 'warn',
      message: 'disk almost full',
      data: { free: 3 },
    });

    for (let i = 0; i < 1005; i++) t.agent.log('info', `entry ${i}`);
    await t.panel.waitForEvent('log', (entry) => entry.message === 'entry 1004');
    await t.disconnect();
    const { entries } = await t.panel.call('log', {});
    expect(entries).toHaveLength(1000); // the newest 1000
    expect(entries[0]!.message).toBe('entry 5');
    expect(entries.at(-1)!.message).toBe('entry 1004');
    expect(t.host.log()).toEqual(entries);
  });

  it('refuses a malformed log entry from the app: nothing reaches the host or the panel', async () => {
    const t = await startPlugin(examplePlugin, example());
    t.sendEvent('log', { level: 'loud', message: 'not a level', time: 0 } as never);
    t.sendEvent('log', { level: 'info', message: 'the next one arrives', time: 1 });
    await t.panel.waitForEvent('log');
    expect(t.panel.events.map((e) => e.data.message)).toEqual(['the next one arrives']);
    expect(t.host.log()).toHaveLength(1);
  });
});
