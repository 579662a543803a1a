import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readInstance } from '../host/instance-file.js';
import { packageRoot } from '../host/package-root.js';

// One inspector for a whole test run, shared by its worker processes: the first worker to get the
// lock starts `porthole serve` under a small watchdog that stops it (and removes its temp data dir)
// once the test runner's process is gone; the others wait for its instance.json. A data dir where an
// inspector already runs (the desktop app's, say) is used as it is.

export interface RunInspectorOptions {
  /** Where the inspector keeps its data; default a temp dir per test runner process. */
  dataDir?: string;
  /** The process whose end stops the inspector: the test runner. Default this process's parent. */
  runnerPid?: number;
  /** More `porthole serve` flags, e.g. `--allow-origin http://shop.test:*`. */
  serveArgs?: string[];
  /** How long to wait for it to start. Default 60 s. */
  timeoutMs?: number;
}

export interface RunInspector {
  dataDir: string;
  debuggeeUrl: string;
  /** True when this run started it (false: one was running there already). */
  started: boolean;
}

// Runs as `node -e`, so it needs no file: argv is [bin, dataDir, runnerPid, removeDataDir, ...serve flags].
const WATCHDOG = `
const { spawn } = require('node:child_process');
const { openSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const [bin, dataDir, runner, remove, ...flags] = process.argv.slice(1);
const log = openSync(join(dataDir, 'inspector.log'), 'a');
const child = spawn(process.execPath, [bin, 'serve', '--data-dir', dataDir, ...flags], {
  stdio: ['ignore', log, log],
  env: { ...process.env, CI: '1' },
});
const stop = () => { clearInterval(timer); child.kill('SIGTERM'); setTimeout(() => child.kill('SIGKILL'), 10000).unref(); };
const timer = setInterval(() => { try { process.kill(Number(runner), 0); } catch { stop(); } }, 500);
child.on('exit', () => {
  clearInterval(timer);
  if (remove === '1') rmSync(dataDir, { recursive: true, force: true });
  else rmSync(join(dataDir, 'starting.lock'), { force: true });
  process.exit(0);
});
process.on('SIGTERM', stop);
`;

/** The run's inspector: found running, or started by this call (or by a sibling worker meanwhile). */
export async function runInspector(options: RunInspectorOptions = {}): Promise<RunInspector> {
  const runnerPid = options.runnerPid ?? process.ppid;
  const temporary = !options.dataDir;
  const dataDir = options.dataDir ?? join(tmpdir(), `porthole-run-${runnerPid}`);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const running = readInstance(dataDir);
  if (running) return { dataDir, debuggeeUrl: running.debuggeeUrl, started: false };

  const lock = join(dataDir, 'starting.lock');
  let started = false;
  if (takeLock(lock)) {
    started = true;
    const bin = join(packageRoot(), 'bin/porthole.js');
    const flags = ['--debuggee-port', '0', '--control-port', '0', '--no-open', ...(options.serveArgs ?? [])];
    const watchdog = spawn(
      process.execPath,
      ['-e', WATCHDOG, bin, dataDir, String(runnerPid), temporary ? '1' : '0', ...flags],
      { detached: true, stdio: 'ignore' },
    );
    watchdog.unref();
  }
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const instance = readInstance(dataDir);
    if (instance) {
      if (started) rmSync(lock, { force: true });
      return { dataDir, debuggeeUrl: instance.debuggeeUrl, started };
    }
    if (Date.now() > deadline) {
      const log = join(dataDir, 'inspector.log');
      const printed = existsSync(log) ? readFileSync(log, 'utf8').slice(-4000) : '(nothing)';
      throw new Error(
        `the Porthole inspector for this run did not start within ${timeoutMs / 1000} s in ${dataDir}; it printed:\n${printed}`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Creates the lock file, or takes over one left by a start that died (older than a minute). */
function takeLock(lock: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (Date.now() - statSync(lock).mtimeMs < 60_000) return false;
      rmSync(lock, { force: true });
    }
  }
  return false;
}
