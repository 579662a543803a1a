import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Agent, connect } from '../../../agent/connection.js';
import { defineAgentPlugin } from '../../../agent/plugin.js';
import { type StartPluginOptions, startPlugin } from '../../../electron/host/plugin-testing.js';
import { type NetworkOptions, network } from '../agent/index.js';
import { networkProtocol, type TransactionStarted } from '../protocol.js';
import networkPlugin from './index.js';

// Test helpers for the network plugin: real local servers and a debuggee agent in this process.

/** A transaction's start as an agent reports it (a GET to api.test), for the store's tests. */
export const started = (id: string, overrides: Partial<TransactionStarted> = {}): TransactionStarted => ({
  id,
  initiator: 'fetch',
  method: 'GET',
  url: `http://api.test/${id}`,
  headers: [],
  startedAt: 1_000,
  ...overrides,
});

/** A whole text body. */
export const text = (data: string) => ({ encoding: 'text' as const, data, size: data.length, truncated: false });

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

export interface LocalServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

function listen(server: Server, scheme: 'http' | 'https'): Promise<LocalServer> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `${scheme}://127.0.0.1:${port}`,
        server,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

const route = (handler: Handler) => (req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => handler(req, res, Buffer.concat(chunks)));
};

export function httpServer(handler: Handler): Promise<LocalServer> {
  return listen(createHttp(route(handler)), 'http');
}

/** A self-signed certificate for 127.0.0.1, made with openssl for this test run. */
export function selfSignedCert(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'porthole-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function httpsServer(handler: Handler, tls: { key: string; cert: string }): Promise<LocalServer> {
  return listen(createHttps(tls, route(handler)), 'https');
}

/** A real core and, in this process, an app with the network plugin (the kit's startPlugin; it stops with the test). */
export async function startNetworkDebuggee(
  options: { network?: NetworkOptions; core?: StartPluginOptions['core']; appId?: string } = {},
) {
  const d = await startPlugin(
    networkPlugin,
    async () => {
      const plugin = network(options.network);
      await plugin.ready;
      return plugin;
    },
    { core: options.core, app: { id: options.appId ?? 'com.test.network', name: 'Network Test' } },
  );
  return {
    t: { core: d.core, urls: d.urls, dataDir: d.dataDir, stop: d.stopCore },
    plugin: d.agent,
    agent: d.connection,
    sessionId: d.sessionId,
    host: d.host,
    stop: d.stop,
    /** The tools as an MCP client and as the window call them. */
    mcp: d.mcp,
    window: d.window,
  };
}

/** An app whose network plugin never acknowledges a mock config push (its setMockConfig hangs). */
export function connectSilentApp(url: string): Agent {
  const silent = defineAgentPlugin(networkProtocol, (ctx) => {
    ctx.handle('setMockConfig', () => new Promise(() => {}));
  });
  return connect({ url, app: { id: 'com.test.silent', name: 'Silent' }, plugins: [silent] });
}
