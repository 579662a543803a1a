import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { mkdirPrivate, writeFileAtomic } from '../data-dir.js';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};
const REF = /^[0-9a-f]{64}\.[a-z]{2,5}$/;

/** Images of tool results, each kept once in a file named by its content hash. */
export class ImageStore {
  constructor(private readonly dir: string) {}

  /** Stores the image unless an identical one is already there; returns its reference. */
  put(base64: string, mimeType: string): { ref: string; bytes: number } {
    const data = Buffer.from(base64, 'base64');
    const ref = `${createHash('sha256').update(data).digest('hex')}.${EXTENSIONS[mimeType] ?? 'bin'}`;
    const path = join(this.dir, ref);
    if (!existsSync(path)) {
      mkdirPrivate(this.dir);
      writeFileAtomic(path, data);
    }
    return { ref, bytes: data.length };
  }

  /** The image as base64, or undefined when it was removed. */
  get(ref: string): string | undefined {
    if (!REF.test(ref)) return undefined;
    try {
      return readFileSync(join(this.dir, ref)).toString('base64');
    } catch {
      return undefined;
    }
  }

  /** Deletes every stored image no kept record refers to. */
  retainOnly(refs: ReadonlySet<string>): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) if (REF.test(name) && !refs.has(name)) rmSync(join(this.dir, name), { force: true });
  }
}
