import { join } from 'node:path';
import envPaths from 'env-paths';
import type { ControlServer } from '../control-server.js';
import type { EventBus } from '../event-bus.js';
import { packageRoot } from '../package-root.js';
import type { ToolService } from '../tools/tool-service.js';
import { DEFAULT_MCP_OPTIONS, McpHttpEndpoint, type McpHttpOptions } from './mcp-http.js';
import type { McpClientInfo, McpStatus, StdioCommand } from './mcp-status.js';
import { loadOrCreateToken } from './mcp-token.js';

export const MCP_PATH = '/mcp';

interface Deps {
  dataDir: string;
  bus: EventBus;
  tools: ToolService;
  control: ControlServer;
  /** The desktop app starts its CLI differently (Electron run as Node); see electron/main.ts. */
  stdioLauncher?: StdioLauncher;
}

/**
 * `core.mcp`: the MCP server on the control port (`/mcp`) and what the window shows about it —
 * URL, token, auth mode, connected clients, and how to start the stdio bridge.
 */
export class McpService {
  readonly options: McpHttpOptions;
  private readonly endpoint: McpHttpEndpoint;
  private bearer: string | undefined;
  private url: string | undefined;

  constructor(
    private readonly deps: Deps,
    options: Partial<McpHttpOptions> = {},
  ) {
    this.options = { ...DEFAULT_MCP_OPTIONS, ...options };
    this.endpoint = new McpHttpEndpoint(
      deps.tools,
      this.options,
      () => this.bearer,
      () => this.announce(),
    );
    deps.control.route(MCP_PATH, this.endpoint.handle);
  }

  /** Reads (or creates) the token; called by the core once the control server listens. */
  start(controlUrl: string): void {
    if (this.options.auth === 'token') this.bearer = loadOrCreateToken(this.deps.dataDir);
    this.url = `${controlUrl}${MCP_PATH}`;
    this.announce();
  }

  async stop(): Promise<void> {
    await this.endpoint.close();
    this.url = undefined;
    this.announce();
  }

  status(): McpStatus {
    return {
      running: this.url !== undefined,
      url: this.url,
      auth: this.options.auth,
      clients: this.endpoint.clients(),
      stdio: stdioCommand(this.deps.dataDir, this.deps.stdioLauncher),
    };
  }

  /** The bearer token (undefined with `--mcp-auth none`, or before start). */
  token(): string | undefined {
    return this.bearer;
  }

  clients(): McpClientInfo[] {
    return this.endpoint.clients();
  }

  /** The 2025-era sessions kept (connected or not) and their estimated bytes. */
  sessions(): { count: number; bytes: number } {
    return this.endpoint.sessionUse();
  }

  onStatus(listener: (status: McpStatus) => void): () => void {
    return this.deps.bus.on('mcp:status', ({ status }) => listener(status));
  }

  private announce(): void {
    this.deps.bus.emit('mcp:status', { status: this.status() });
  }
}

/** What starts the Porthole CLI; `mcp` and the data dir are added to it. */
export type StdioLauncher = StdioCommand;

/** From a checkout or an npm install: Node running bin/porthole.js. */
function checkoutLauncher(): StdioLauncher {
  return { command: process.execPath, args: [join(packageRoot(), 'bin/porthole.js')] };
}

/** `porthole mcp` for this inspector's data dir, with absolute paths so any MCP client can start it. */
export function stdioCommand(dataDir: string, launcher: StdioLauncher = checkoutLauncher()): StdioCommand {
  const args = [...launcher.args, 'mcp'];
  // An MCP client starts it without our environment, so anything but the OS default is spelled out.
  if (dataDir !== envPaths('porthole', { suffix: '' }).config) args.push('--data-dir', dataDir);
  return { ...launcher, args };
}
