import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// Playwright runs spec files in two workers (two processes). What several specs build or install
// (the window, the debuggee page, the packed tarballs, installs kept in the temp dir) is made by
// whichever worker asks first while the other waits, so no two processes ever write the same
// folder, and what is built once per run is not rebuilt under a spec that is using it. The lock is a
// directory beside the folder (mkdir is atomic) holding its owner's pid; a dead owner's is taken over.

/** The run's folder in the temp dir (playwright.config.ts gives every worker of a run the same id). */
export const RUN_DIR = join(tmpdir(), `porthole-run-${process.env.PORTHOLE_E2E_RUN ?? process.pid}`);

const made = new Map<string, Promise<void>>();

/** Runs `make` once per run, in whichever worker asks first; the others wait until it is done. */
export function oncePerRun(name: string, make: () => Promise<void>): Promise<void> {
  let done = made.get(name);
  if (!done) {
    const marker = join(RUN_DIR, `${name}.done`);
    done = withLock(join(RUN_DIR, name), async () => {
      if (existsSync(marker)) return;
      await make();
      writeFileSync(marker, '');
    });
    made.set(name, done);
  }
  return done;
}

/** Runs `make` while holding the lock of `path`, one process at a time. */
export async function withLock<T>(path: string, make: () => Promise<T>, waitMs = 20 * 60_000): Promise<T> {
  const lock = `${path}.lock`;
  const deadline = Date.now() + waitMs;
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (abandoned(lock)) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline)
        throw new Error(`${lock} was held for over ${waitMs / 1000} s; remove it if no test runs`);
      else await sleep(200);
    }
  }
  try {
    return await make();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** A lock whose owner is gone (or that never got its pid written, a few seconds on). */
function abandoned(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    try {
      return Date.now() - statSync(lock).mtimeMs > 10_000;
    } catch {
      return false; // just released
    }
  }
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
