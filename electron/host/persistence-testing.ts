import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Real disks for the persistence tests: a small tmpfs that can be filled up and emptied again, so
// ENOSPC comes from the kernel, not from a mock. Mounting needs root (CAP_SYS_ADMIN): where it is
// refused the tests that need it are skipped, saying so.

/** A tmpfs of `bytes` mounted on a fresh folder, or the reason it cannot be had here. */
export function smallDisk(bytes: number): { dir: string; unmount(): void } | { unavailable: string } {
  const dir = mkdtempSync(join(tmpdir(), 'porthole-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    return { unavailable: `cannot mount a tmpfs here (${(e as Error).message.split('\n')[0]}); run as root` };
  }
  return {
    dir,
    unmount: () => {
      try {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Fills the disk of `dir` with one file until the kernel says ENOSPC; returns the file (delete it to free the space). */
export function fillDisk(dir: string): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'a');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) {
      try {
        writeSync(fd, chunk);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
        // The last blocks, smaller than a chunk.
        try {
          for (;;) writeSync(fd, chunk.subarray(0, 512));
        } catch {}
        return file;
      }
    }
  } finally {
    closeSync(fd);
  }
}
