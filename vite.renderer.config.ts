import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The inspector window. `npm run build:renderer` writes it to out/renderer/ (served by the core in headless mode). */
export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./out/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // No inline scripts or data: modules: the window's CSP allows only 'self'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
