import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../test-cleanup.js';
import { startTestCore } from '../testing.js';

// A 1×1 PNG, standing in for what Electron's capturePage returns in the desktop app.
const ONE_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('inspector_screenshot', () => {
  const defer = cleanupAfterEach();

  it('fails in headless mode, saying it needs the desktop app and what to use instead', async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    const { result, callId } = await t.core.tools.run('inspector_screenshot', {});
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('needs the Porthole desktop app'),
    });
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining('ui_screenshot') });
    expect(t.core.history.get(callId)).toMatchObject({ tool: 'inspector_screenshot', status: 'failed' });
  });

  it('returns the window capture as a PNG image in desktop mode', async () => {
    const t = await startTestCore({
      windowCapture: async () => ({ base64: ONE_PIXEL_PNG, width: 1, height: 1 }),
    });
    defer(() => t.stop());
    const { result } = await t.core.tools.run('inspector_screenshot', {});
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content).toContainEqual({ type: 'image', data: ONE_PIXEL_PNG, mimeType: 'image/png' });
  });

  it('turns a capture failure into a failed call with what to do', async () => {
    const t = await startTestCore({
      windowCapture: async () => {
        throw new Error('the inspector window is closed');
      },
    });
    defer(() => t.stop());
    const { result } = await t.core.tools.run('inspector_screenshot', {});
    expect(result).toMatchObject({ isError: true });
    expect(JSON.stringify(result.content)).toContain('the inspector window is closed; open the window and retry');
  });
});
