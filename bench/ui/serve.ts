import { createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { contentTypeOf, resolveRendererFile } from '../../electron/host/ui-bridge/static-ui.js';

const ROOT = join(import.meta.dirname, '../..');
const OUT = join(ROOT, 'out/bench-ui');

/**
 * Builds bench/ui/network-table.html (the window's big lists in a bare page, `window.bench`) and
 * serves it on 127.0.0.1:0. Used by the bench scenario and by the e2e test of the table's scrolling.
 */
export async function serveBenchPage(): Promise<{ url: string; close(): Promise<void> }> {
  await build({
    root: join(ROOT, 'bench/ui'),
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: OUT, emptyOutDir: true, rollupOptions: { input: join(ROOT, 'bench/ui/network-table.html') } },
  });
  const server = createServer((req, res) => {
    const file = resolveRendererFile(OUT, new URL(req.url ?? '/', 'http://x').pathname);
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': contentTypeOf(file) });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/network-table.html`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
