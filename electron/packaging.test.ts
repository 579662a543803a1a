import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// `npm run dist` does not run in CI (no Electron binary here): this checks its config the way electron-builder does.
const require = createRequire(import.meta.url);
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config');
const { DebugLogger } = require('builder-util/out/DebugLogger');
const ROOT = resolve(import.meta.dirname, '..');

describe('electron-builder.yml', () => {
  it('is valid for electron-builder and locks every fuse but RunAsNode, which porthole mcp needs', async () => {
    const config = await getConfig(ROOT, resolve(ROOT, 'electron-builder.yml'), null);
    await validateConfiguration(config, new DebugLogger(false));
    expect(config.electronFuses).toEqual({
      runAsNode: true,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });
  });
});
