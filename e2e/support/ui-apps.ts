import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ROOT } from './inspector.js';
import { oncePerRun } from './run-once.js';

// The test apps of e2e/fixtures/ui-apps (a React to-do app, a React form, a plain kitchen-sink page,
// the shop), bundled with the real agent by esbuild once per run and served on
// 127.0.0.1:0 with the routes a test adds.

const APPS = ['todo', 'form', 'kitchen', 'shop', 'frame', 'big'] as const;
export type UiApp = (typeof APPS)[number];
const OUT = join(ROOT, 'out/e2e-ui-apps');

export function buildUiApps(): Promise<void> {
  return oncePerRun('ui-apps', async () => {
    await build({
      entryPoints: Object.fromEntries(
        APPS.map((app) => [
          app,
          join(ROOT, `e2e/fixtures/ui-apps/${app}.${app === 'todo' || app === 'form' ? 'tsx' : 'ts'}`),
        ]),
      ),
      bundle: true,
      format: 'esm',
      splitting: true,
      platform: 'browser',
      target: 'es2022',
      jsx: 'automatic',
      sourcemap: true,
      outdir: OUT,
      define: { 'process.env.NODE_ENV': '"development"' },
      logLevel: 'error',
    });
  });
}

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface ServedApps {
  origin: string;
  /** The app's page, connected to `inspector` (its debuggee URL), with more query parameters. */
  url(app: UiApp, inspector: string, query?: Record<string, string>): string;
  routes: Record<string, Route>;
  server: Server;
  close(): Promise<void>;
}

export async function serveUiApps(routes: Record<string, Route> = {}): Promise<ServedApps> {
  await buildUiApps();
  const all = { ...routes };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const route = all[path];
    if (route) return route(req, res);
    const page = /^\/(\w+)\.html$/.exec(path);
    if (page && (APPS as readonly string[]).includes(page[1]!)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${page[1]} app</title></head><body><div id="root"></div><script type="module" src="/${page[1]}.js"></script></body></html>`,
      );
      return;
    }
    try {
      const file = readFileSync(join(OUT, path.replace(/^\/+/, '').replace(/\.\./g, '')));
      res.writeHead(200, { 'content-type': path.endsWith('.js') ? 'text/javascript' : 'application/json' });
      res.end(file);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    routes: all,
    server,
    url: (app, inspector, query = {}) => `${origin}/${app}.html?${new URLSearchParams({ inspector, ...query })}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
