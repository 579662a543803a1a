import { readFileSync } from 'node:fs';
import { posix, resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

/**
 * The core starts worker threads from plain `.mjs` files beside the TypeScript that starts them
 * (`new URL('./x.mjs', import.meta.url)`, which works from source under tsx and vitest): each is
 * copied as it is beside the chunk its starter lands in, where the same URL finds it.
 */
function workerFiles(workers: Record<string, string>): Plugin {
  return {
    name: 'porthole-worker-files',
    generateBundle(_options, bundle) {
      for (const [starter, worker] of Object.entries(workers)) {
        const chunk = Object.values(bundle).find((c) => c.type === 'chunk' && c.moduleIds.includes(starter));
        if (!chunk) this.error(`${starter} is in no chunk: where does ${worker} go?`);
        this.emitFile({
          type: 'asset',
          fileName: posix.join(posix.dirname(chunk.fileName), posix.basename(worker)),
          source: readFileSync(worker, 'utf8'),
        });
      }
    },
  };
}

const sourceMaps = resolve(import.meta.dirname, 'electron/host/source-maps');

// `npm run build:electron`: the main process, the CLI (`cli.js`, for `porthole mcp` from the
// desktop app), `porthole/client` (`client.js`) and the test integrations (`playwright.js`,
// `node.js`, `vitest.js`), with the core bundled in and npm dependencies left external (they ship
// in node_modules; the test runners are the user's own), and the sandboxed preload, which must be
// one CommonJS file.
// The window itself is built by renderer/vite.config.ts into out/renderer.
export default defineConfig({
  main: {
    plugins: [workerFiles({ [resolve(sourceMaps, 'function-names.ts')]: resolve(sourceMaps, 'function-scan.mjs') })],
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
