#!/usr/bin/env node
// npm start: the Porthole desktop app when the Electron binary can be had; otherwise headless mode,
// said in one line. Builds first when the build output is missing or older than the sources.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);

/** The Electron executable, or the reason there is none. Runs in a child so a failed lazy download stays quiet. */
function findElectron() {
  const probe = spawnSync(process.execPath, ['-e', 'process.stdout.write(require("electron"))'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  const path = probe.stdout.trim().split('\n').pop();
  if (probe.status === 0 && path && existsSync(path)) return { path };
  const why = `${probe.stderr}`.split('\n').find((line) => /Error|failed/i.test(line)) ?? 'the download failed';
  return { reason: why.trim().slice(0, 160) };
}

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Runs `npm run <script>` when `output` is missing or older than the sources it is built from. */
function buildIfNeeded(script, output, sources) {
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  if (built > Math.max(...sources.map((s) => newestMtime(join(root, s))))) return;
  console.log(`Porthole: building (npm run ${script})…`);
  const result = spawnSync('npm', ['run', '--silent', script], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function run(command, commandArgs) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

const pkg = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(join(root, 'package.json'), 'utf8')));
const sources = ['renderer', 'shared', 'plugins', 'electron'];
const electron = process.env.PORTHOLE_HEADLESS ? { reason: 'PORTHOLE_HEADLESS is set' } : findElectron();

if (electron.path && pkg.scripts['build:electron']) {
  buildIfNeeded('build:electron', join(root, 'out/main'), sources);
  run(electron.path, [root, ...args]);
} else {
  console.log(
    `Porthole: the Electron binary is not available (${electron.reason ?? 'no desktop build yet'}); starting headless mode instead.`,
  );
  if (pkg.scripts['build:renderer'])
    buildIfNeeded('build:renderer', join(root, 'out/renderer/index.html'), ['renderer', 'shared', 'plugins']);
  run(process.execPath, [join(root, 'bin/porthole.js'), 'serve', ...args]);
}
