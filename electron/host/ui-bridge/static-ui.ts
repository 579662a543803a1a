import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { BRIDGE_PATH } from '../../../shared/bridge.js';
import type { ControlServer } from '../control-server.js';
import { packageRoot } from '../package-root.js';
import { type UiAuth, uiCookieName } from './ui-auth.js';

/** Where `npm run build:renderer` writes the window (electron-vite uses the same folder). */
const defaultRendererDir = () => join(packageRoot(), 'out/renderer/');

/**
 * The window's Content-Security-Policy: only its own scripts and styles, images from itself or
 * data:/blob: URLs (screenshots, response previews), and connections to its own origin (the bridge).
 */
export function rendererCsp(connectSources: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${connectSources.map((s) => ` ${s}`).join('')}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

export function contentTypeOf(file: string): string {
  return TYPES[extname(file)] ?? 'application/octet-stream';
}

/**
 * The file inside `dir` that a URL path names (`/` is index.html), or undefined when the path is
 * malformed, leaves `dir`, or names no file. Shared by headless serving and the desktop app's scheme.
 */
export function resolveRendererFile(dir: string, urlPath: string): string | undefined {
  const root = normalize(dir.endsWith(sep) ? dir : `${dir}${sep}`);
  if (!isDecodable(urlPath)) return undefined;
  const path = decodeURIComponent(urlPath);
  const file = normalize(join(root, path === '/' ? 'index.html' : path));
  return file.startsWith(root) && existsSync(file) && statSync(file).isFile() ? file : undefined;
}

function isDecodable(urlPath: string): boolean {
  try {
    decodeURIComponent(urlPath);
    return true;
  } catch {
    return false;
  }
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Porthole</title>
<h1>The Porthole window is not built</h1>
<p>Run <code>npm run build:renderer</code> in the Porthole folder, then reload this page.
The MCP server and the debuggee link work without it.</p></body>`;

/**
 * Serves the built renderer at `/` of the control server (headless mode), with a strict CSP. A GET
 * with `?token=` exchanges the one-time link token for the bridge's session cookie and redirects to
 * the same page without it (`#link-used` when the token was not good: the window explains).
 */
export function serveRenderer(control: ControlServer, dir = defaultRendererDir(), auth?: UiAuth): void {
  control.route('/', (req, res, url) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return void res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method not allowed\n');
    }
    const headers = {
      'content-security-policy': rendererCsp([`ws://${req.headers.host}`]),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'x-frame-options': 'DENY',
    };
    const path = url.pathname;
    if (!isDecodable(path)) return void res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad path\n');
    if (auth && url.searchParams.has('token')) {
      // A HEAD (a link preview) does not use the link up.
      const cookie = req.method === 'GET' ? auth.exchange(url.searchParams.get('token') ?? '') : undefined;
      url.searchParams.delete('token');
      const back = `${path}${url.search}${cookie || req.method === 'HEAD' ? '' : '#link-used'}`;
      return void res
        .writeHead(303, {
          ...headers,
          location: back,
          'cache-control': 'no-store',
          ...(cookie && {
            'set-cookie': `${uiCookieName(req.headers.host)}=${cookie}; Path=${BRIDGE_PATH}; HttpOnly; SameSite=Strict`,
          }),
        })
        .end();
    }
    const isPage = path === '/' || path === '/index.html';
    const file = resolveRendererFile(dir, path);
    if (!file) {
      if (isPage) {
        return void res.writeHead(503, { ...headers, 'content-type': 'text/html; charset=utf-8' }).end(NOT_BUILT);
      }
      return void res.writeHead(404, { ...headers, 'content-type': 'text/plain' }).end('Not found\n');
    }
    res.writeHead(200, {
      ...headers,
      'content-type': contentTypeOf(file),
      // Hashed asset names never change; the page itself is always revalidated.
      'cache-control': path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  });
}
