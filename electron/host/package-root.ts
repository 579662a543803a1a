import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of the `porthole` package this code runs from: a checkout, an npm install or a
 * packaged app. Found by walking up, because the same code runs from its source file and from a
 * bundled chunk at another depth.
 */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && readName(manifest) === 'porthole') return dir;
    if (dirname(dir) === dir) throw new Error(`no porthole package.json above ${from}`);
  }
}

function readName(manifest: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name;
  } catch {
    return undefined;
  }
}
