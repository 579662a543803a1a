import {
  appendFile,
  chmodSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import envPaths from 'env-paths';

/** The data dir: `--data-dir`, else PORTHOLE_DATA_DIR, else the OS config dir for "porthole". */
export function resolveDataDir(flag?: string): string {
  return flag ?? process.env.PORTHOLE_DATA_DIR ?? envPaths('porthole', { suffix: '' }).config;
}

/** Everything in the data dir is the user's alone: folders 0700, files 0600 (tokens, history, traffic). */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Appends to a file, creating it 0600, off the loop. The callback API on purpose: fs/promises makes
 * a FileHandle for every call, which costs the loop several times more (hundreds of appends a second).
 */
export function appendPrivate(file: string, text: string): Promise<void> {
  return new Promise((resolve, reject) =>
    appendFile(file, text, { mode: PRIVATE_FILE_MODE }, (e) => (e ? reject(e) : resolve())),
  );
}

/** Makes a folder (and missing parents) readable by the user only. */
export function mkdirPrivate(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Creates the data dir 0700 and puts every folder and file in it back to 0700/0600 (older versions
 * and other tools wrote 0755/0644). Symbolic links are left alone; bounded in entries.
 */
export function securePrivateTree(dataDir: string, maxEntries = 100_000): void {
  mkdirPrivate(dataDir);
  let seen = 0;
  const fix = (path: string, mode: number, current: number) => {
    if ((current & 0o777) === mode) return;
    try {
      chmodSync(path, mode);
    } catch (e) {
      console.error(`[porthole] could not make ${path} private (mode ${mode.toString(8)}): ${(e as Error).message}`);
    }
  };
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (++seen > maxEntries) return;
      const path = join(dir, name);
      let stat: ReturnType<typeof lstatSync>;
      try {
        stat = lstatSync(path);
      } catch {
        continue;
      }
      if (stat.isDirectory()) {
        fix(path, PRIVATE_DIR_MODE, stat.mode);
        walk(path);
      } else if (stat.isFile()) fix(path, PRIVATE_FILE_MODE, stat.mode);
    }
  };
  fix(dataDir, PRIVATE_DIR_MODE, lstatSync(dataDir).mode);
  walk(dataDir);
}

/** Writes beside the target (mode 0600) and renames over it, so a reader never sees half a file. */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = PRIVATE_FILE_MODE): void {
  mkdirPrivate(dirname(path));
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temp, data, { mode });
    // The mode of a new file is cut by the umask; a file that already existed keeps its own.
    chmodSync(temp, mode);
    renameSync(temp, path);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}

/**
 * The JSON in `path`, or undefined when there is none. A file that is not JSON is reported; with
 * `quarantine` it is also moved aside (kept, never overwritten by the next write) and the start goes on.
 */
export function readJson<T>(path: string, options: { quarantine?: boolean } = {}): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as T;
  } catch (e) {
    const aside = options.quarantine ? keepAside(path, 'corrupt') : undefined;
    console.error(
      `[porthole] ignoring ${path}: it is not valid JSON (${(e as Error).message})${aside ? `; moved to ${aside}` : ''}`,
    );
    return undefined;
  }
}

/** Moves a damaged file beside itself as `<name>.<what>-<time>` (copy with `copy`); returns the new path. */
export function keepAside(path: string, what: string, copy = false): string | undefined {
  const aside = `${path}.${what}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    if (copy) copyFileSync(path, aside);
    else renameSync(path, aside);
    chmodSync(aside, PRIVATE_FILE_MODE);
    return aside;
  } catch (e) {
    console.error(`[porthole] could not keep ${path} aside: ${(e as Error).message}`);
    return undefined;
  }
}

/** A file-system-safe name for an id that came from a debuggee. */
export function safeName(id: string): string {
  return encodeURIComponent(id).replace(/\./g, '%2E').slice(0, 150) || '_';
}

export function pluginAppDir(dataDir: string, plugin: string, appId: string): string {
  return join(dataDir, 'plugins', safeName(plugin), safeName(appId));
}
