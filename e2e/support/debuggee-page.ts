import { createReadStream } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'vite';
import { contentTypeOf, resolveRendererFile } from '../../electron/host/ui-bridge/static-ui.js';
import { ROOT } from './inspector.js';
import { oncePerRun } from './run-once.js';

const OUT = join(ROOT, 'out/e2e-debuggee');

/** Builds e2e/fixtures/debuggee once per run: a page that bundles the real agent library. */
export function buildDebuggeePage(): Promise<void> {
  return oncePerRun('debuggee-page', async () => {
    await build({
      root: join(ROOT, 'e2e/fixtures/debuggee'),
      base: './',
      logLevel: 'warn',
      build: { outDir: OUT, emptyOutDir: true, minify: false, sourcemap: true },
    });
  });
}

export interface ServedPage {
  /** Base URL (http://127.0.0.1:port/) of the built page; other routes are the test's own. */
  url: string;
  /** The page URL with the query the fixture reads: inspector (ws URL), plugins (comma list), app id/name. */
  pageUrl(query: {
    inspector: string;
    plugins?: string[];
    appId?: string;
    appName?: string;
    /** More query parameters the fixture reads (title, redact, mocking). */
    extra?: Record<string, string>;
  }): string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Serves the built debuggee page on 127.0.0.1:0. `routes` adds test endpoints on the same origin
 * (e.g. `/api/echo`) for the page to call.
 */
export async function serveDebuggeePage(
  routes: Record<
    string,
    (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void
  > = {},
): Promise<ServedPage> {
  await buildDebuggeePage();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const route = routes[path];
    if (route) return route(req, res);
    const file = resolveRendererFile(OUT, path);
    if (!file) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': contentTypeOf(file) });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    server,
    pageUrl: ({ inspector, plugins = ['example'], appId = 'com.porthole.e2e', appName = 'E2E Page', extra = {} }) =>
      `${url}?${new URLSearchParams({ inspector, plugins: plugins.join(','), appId, appName, ...extra })}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What the fixture page exposes for tests to drive from `page.evaluate`. */
export interface DebuggeeWindow {
  porthole: {
    agent: import('../../agent/index.js').Agent;
    // biome-ignore lint/suspicious/noExplicitAny: each plugin's agent API differs; tests call what they loaded
    plugins: Record<string, any>;
    consoleDemo: typeof import('../fixtures/debuggee/console-demo.js').consoleDemo;
    storageDemo: typeof import('../fixtures/debuggee/storage-demo.js').storageDemo;
  };
}
