import { join } from 'node:path';
import type { ControlServer } from '../control-server.js';
import { loadOrCreateSecretFile } from '../secrets.js';
import { serveRenderer } from './static-ui.js';
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
  /** The token in the UI URL (default: `<data-dir>/ui-token`, made on first run, mode 0600). */
  token?: string;
}

export interface InstalledUi {
  bridge: UiBridge;
  token: string;
  /** The URL to open, token included (headless), from the control server's base URL. */
  url(controlUrl: string): string;
  close(): void;
}

/** Wires the window's bridge to the core; in headless mode also serves the window and `/bridge`. */
export function installUi(
  control: ControlServer,
  deps: Omit<UiBridgeDeps, 'mode'> & { dataDir: string },
  options: UiOptions = {},
): InstalledUi {
  const mode = options.mode ?? 'headless';
  let token = options.token;
  // Read when first needed (the data dir is made at start); kept across runs so an open window reconnects.
  const getToken = () => (token ??= loadOrCreateSecretFile(join(deps.dataDir, 'ui-token')));
  const bridge = new UiBridge({ ...deps, mode });
  let endpoint: { close(): void } | undefined;
  if (mode === 'headless') {
    serveRenderer(control, options.rendererDir);
    endpoint = attachBridgeEndpoint(control, bridge, getToken);
  }
  return {
    bridge,
    get token() {
      return getToken();
    },
    url: (controlUrl) => `${controlUrl}/?token=${encodeURIComponent(getToken())}`,
    close() {
      bridge.close();
      endpoint?.close();
    },
  };
}
