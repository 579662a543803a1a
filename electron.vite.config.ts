import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

// `npm run build:electron`: the main process, the CLI (`cli.js`, for `porthole mcp` from the
// desktop app), `porthole/client` (`client.js`) and the test integrations (`playwright.js`,
// `node.js`, `vitest.js`), with the core bundled in and npm dependencies left external (they ship
// in node_modules; the test runners are the user's own), and the sandboxed preload, which must be
// one CommonJS file.
// The window itself is built by renderer/vite.config.ts into out/renderer.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      sourcemap: true,
      externalizeDeps: { include: ['@playwright/test', 'vitest'] },
      rollupOptions: {
        input: {
          main: resolve(import.meta.dirname, 'electron/main.ts'),
          cli: resolve(import.meta.dirname, 'electron/host/cli-main.ts'),
          client: resolve(import.meta.dirname, 'electron/client/index.ts'),
          playwright: resolve(import.meta.dirname, 'electron/client/playwright.ts'),
          node: resolve(import.meta.dirname, 'electron/client/node.ts'),
          vitest: resolve(import.meta.dirname, 'electron/client/vitest.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      sourcemap: true,
      externalizeDeps: false,
      rollupOptions: {
        input: { preload: resolve(import.meta.dirname, 'electron/preload.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
});
