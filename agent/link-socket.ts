import { concatBytes } from '../shared/bytes.js';
import { inPage } from './in-page.js';
import { nodeImport } from './node-import.js';
import type { WebSocketConstructor, WebSocketLike } from './websocket.js';

// The link's socket (link.ts loads it after startup): which WebSocket, and how a binary message
// leaves. link-socket.native.ts is React Native's.

interface WsSocket extends WebSocketLike {
  send(data: string | Uint8Array, options?: { binary?: boolean; fin?: boolean }): void;
  /** ws's net.Socket (not public API: used only to write the fragments of a message at once). */
  _socket?: { cork?(): void; uncork?(): void } | null;
}
type WsConstructor = new (url: string, options: { generateMask(mask: Uint8Array): void }) => WsSocket;

/**
 * In Node, the `ws` package (a dependency of the agent), else Node's own WebSocket; elsewhere the
 * platform's. Node's own is undici's: its handshake goes through the app's global dispatcher (a
 * proxy the app set, Porthole's own mock path) and, after an inspector restart, was seen to stay
 * connecting for good; `ws` opens its own socket and writes a large body as fragments, unmasked.
 */
export async function resolveWebSocket(given?: WebSocketConstructor): Promise<WebSocketConstructor> {
  if (given) return given;
  const native = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (native && !isNode()) return native;
  try {
    const mod = await nodeImport<{ default?: WebSocketConstructor; WebSocket?: WebSocketConstructor }>('ws');
    const WS = (mod.WebSocket ?? mod.default) as unknown as WsConstructor | undefined;
    // A client masks every frame (RFC 6455) against proxies that browser scripts could poison; in
    // Node it only costs the app's thread (2.8 MB per 2 MiB body captured), so the mask is zeros,
    // which ws then skips.
    if (WS)
      return function ZeroMaskWebSocket(url: string) {
        const socket = new WS(url, { generateMask: (mask: Uint8Array) => mask.fill(0) });
        // A large body goes out as it was read, in fragments of one message: never joined in the app.
        socket.sendParts = (parts) => {
          const raw = socket._socket;
          raw?.cork?.();
          try {
            for (let i = 0; i < parts.length; i++)
              socket.send(parts[i]!, { binary: true, fin: i === parts.length - 1 });
          } finally {
            raw?.uncork?.();
          }
        };
        return socket;
      } as unknown as WebSocketConstructor;
  } catch {
    // Node's own below, or the explanation
  }
  if (native) return native;
  throw new Error('porthole: no WebSocket here; install the "ws" package or pass connect({ WebSocket })');
}

/**
 * Sends one binary message made of `parts`; `blob`, when given, holds the same bytes as the parts
 * after the first (the header). A page sends a Blob: Chromium's WebSocket copies an ArrayBuffer
 * through the page's thread while it is written (a 1 MiB body held a 2 MiB download up by about
 * 100 ms), and reads a Blob apart from it.
 */
export function sendBinary(socket: WebSocketLike, parts: readonly Uint8Array[], blob?: Blob): void {
  if (inPage()) socket.send(new Blob((blob ? [parts[0]!, blob] : parts) as BlobPart[]));
  else if (socket.sendParts) socket.sendParts(parts);
  else socket.send(concatBytes(parts));
}

/** Node (or a runtime that poses as it) without a DOM: an Electron renderer or a page keeps its own WebSocket. */
function isNode(): boolean {
  const g = globalThis as { process?: { versions?: { node?: string } }; document?: unknown };
  return typeof g.process?.versions?.node === 'string' && g.document === undefined;
}
