import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import envPaths from 'env-paths';

/** The data dir: `--data-dir`, else PORTHOLE_DATA_DIR, else the OS config dir for "porthole". */
export function resolveDataDir(flag?: string): string {
  return flag ?? process.env.PORTHOLE_DATA_DIR ?? envPaths('porthole', { suffix: '' }).config;
}

/** Writes beside the target and renames over it, so a reader never sees half a file. */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode?: number): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temp, data, mode === undefined ? undefined : { mode });
    renameSync(temp, path);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}

export function readJson<T>(path: string): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as T;
  } catch (e) {
    console.error(`[porthole] ignoring ${path}: it is not valid JSON (${(e as Error).message})`);
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
