// The desktop window's security settings in one place: main.ts applies them and tests assert them.
// No `electron` import here, so this file is checked without the Electron binary.
import { rendererCsp } from './host/ui-bridge/static-ui.js';

/** The window's pages are served from this privileged scheme, so they have a real origin and a CSP header. */
export const APP_SCHEME = 'porthole';
export const APP_ORIGIN = `${APP_SCHEME}://app`;
export const APP_ENTRY = `${APP_ORIGIN}/index.html`;

/** The window talks to the core only over IPC, so it may connect nowhere but its own origin. */
export const WINDOW_CSP = rendererCsp();

export const WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  spellcheck: false,
} as const;

export interface Bounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

export const DEFAULT_BOUNDS: Bounds = { width: 1280, height: 820 };

export function windowOptions(preload: string, bounds: Bounds) {
  return {
    ...bounds,
    minWidth: 800,
    minHeight: 500,
    title: 'Porthole',
    show: false,
    backgroundColor: '#14161c',
    webPreferences: { ...WEB_PREFERENCES, preload },
  };
}

/** Only the app's own pages may load in the window. */
export function isAppUrl(url: string): boolean {
  try {
    // URL.origin is "null" for custom schemes, so compare scheme and host.
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === 'app';
  } catch {
    return false;
  }
}

/** Web links, and the editors the console's source links open (its "Open sources in" setting). */
const EXTERNAL_SCHEMES = ['http:', 'https:', 'mailto:', 'vscode:', 'vscode-insiders:', 'cursor:', 'idea:', 'zed:'];

/** Links the window may hand to the system (browser, editor) instead of opening them itself. */
export function isExternalUrl(url: string): boolean {
  try {
    return EXTERNAL_SCHEMES.includes(new URL(url).protocol);
  } catch {
    return false;
  }
}
