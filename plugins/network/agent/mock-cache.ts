import type { MockConfig } from '../protocol.js';

// The last mock config this app got, kept where its next run finds it before its first request: a
// page's sessionStorage (per tab, beside the session's resume ticket), a file in the temp folder for
// a Node process (per script and working folder, readable by this user only). The next run applies
// it at once and reconciles when the live config arrives.

interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}
interface NodeFs {
  readFileSync(path: string, encoding: 'utf8'): string;
  writeFileSync(path: string, data: string, options: { mode: number }): void;
}
interface NodeProc {
  argv?: string[];
  cwd?(): string;
  env?: Record<string, string | undefined>;
  getBuiltinModule?(id: string): unknown;
}

const KEY = 'porthole.mocks';

function hash(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}

function where(fileOk: boolean): { storage: StorageLike } | { fs: NodeFs; path: string } | undefined {
  try {
    const storage = (globalThis as { sessionStorage?: StorageLike }).sessionStorage;
    if (storage) return { storage };
  } catch {
    // storage blocked
  }
  const proc = (globalThis as { process?: NodeProc }).process;
  const fs = proc?.getBuiltinModule?.('node:fs') as NodeFs | undefined;
  const os = proc?.getBuiltinModule?.('node:os') as { tmpdir(): string } | undefined;
  if (!fileOk || !fs || !os || !proc?.cwd) return undefined;
  return { fs, path: `${os.tmpdir()}/porthole-mocks-${hash(`${proc.cwd()}\0${proc.argv?.[1] ?? ''}`)}.json` };
}

function valid(value: unknown): value is MockConfig {
  const c = value as MockConfig | undefined;
  return typeof c?.revision === 'number' && typeof c.enabled === 'boolean' && Array.isArray(c.rules);
}

/** `fileOk`: a Node process keeps its rules in a file only when the preload started its capture. */
/** Where this Node process keeps its rules (tests remove it). */
export function mockCacheFile(): string | undefined {
  const at = where(true);
  return at && 'path' in at ? at.path : undefined;
}

export function readMockCache(fileOk: boolean): MockConfig | undefined {
  try {
    const at = where(fileOk);
    if (!at) return undefined;
    const text = 'storage' in at ? at.storage.getItem(KEY) : at.fs.readFileSync(at.path, 'utf8');
    const parsed: unknown = text ? JSON.parse(text) : undefined;
    return valid(parsed) ? parsed : undefined;
  } catch {
    return undefined; // none yet, unreadable or corrupt: the live config decides
  }
}

export function writeMockCache(config: MockConfig, fileOk: boolean): void {
  try {
    const at = where(fileOk);
    const text = JSON.stringify(config);
    if (!at) return;
    if ('storage' in at) at.storage.setItem(KEY, text);
    else at.fs.writeFileSync(at.path, text, { mode: 0o600 });
  } catch {
    // not kept: the next run waits for the live config
  }
}

/** True when the config would answer some request. */
export const activeRules = (config: MockConfig | undefined) =>
  !!config && config.enabled && config.rules.some((r) => r.enabled);
