import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ControlServer } from '../control-server.js';
import { writeFileAtomic } from '../data-dir.js';
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
  const getToken = () => (token ??= loadOrCreateUiToken(deps.dataDir));
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

/** The window's token in `<data-dir>/ui-token` (0600), made on first run. */
function loadOrCreateUiToken(dataDir: string): string {
  const path = join(dataDir, 'ui-token');
  try {
    const existing = readFileSync(path, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // none yet
  }
  const token = randomBytes(24).toString('base64url');
  writeFileAtomic(path, `${token}\n`, 0o600);
  return token;
}
