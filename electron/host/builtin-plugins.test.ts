import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { panels } from '../../renderer/src/panels.js';
import * as builtin from './builtin-plugins.js';
import { builtinPlugins } from './core.js';

const PLUGINS = fileURLToPath(new URL('../../plugins/', import.meta.url));

// The window finds a panel, and apps the agent part (@porthole/agent/<id>), by the plugin's folder:
// these checks keep every folder, export name and protocol id the same.
describe('built-in plugins', () => {
  it('are the host parts exported by builtin-plugins.ts, each under its protocol id', () => {
    expect(builtinPlugins).toEqual(Object.values(builtin));
    for (const [name, definition] of Object.entries(builtin)) expect(name).toBe(definition.protocol.id);
  });

  it('each has one folder with the layout by layer, and every plugin folder is built in', async () => {
    const ids = builtinPlugins.map((d) => d.protocol.id);
    expect(readdirSync(PLUGINS).sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const dir = join(PLUGINS, id);
      const entries = readdirSync(dir, { withFileTypes: true });
      expect(entries.filter((e) => e.isDirectory()).map((e) => e.name)).toEqual(['agent', 'host', 'panel']);
      // Beside protocol.ts only the contract's other files (shared rules) and the README.
      const files = entries.filter((e) => !e.isDirectory()).map((e) => e.name);
      expect(files).toEqual(expect.arrayContaining(['protocol.ts', 'README.md']));
      expect(files.filter((f) => f !== 'README.md' && !f.endsWith('.ts'))).toEqual([]);
      for (const entry of ['agent/index.ts', 'host/index.ts', 'panel/index.tsx']) {
        expect(existsSync(join(dir, entry)), `plugins/${id}/${entry}`).toBe(true);
      }
      const host = (await import(join(dir, 'host/index.ts'))) as { default: unknown };
      expect(host.default, `plugins/${id}/host/index.ts`).toBe(builtinPlugins.find((d) => d.protocol.id === id));
    }
  });

  it('each has the panel the window shows for it', () => {
    for (const { protocol } of builtinPlugins) expect(typeof panels[protocol.id], protocol.id).toBe('function');
    expect(Object.keys(panels).sort()).toEqual(builtinPlugins.map((d) => d.protocol.id).sort());
  });
});
