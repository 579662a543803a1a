import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Core, type CoreOptions, type CoreUrls, PortInUseError } from './core.js';
import { resolveDataDir } from './data-dir.js';
import { instancePath, removeInstance, writeInstance } from './instance-file.js';
import { weakPairingToken } from './link/pairing.js';
import { VERSION } from './version.js';

/** The flags `porthole serve` and the desktop app share, as parseArgs gives them. */
export interface LaunchFlags {
  'data-dir'?: string;
  'debuggee-port'?: string;
  'control-port'?: string;
  'mcp-auth'?: string;
  /** A token, or `''`/`true` (a bare `--lan`): the token kept in `<data-dir>/lan-token`. */
  lan?: string | boolean;
  'allow-origin'?: string[];
  'memory-budget'?: string;
  'max-sessions'?: string;
  'new-ui-token'?: boolean;
  'source-maps'?: string[];
}

export const LAUNCH_FLAG_OPTIONS = {
  'data-dir': { type: 'string' },
  'debuggee-port': { type: 'string', default: '7360' },
  'control-port': { type: 'string', default: '7361' },
  'mcp-auth': { type: 'string', default: 'token' },
  lan: { type: 'string' },
  'allow-origin': { type: 'string', multiple: true },
  'memory-budget': { type: 'string' },
  'max-sessions': { type: 'string' },
  'new-ui-token': { type: 'boolean' },
  'source-maps': { type: 'string', multiple: true },
} as const;

/** `--lan` may stand alone (then a token is made): parseArgs wants a value, so a bare one becomes `--lan=`. */
export function normalizeLaunchArgs(argv: readonly string[]): string[] {
  return argv.map((arg, i) =>
    arg === '--lan' && (i + 1 >= argv.length || argv[i + 1]!.startsWith('-')) ? '--lan=' : arg,
  );
}

const SIZE_UNITS: Record<string, number> = {
  '': 1024 ** 2,
  k: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
};

/** `--memory-budget`: MiB by default, or with a unit (KiB, MiB, GiB); at least 16 MiB. */
export function parseMemoryBudget(value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value.trim());
  const unit = SIZE_UNITS[match?.[2]?.toLowerCase() ?? 'x'];
  const bytes = match && unit ? Math.floor(Number(match[1]) * unit) : Number.NaN;
  if (!(bytes >= 16 * 1024 ** 2)) {
    throw new Error(`--memory-budget must be a size of at least 16 MiB such as 512, 512MiB or 2GiB, got "${value}"`);
  }
  return bytes;
}

export function parsePort(value: string, flag: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new Error(`${flag} must be a port number from 0 to 65535, got "${value}"`);
  }
  return port;
}

function parseCount(value: string, flag: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 100_000)
    throw new Error(`${flag} must be a whole number from 1 to 100000, got "${value}"`);
  return n;
}

/** An origin pattern for --allow-origin: scheme, host (may start with `*.`), optional port or `:*`; no path. */
const ORIGIN_PATTERN = /^[a-z][a-z0-9+.-]*:\/\/(\*\.)?[^/*\s]+(:(\d{1,5}|\*))?$/i;

/** Core options from the shared flags; throws an Error naming the bad flag. */
export function coreOptionsFromFlags(flags: LaunchFlags): CoreOptions {
  const mcpAuth = flags['mcp-auth'] ?? 'token';
  if (mcpAuth !== 'token' && mcpAuth !== 'none')
    throw new Error(`--mcp-auth must be "token" or "none", got "${mcpAuth}"`);
  const lan = flags.lan === undefined || flags.lan === false ? undefined : flags.lan === '' ? true : flags.lan;
  const weak = typeof lan === 'string' ? weakPairingToken(lan) : undefined;
  if (weak) throw new Error(weak);
  for (const origin of flags['allow-origin'] ?? []) {
    if (!ORIGIN_PATTERN.test(origin)) {
      throw new Error(
        `--allow-origin must be an origin such as http://myapp.test:* or https://*.example.com (no path), got "${origin}"`,
      );
    }
  }
  return {
    dataDir: resolveDataDir(flags['data-dir']),
    debuggeePort: parsePort(flags['debuggee-port'] ?? '7360', '--debuggee-port'),
    controlPort: parsePort(flags['control-port'] ?? '7361', '--control-port'),
    mcp: { auth: mcpAuth },
    lanPairingToken: lan,
    allowedOrigins: flags['allow-origin'],
    memoryBudgetBytes: flags['memory-budget'] === undefined ? undefined : parseMemoryBudget(flags['memory-budget']),
    maxActiveSessions:
      flags['max-sessions'] === undefined ? undefined : parseCount(flags['max-sessions'], '--max-sessions'),
    ...(flags['new-ui-token'] === true && { ui: { newKey: true } }),
    ...(flags['source-maps'] && { sourceMaps: { folders: flags['source-maps'].map(sourceMapFolder) } }),
  };
}

/** `--source-maps <dir>`: a folder that exists, as an absolute path. */
function sourceMapFolder(dir: string): string {
  const path = resolve(dir);
  if (!existsSync(path) || !statSync(path).isDirectory()) {
    throw new Error(`--source-maps must be a folder of source maps (*.map), got "${dir}" which is not a folder`);
  }
  return path;
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
  const startedAt = Date.now();
  // A data dir that cannot be written (a full disk) does not stop the start: instance.json is tried
  // again until it is written, and the status tool and the window say so meanwhile. It always holds
  // the window link that is unused now (`porthole ui` opens it).
  let retry: NodeJS.Timeout | undefined;
  const announce = () => {
    clearTimeout(retry);
    retry = undefined;
    try {
      writeInstance(options.dataDir, { pid: process.pid, version: VERSION, startedAt, ...urls });
      core.storage.succeeded('instance');
    } catch (e) {
      core.storage.failed('instance', instancePath(options.dataDir), e);
      retry = setTimeout(announce, 5000);
      retry.unref();
    }
  };
  announce();
  const offUrl = core.ui.onUrlChanged(announce);
  let stopped: Promise<void> | undefined;
  return {
    core,
    urls,
    stop: () =>
      (stopped ??= core.stop().finally(() => {
        offUrl();
        clearTimeout(retry);
        removeInstance(options.dataDir);
      })),
  };
}

const FILE_ERRORS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a file is in the way of a folder',
  EEXIST: 'a file is in the way of a folder',
  ENOSPC: 'the disk is full',
  EISDIR: 'a folder is in the way of a file',
};

/**
 * One line that says why the inspector could not start and what to change, for the failures a user
 * can meet (a port taken or not allowed, a data dir that cannot be written); never a stack.
 */
export function describeStartupError(
  error: unknown,
  options: Pick<CoreOptions, 'dataDir' | 'debuggeePort' | 'controlPort'>,
): string {
  if (error instanceof PortInUseError) return error.message;
  const e = error as NodeJS.ErrnoException & { port?: number; address?: string };
  if (e?.syscall === 'listen' || e?.syscall === 'bind') {
    const flag = e.port === options.controlPort ? '--control-port' : '--debuggee-port';
    const why =
      e.code === 'EACCES'
        ? 'permission denied; ports below 1024 need privileges'
        : e.code === 'EADDRNOTAVAIL'
          ? `the address ${e.address} is not on this machine`
          : e.code;
    return `cannot listen on port ${e.port} (${why}); pass ${flag} <port> to use another (0 picks any free port)`;
  }
  if (typeof e?.path === 'string' && typeof e.code === 'string') {
    const why = FILE_ERRORS[e.code] ?? e.code;
    return `cannot use the data dir ${options.dataDir}: ${why} (${e.code} at ${e.path}); pass --data-dir <dir> or set PORTHOLE_DATA_DIR to use another`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `could not start: ${message.split('\n')[0]}`;
}
