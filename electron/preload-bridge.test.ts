import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BRIDGE_IPC, type ServerFrame, ServerFrameSchema } from '../shared/bridge.js';
import { cleanupAfterEach } from './host/test-cleanup.js';
import { startTestCore, waitFor } from './host/testing.js';
import { uiCookie } from './host/ui-bridge/bridge-testing.js';
import { createPreloadBridge } from './preload-bridge.js';

/** Electron's IPC reduced to what it is: named channels between the page and the main process. */
function ipcPair() {
  const toMain = new EventEmitter();
  const toPage = new EventEmitter();
  return {
    renderer: {
      send: (channel: string, frame: unknown) => toMain.emit(channel, {}, structuredClone(frame)),
      on: (channel: string, listener: (e: unknown, f: unknown) => void) => toPage.on(channel, listener),
      removeListener: (channel: string, listener: (e: unknown, f: unknown) => void) =>
        toPage.removeListener(channel, listener),
    },
    main: {
      on: (channel: string, listener: (e: unknown, f: unknown) => void) => toMain.on(channel, listener),
      send: (channel: string, frame: unknown) => toPage.emit(channel, {}, structuredClone(frame)),
    },
  };
}

describe('preload bridge', () => {
  const defer = cleanupAfterEach();

  it('carries the same frames as the WebSocket bridge, validated by the same contract', async () => {
    const t = await startTestCore();
    defer(() => t.stop());

    // Desktop: preload ⇄ IPC ⇄ the core's bridge.
    const ipc = ipcPair();
    const connection = t.core.ui.bridge.connect((frame) => ipc.main.send(BRIDGE_IPC.toWindow, frame));
    ipc.main.on(BRIDGE_IPC.toCore, (_e, frame) => connection.receive(frame));
    const preload = createPreloadBridge(ipc.renderer);
    const viaIpc: ServerFrame[] = [];
    const unsubscribe = preload.onFrame((frame) => viaIpc.push(frame));
    preload.send({ type: 'request', id: '1', method: 'app.snapshot', params: {} });
    const ipcReply = await waitFor(() => viaIpc.find((f) => f.type === 'reply'), 'the IPC reply');

    // Headless: the WebSocket bridge with the cookie a browser gets for opening the UI link.
    const cookie = (await uiCookie(t.urls.controlUrl, new URL(t.urls.uiUrl).searchParams.get('token')!))!;
    const ws = new WebSocket(`${t.urls.controlUrl.replace('http', 'ws')}/bridge`, { headers: { cookie } });
    const viaWs: ServerFrame[] = [];
    ws.on('message', (data) => viaWs.push(JSON.parse(data.toString())));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'request', id: '1', method: 'app.snapshot', params: {} }));
    const wsReply = await waitFor(() => viaWs.find((f) => f.type === 'reply'), 'the WebSocket reply');
    ws.close();

    for (const reply of [ipcReply, wsReply]) expect(ServerFrameSchema.safeParse(reply).success).toBe(true);
    expect(ipcReply).toMatchObject({ type: 'reply', id: '1', ok: true });
    const strip = (r: ServerFrame) => ({ ...(r as { result: Record<string, unknown> }).result, mode: undefined });
    expect(strip(ipcReply)).toEqual(strip(wsReply));

    unsubscribe();
    connection.close();
  });

  it('refuses to send anything that is not a bridge frame', () => {
    const sent: unknown[] = [];
    const preload = createPreloadBridge({ send: (_c, f) => sent.push(f), on: () => {}, removeListener: () => {} });
    expect(() => preload.send({ type: 'eval', code: 'process.exit()' } as never)).toThrow(/not a bridge frame/);
    expect(sent).toEqual([]);
  });

  it('exposes exactly send and onFrame', () => {
    const preload = createPreloadBridge({ send: () => {}, on: () => {}, removeListener: () => {} });
    expect(Object.keys(preload).sort()).toEqual(['onFrame', 'send']);
  });
});
