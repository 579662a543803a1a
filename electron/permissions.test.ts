import { describe, expect, it } from 'vitest';
import { windowMayUse } from './permissions.js';
import { APP_ENTRY, APP_ORIGIN } from './window-options.js';

describe('window permissions', () => {
  it('lets the window write to the clipboard for its copy buttons', () => {
    expect(windowMayUse('clipboard-sanitized-write', APP_ENTRY)).toBe(true);
    expect(windowMayUse('clipboard-sanitized-write', APP_ORIGIN)).toBe(true);
  });

  it('denies everything else, and everything to pages that are not the window', () => {
    for (const permission of [
      'media',
      'notifications',
      'geolocation',
      'clipboard-read',
      'openExternal',
      'hid',
      'usb',
    ]) {
      expect(windowMayUse(permission, APP_ENTRY), permission).toBe(false);
    }
    for (const url of ['https://evil.test/', 'file:///etc/passwd', 'porthole://other/index.html', '', undefined]) {
      expect(windowMayUse('clipboard-sanitized-write', url), String(url)).toBe(false);
    }
  });
});
