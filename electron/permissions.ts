// What the desktop window may ask Chromium for. No `electron` import, so it is tested without the binary.
import { isAppUrl } from './window-options.js';

/**
 * The copy buttons write to the clipboard (navigator.clipboard.writeText); nothing else in the
 * window needs a permission. Camera, microphone, notifications, geolocation, devices, screen
 * capture, reading the clipboard… are all denied, whoever asks.
 */
export const WINDOW_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

/** Whether a page at `url` (or origin) may have `permission`: only the window's own pages, only what they need. */
export function windowMayUse(permission: string, url: string | undefined): boolean {
  return WINDOW_PERMISSIONS.has(permission) && url !== undefined && isAppUrl(url);
}
