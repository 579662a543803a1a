import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ENTRY, isAppUrl, isExternalUrl, WINDOW_CSP, windowOptions } from './window-options.js';
import { loadWindowState, saveWindowState } from './window-state.js';

describe('desktop window options', () => {
  it('isolates the page: context isolation, sandbox, no Node integration, the preload only', () => {
    const options = windowOptions('/app/out/preload/preload.cjs', { width: 1000, height: 700 });
    expect(options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: '/app/out/preload/preload.cjs',
    });
  });

  it('has a strict CSP: nothing by default, scripts and connections only from itself, no eval', () => {
    const directives = Object.fromEntries(
      WINDOW_CSP.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    expect(directives['default-src']).toBe("'none'");
    expect(directives['script-src']).toBe("'self'");
    expect(directives['connect-src']).toBe("'self'");
    expect(directives['object-src']).toBe("'none'");
    expect(directives['frame-ancestors']).toBe("'none'");
    expect(WINDOW_CSP).not.toMatch(/unsafe-(eval|inline)|\*/);
  });

  it('lets the window navigate only within the app, and hands web links to the system browser', () => {
    expect(isAppUrl(APP_ENTRY)).toBe(true);
    expect(isAppUrl('porthole://app/assets/index.js')).toBe(true);
    for (const url of [
      'https://example.com',
      'file:///etc/passwd',
      'porthole://evil/x',
      'javascript:alert(1)',
      'nonsense',
    ]) {
      expect(isAppUrl(url)).toBe(false);
    }
    expect(isExternalUrl('https://example.com/docs')).toBe(true);
    expect(isExternalUrl('mailto:a@b.c')).toBe(true);
    // The console's source links open editors.
    expect(isExternalUrl('vscode://file/home/me/shop/src/cart.ts:12:5')).toBe(true);
    expect(isExternalUrl('idea://open?file=/p/a.ts&line=1')).toBe(true);
    expect(isExternalUrl('ms-msdt:/id PCWDiagnostic')).toBe(false);
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'porthole://app/'])
      expect(isExternalUrl(url)).toBe(false);
  });
});

describe('window state', () => {
  const display = { x: 0, y: 0, width: 1920, height: 1080 };

  it('remembers size and position, and drops a position that is off every display', () => {
    const dir = mkdtempSync(join(tmpdir(), 'porthole-window-'));
    try {
      expect(loadWindowState(dir, [display])).toEqual({ bounds: { width: 1280, height: 820 }, maximized: false });
      saveWindowState(dir, { bounds: { x: 100, y: 50, width: 900, height: 600 }, maximized: true });
      expect(loadWindowState(dir, [display])).toEqual({
        bounds: { x: 100, y: 50, width: 900, height: 600 },
        maximized: true,
      });
      saveWindowState(dir, { bounds: { x: 5000, y: 50, width: 900, height: 600 }, maximized: false });
      expect(loadWindowState(dir, [display]).bounds).toEqual({ width: 900, height: 600 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
