import type { ControlServer } from '../control-server.js';
import { serveRenderer } from './static-ui.js';
import { UiAuth } from './ui-auth.js';
import { UiBridge, type UiBridgeDeps } from './ui-bridge.js';
import { attachBridgeEndpoint } from './ws-endpoint.js';

export { rendererCsp } from './static-ui.js';
export type { BridgeConnection } from './ui-bridge.js';
export { UiBridge } from './ui-bridge.js';

export interface UiOptions {
  /** `headless` serves the window and its WebSocket bridge on the control server; `desktop` leaves that to Electron IPC. */
  mode?: 'headless' | 'desktop';
  /** The built renderer (default `out/renderer/`). */
  rendererDir?: string;
  /** A new UI key at start (`--new-ui-token`): windows of earlier runs must open a new link. */
  newKey?: boolean;
}

export interface InstalledUi {
  bridge: UiBridge;
  /** The one-time token of the link to open now (the one in `url`); replaced once it is used. */
  readonly token: string;
  /** The link to open now, token included (headless), from the control server's base URL. */
  url(controlUrl: string): string;
  /** A new UI key: every window's access ends (their bridges close), every unused link stops working. */
  rotate(): void;
  /** The published link changed (used or rotated): `url()` gives the next one. */
  onUrlChanged(listener: () => void): () => void;
  /** The UI key and the unused link tokens, for redaction. */
  secrets(): string[];
  close(): void;
}

/** Wires the window's bridge to the core; in headless mode also serves the window and `/bridge`. */
export function installUi(
  control: ControlServer,
  deps: Omit<UiBridgeDeps, 'mode' | 'access'> & { dataDir: string },
  options: UiOptions = {},
): InstalledUi {
  const mode = options.mode ?? 'headless';
  const auth = new UiAuth(deps.dataDir);
  let endpoint: { close(): void; closeAll(): void } | undefined;
  const rotate = () => {
    auth.rotate();
    // After the current turn: the window that asked gets its answer before its bridge closes.
    setImmediate(() => endpoint?.closeAll());
  };
  const bridge = new UiBridge({
    ...deps,
    mode,
    access:
      mode === 'headless'
        ? {
            newLink: () => {
              rotate();
              return `/?token=${encodeURIComponent(auth.issue())}`;
            },
          }
        : undefined,
  });
  if (mode === 'headless') {
    serveRenderer(control, options.rendererDir, auth);
    endpoint = attachBridgeEndpoint(control, bridge, auth);
  }
  let keyed = false;
  return {
    bridge,
    get token() {
      if (!keyed) {
        // The key is read (or made, or renewed) when first needed: the data dir exists by then.
        keyed = true;
        if (options.newKey) auth.rotate();
        else void auth.uiKey;
      }
      return auth.linkToken;
    },
    url(controlUrl) {
      return `${controlUrl}/?token=${encodeURIComponent(this.token)}`;
    },
    rotate,
    onUrlChanged: (listener) => auth.onChange(listener),
    secrets: () => auth.secrets(),
    close() {
      bridge.close();
      endpoint?.close();
    },
  };
}
