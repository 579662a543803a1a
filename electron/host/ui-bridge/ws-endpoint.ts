import type { IncomingMessage } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import { BRIDGE_PATH, MAX_BRIDGE_FRAME_BYTES } from '../../../shared/bridge.js';
import { type ControlServer, isLoopbackHost } from '../control-server.js';
import { refuseUpgrade } from '../upgrade-refusal.js';
import { cookieValue, type UiAuth, uiCookieName } from './ui-auth.js';
import type { UiBridge } from './ui-bridge.js';

/** A window that stops reading is cut off (it reconnects and reloads its state) rather than filling memory. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

export const BridgeClose = { slowConsumer: 4008, accessEnded: 4009, shuttingDown: 1001 } as const;

/**
 * The headless window's bridge: a WebSocket at `/bridge` on the control server. Only pages with the
 * session cookie (from opening a one-time UI link) that come from the control server's own origin
 * get in.
 */
export function attachBridgeEndpoint(
  control: ControlServer,
  bridge: UiBridge,
  auth: UiAuth,
): { close(): void; closeAll(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BRIDGE_FRAME_BYTES });
  control.onUpgrade(BRIDGE_PATH, (req, socket, head) => {
    const refusal = refuse(req, auth);
    if (refusal) return refuseUpgrade(socket, refusal.status, refusal.message);
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, bridge));
  });
  // Browsers hide why an upgrade failed; the window asks here to tell a lost access from a dead inspector.
  control.route(BRIDGE_PATH, (req, res) => {
    const refusal = refuse(req, auth);
    const status = refusal?.status ?? 204;
    res.writeHead(status, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end(refusal?.message);
  });
  const closeAll = (code: number, reason: string) => {
    for (const ws of wss.clients) ws.close(code, reason);
  };
  return {
    close() {
      closeAll(BridgeClose.shuttingDown, 'the inspector is shutting down');
      wss.close();
    },
    closeAll: () => closeAll(BridgeClose.accessEnded, 'the UI key was renewed: open the new link'),
  };
}

function refuse(req: IncomingMessage, auth: UiAuth): { status: 401 | 403; message: string } | undefined {
  if (!auth.validCookie(cookieValue(req.headers.cookie, uiCookieName(req.headers.host)))) {
    return {
      status: 401,
      message:
        "this browser has no access to the inspector's window (links work once, and a new UI key ends every access): open the current link, which `porthole ui` opens and <data-dir>/instance.json holds",
    };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !sameLoopbackOrigin(origin, req.headers.host)) {
    return { status: 403, message: `origin ${origin} may not open the inspector's bridge` };
  }
  return undefined;
}

/** A browser page's Origin must be the control server itself (same loopback host and port as Host). */
function sameLoopbackOrigin(origin: string, host: string | undefined): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && isLoopbackHost(url.host) && !!host && url.host === host;
  } catch {
    return false;
  }
}

function accept(ws: WebSocket, bridge: UiBridge): void {
  const connection = bridge.connect((frame) => {
    if (ws.readyState !== WebSocket.OPEN) throw new Error('the window is gone');
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.close(BridgeClose.slowConsumer, 'the window is not keeping up; reconnect to reload');
      throw new Error('the window is not keeping up');
    }
    ws.send(JSON.stringify(frame));
  });
  ws.on('message', (data, isBinary) => {
    connection.receive(isBinary ? '\u0000binary' : data.toString());
  });
  // ws closes by itself after an error: with 1009 for a frame over maxPayload, so the window learns why.
  ws.on('error', () => {});
  ws.on('close', () => connection.close());
}
