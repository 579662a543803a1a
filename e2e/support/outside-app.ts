import { execFile, execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './inspector.js';
import { RUN_DIR, withLock } from './run-once.js';

// Scratch apps outside the repo that install the packed tarballs with npm, as a user would.

const NPM_FLAGS = ['--no-audit', '--no-fund', '--loglevel=error'];
const NPM_ENV = { ...process.env, npm_config_update_notifier: 'false' };
// A bound against a hung npm, not a speed check: `npm pack` of porthole runs its whole build, which
// took 170–280 s on a 2-core machine shared with other builds.
const NPM_TIMEOUT = 420_000;

/** `npm pack` of the agent package (its prepack builds agent/dist); resolves to the tarball's path. */
export const packAgent = () => (packed.agent ??= pack('agent'));

/** `npm pack` of the `porthole` package itself (its prepack builds the window and the CLI). */
export const packPorthole = () => (packed.porthole ??= pack('porthole'));

const packed: { agent?: Promise<string>; porthole?: Promise<string> } = {};

/**
 * Packs once per run, whichever worker asks first (the other waits for it), in a copy of the repo:
 * a prepack rebuilds out/ and agent/dist, which specs in the other worker are using meanwhile.
 */
function pack(which: 'agent' | 'porthole'): Promise<string> {
  const dir = join(RUN_DIR, `pack-${which}`);
  return withLock(dir, async () => {
    const made = join(dir, 'tarball.txt');
    if (existsSync(made)) return readFileSync(made, 'utf8');
    rmSync(dir, { recursive: true, force: true });
    const tree = join(dir, 'tree');
    cpSync(ROOT, tree, { recursive: true, filter: (path) => !NOT_COPIED.has(relative(ROOT, path)) });
    symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');
    await promisify(execFile)('npm', ['pack', '--pack-destination', dir, ...NPM_FLAGS], {
      cwd: which === 'agent' ? join(tree, 'agent') : tree,
      env: NPM_ENV,
      timeout: NPM_TIMEOUT,
      maxBuffer: 64 * 1024 * 1024,
    });
    rmSync(tree, { recursive: true, force: true });
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack made no tarball in ${dir}`);
    writeFileSync(made, join(dir, tarball));
    return join(dir, tarball);
  });
}

/** What a pack's copy of the repo leaves out: installs, builds and results (the prepack makes its own). */
const NOT_COPIED = new Set(['node_modules', '.git', 'out', 'dist', 'agent/dist', 'test-results', 'playwright-report']);

/** A fresh project in the temp dir with `files` written and `dependencies` (the tarball among them) installed. */
export function scratchApp(name: string, files: Record<string, string>, dependencies: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), `porthole-app-${name}-`));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `scratch-${name}`, private: true, type: 'module' }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  execFileSync('npm', ['install', ...dependencies, ...NPM_FLAGS], {
    cwd: dir,
    encoding: 'utf8',
    env: NPM_ENV,
    timeout: NPM_TIMEOUT,
  });
  return dir;
}
