import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BRIDGE_PATH, MAX_BRIDGE_FRAME_BYTES } from '../../../shared/bridge.js';
import { cleanupAfterEach } from '../test-cleanup.js';
import { startTestCore, waitFor } from '../testing.js';
import { uiCookie } from './bridge-testing.js';

const defer = cleanupAfterEach();

async function openBridge() {
  const t = await startTestCore();
  defer(() => t.stop());
  const url = `${t.urls.controlUrl.replace('http', 'ws')}${BRIDGE_PATH}`;
  const ws = new WebSocket(url, { headers: { cookie: (await uiCookie(t.urls.controlUrl, t.core.ui.token))! } });
  defer(() => ws.terminate());
  const frames: Record<string, unknown>[] = [];
  let closed: number | undefined;
  ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
  ws.on('close', (code) => (closed = code));
  ws.on('error', () => {});
  await new Promise((resolve) => ws.once('open', resolve));
  return { t, ws, frames, closed: () => closed };
}

describe('the UI bridge WebSocket endpoint', () => {
  it('closes with 1009 on a frame over the bridge limit, and the core keeps serving', async () => {
    const { t, ws, closed } = await openBridge();
    ws.send('x'.repeat(MAX_BRIDGE_FRAME_BYTES + 1));
    expect(await waitFor(closed, 'the bridge to close', 10_000)).toBe(1009);
    expect((await fetch(`${t.urls.controlUrl}/healthz`)).status).toBe(200);
  });

  it('answers a deeply nested frame with a frame-error that does not quote it', async () => {
    const { ws, frames, closed } = await openBridge();
    ws.send(`{"type":"request","id":"r1","method":"snapshot","params":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
    const error = await waitFor(() => frames.find((f) => f.type === 'frame-error'), 'a frame-error');
    expect(error.message).toContain('deeper than 64');
    expect(JSON.stringify(error).length).toBeLessThan(500);
    expect(closed()).toBeUndefined();
  });
});
