import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './inspector.js';

// Scratch apps outside the repo that install the packed tarballs with npm, as a user would.

// A bound against a hung npm, not a speed check: `npm pack` of porthole runs its whole build, which
// took 170–280 s on a 2-core machine shared with other builds.
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
    timeout: 420_000,
  });

/** `npm pack` of the agent package (its prepack builds agent/dist); returns the tarball's path. */
export const packAgent = () => (packed.agent ??= pack(join(ROOT, 'agent')));

/** `npm pack` of the `porthole` package itself (its prepack builds the window and the CLI). */
export const packPorthole = () => (packed.porthole ??= pack(ROOT));

/** Packed once per test process: the outside specs run in one worker, and a pack builds everything. */
const packed: { agent?: string; porthole?: string } = {};

function pack(packageDir: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'porthole-pack-'));
  npm(['pack', '--pack-destination', dir], packageDir);
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack made no tarball in ${dir}`);
  return join(dir, tarball);
}

/** A fresh project in the temp dir with `files` written and `dependencies` (the tarball among them) installed. */
export function scratchApp(name: string, files: Record<string, string>, dependencies: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), `porthole-app-${name}-`));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `scratch-${name}`, private: true, type: 'module' }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  npm(['install', ...dependencies], dir);
  return dir;
}
