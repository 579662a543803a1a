// The preload's whole API, kept free of `electron` so the contract can be tested without the binary.
import { BRIDGE_IPC, ClientFrameSchema, type PreloadBridge, type ServerFrame } from '../shared/bridge.js';

/** The slice of `ipcRenderer` the bridge uses. */
export interface IpcLike {
  send(channel: string, frame: unknown): void;
  on(channel: string, listener: (event: unknown, frame: unknown) => void): void;
  removeListener(channel: string, listener: (event: unknown, frame: unknown) => void): void;
}

/**
 * Frames in, frames out — nothing else of Node or Electron reaches the page. Outgoing frames are
 * checked against the same zod contract the core enforces on the WebSocket bridge.
 */
export function createPreloadBridge(ipc: IpcLike): PreloadBridge {
  return {
    send(frame) {
      const parsed = ClientFrameSchema.safeParse(frame);
      if (!parsed.success) throw new Error(`not a bridge frame: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      ipc.send(BRIDGE_IPC.toCore, parsed.data);
    },
    onFrame(listener) {
      const handler = (_event: unknown, frame: unknown) => listener(frame as ServerFrame);
      ipc.on(BRIDGE_IPC.toWindow, handler);
      return () => ipc.removeListener(BRIDGE_IPC.toWindow, handler);
    },
  };
}
