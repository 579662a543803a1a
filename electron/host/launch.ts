import { Core, type CoreOptions, type CoreUrls } from './core.js';
import { resolveDataDir } from './data-dir.js';
import { removeInstance, writeInstance } from './instance-file.js';
import { VERSION } from './version.js';

/** The flags `porthole serve` and the desktop app share, as parseArgs gives them. */
export interface LaunchFlags {
  'data-dir'?: string;
  'debuggee-port'?: string;
  'control-port'?: string;
  'mcp-auth'?: string;
  lan?: string;
  'allow-origin'?: string[];
}

export const LAUNCH_FLAG_OPTIONS = {
  'data-dir': { type: 'string' },
  'debuggee-port': { type: 'string', default: '7360' },
  'control-port': { type: 'string', default: '7361' },
  'mcp-auth': { type: 'string', default: 'token' },
  lan: { type: 'string' },
  'allow-origin': { type: 'string', multiple: true },
} as const;

export function parsePort(value: string, flag: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new Error(`${flag} must be a port number from 0 to 65535, got "${value}"`);
  }
  return port;
}

/** Core options from the shared flags; throws an Error naming the bad flag. */
export function coreOptionsFromFlags(flags: LaunchFlags): CoreOptions {
  const mcpAuth = flags['mcp-auth'] ?? 'token';
  if (mcpAuth !== 'token' && mcpAuth !== 'none')
    throw new Error(`--mcp-auth must be "token" or "none", got "${mcpAuth}"`);
  return {
    dataDir: resolveDataDir(flags['data-dir']),
    debuggeePort: parsePort(flags['debuggee-port'] ?? '7360', '--debuggee-port'),
    controlPort: parsePort(flags['control-port'] ?? '7361', '--control-port'),
    mcp: { auth: mcpAuth },
    lanPairingToken: flags.lan,
    allowedOrigins: flags['allow-origin'],
  };
}

export interface Launched {
  core: Core;
  urls: CoreUrls;
  /** Stops the servers and removes instance.json. */
  stop(): Promise<void>;
}

/** Starts the core and announces it in `<data-dir>/instance.json` (headless and desktop alike). */
export async function launch(options: CoreOptions): Promise<Launched> {
  const core = new Core(options);
  const urls = await core.start();
  writeInstance(options.dataDir, { pid: process.pid, version: VERSION, startedAt: Date.now(), ...urls });
  let stopped: Promise<void> | undefined;
  return {
    core,
    urls,
    stop: () =>
      (stopped ??= core.stop().finally(() => {
        removeInstance(options.dataDir);
      })),
  };
}
