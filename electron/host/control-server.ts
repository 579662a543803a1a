import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { refuseUpgrade } from './upgrade-refusal.js';

export type RouteHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer, url: URL) => void;

const LOOPBACK_HOSTNAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether a Host header names this machine's loopback, so DNS-rebinding pages are turned away.
 * The header is parsed as a URL authority, not matched: it must be exactly a loopback name with an
 * optional port (`localhost:x@evil.test` is user info before evil.test; `localhost:evil` has no port).
 */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host || /[^\w.:[\]-]/.test(host)) return false; // no user info, path, query or fragment
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return false;
  }
  const port = url.port ? `:${url.port}` : '';
  // The parser normalizes (case, a default port): what it read must be what was written.
  return LOOPBACK_HOSTNAMES.has(url.hostname) && `${url.hostname}${port}` === host.toLowerCase().replace(/:80$/, '');
}

/**
 * The control plane: one HTTP server on 127.0.0.1 for /mcp, the UI and its bridge. Routes are
 * matched by path prefix, longest first; every request must name a loopback Host.
 */
export class ControlServer {
  private readonly http: Server;
  private readonly routes: { prefix: string; handler: RouteHandler }[] = [];
  private readonly upgrades = new Map<string, UpgradeHandler>();

  constructor() {
    this.http = createServer((req, res) => void this.dispatch(req, res));
    // `Expect: 100-continue` is answered by the route that reads the body, after it looked at the headers.
    this.http.on('checkContinue', (req, res) => void this.dispatch(req, res));
    this.http.on('upgrade', (req, socket, head) => this.dispatchUpgrade(req, socket, head));
  }

  route(prefix: string, handler: RouteHandler): void {
    this.routes.push({ prefix, handler });
    this.routes.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  onUpgrade(path: string, handler: UpgradeHandler): void {
    this.upgrades.set(path, handler);
  }

  async listen(port: number): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(port, '127.0.0.1', () => {
        this.http.off('error', reject);
        // Past the start (e.g. out of file descriptors on accept) an error is reported, never fatal.
        this.http.on('error', (e) => console.error(`[porthole] the control server: ${(e as Error).message}`));
        resolve();
      });
    });
    return `http://127.0.0.1:${this.port}`;
  }

  get port(): number {
    return (this.http.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.http.closeAllConnections?.();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (!isLoopbackHost(req.headers.host)) {
        return void res.writeHead(403, { 'content-type': 'text/plain' }).end(`${HOST_NOT_LOOPBACK}\n`);
      }
      const url = requestUrl(req);
      if (!url) return void res.writeHead(400, { 'content-type': 'text/plain' }).end(`${BAD_TARGET}\n`);
      const route = this.routes.find(
        (r) => url.pathname === r.prefix || url.pathname.startsWith(r.prefix.endsWith('/') ? r.prefix : `${r.prefix}/`),
      );
      if (!route) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      await route.handler(req, res, url);
    } catch (e) {
      console.error('[porthole] control request failed:', e);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal error\n');
    }
  }

  /** Nothing from the request may throw out of here: the page that sent it could otherwise end the process. */
  private dispatchUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    try {
      if (!isLoopbackHost(req.headers.host)) return refuseUpgrade(socket, 403, HOST_NOT_LOOPBACK);
      const url = requestUrl(req);
      if (!url) return refuseUpgrade(socket, 400, BAD_TARGET);
      const handler = this.upgrades.get(url.pathname);
      if (!handler)
        return refuseUpgrade(socket, 404, `Not found: no WebSocket is served at ${url.pathname.slice(0, 100)}`);
      handler(req, socket, head, url);
    } catch (e) {
      console.error(`[porthole] control upgrade failed: ${(e as Error).message}`);
      socket.destroy();
    }
  }
}

const BAD_TARGET = 'Bad request: the request target must be a path such as /mcp';
const HOST_NOT_LOOPBACK = 'Forbidden: the Host header must be 127.0.0.1 or localhost';

/**
 * The request target as a URL on this server, or undefined when it is not a path: absolute-form
 * (`http://…`), authority-form, `*`, or anything the URL parser refuses.
 */
function requestUrl(req: IncomingMessage): URL | undefined {
  const target = req.url ?? '';
  if (!target.startsWith('/')) return undefined;
  try {
    // Prefixing the origin keeps `//x` a path: new URL('//x', base) would read it as a host and throw.
    return new URL(`http://127.0.0.1${target}`);
  } catch {
    return undefined;
  }
}
