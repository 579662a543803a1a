import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { withLock } from './run-once.js';

// A scratch project outside the repo whose install is kept: the dependencies (the packed tarballs
// among them, by their content) name a folder in the temp dir, installed once; later runs with the
// same packages reuse it and only write their files again. Older installs of the same name go.

export async function cachedScratch(
  name: string,
  dependencies: string[],
): Promise<{ dir: string; installedNow: boolean }> {
  const hash = createHash('sha256').update(process.version);
  // A tarball by its content (npm pack is reproducible; its temp path is not), others by their spec.
  for (const dep of dependencies) hash.update(dep.endsWith('.tgz') && existsSync(dep) ? readFileSync(dep) : dep);
  const key = hash.digest('hex').slice(0, 16);
  const prefix = `porthole-scratch-${name}-`;
  const dir = join(tmpdir(), `${prefix}${key}`);
  // One install at a time, by name: another worker may be installing this one, or removing its older one.
  return withLock(join(tmpdir(), `${prefix}install`), async () => {
    for (const old of readdirSync(tmpdir()).filter(
      (d) => d.startsWith(prefix) && d !== `${prefix}${key}` && !d.startsWith(`${prefix}install`),
    ))
      rmSync(join(tmpdir(), old), { recursive: true, force: true });
    const marker = join(dir, '.installed');
    if (existsSync(marker)) return { dir, installedNow: false };
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: `scratch-${name}`, private: true, type: 'module' }),
    );
    await promisify(execFile)(
      'npm',
      ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline', ...dependencies],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' }, timeout: 300_000 },
    );
    writeFileSync(marker, JSON.stringify(dependencies));
    return { dir, installedNow: true };
  });
}

export interface DocBlock {
  lang: string;
  /** From the fence's `file=…`. */
  file?: string;
  code: string;
}

/** The fenced code blocks of a Markdown file, with the `file=` their fence names. */
export function codeBlocks(markdown: string): DocBlock[] {
  return [...markdown.matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1]!,
    file: /\bfile=(\S+)/.exec(m[2]!)?.[1],
    code: m[3]!,
  }));
}
