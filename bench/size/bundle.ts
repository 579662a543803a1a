import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export interface BundleSize {
  bytes: number;
  gzip: number;
  /** The largest inputs of the startup chunks, bytes in the minified output. */
  top: { file: string; bytes: number }[];
  /** The chunks loaded only when used (dynamic imports), gzip -9 together. */
  lazyGzip: number;
  /** Every input file with code in the startup chunks (the entry and what it imports statically). */
  startupInputs: string[];
}

/**
 * Bundles `source` (an ES module's text, resolved from the repo root) for the browser the way an
 * app's bundler would: minified, tree-shaken, dynamic imports split off (they load only when used).
 */
export async function bundleSize(source: string, resolveDir: string): Promise<BundleSize> {
  const result = await build({
    stdin: { contents: source, resolveDir, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    outdir: '/nonexistent',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  // The stdin module's chunk: a dynamic import's chunk is an entry point too.
  const entry = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === '<stdin>');
  if (!entry) throw new Error('esbuild made no entry chunk');
  const [path, meta] = entry;
  const file = result.outputFiles.find((f) => f.path.endsWith(path.replace(/^.*\//, '')));
  if (!file) throw new Error(`no output file for ${path}`);
  // Statically imported chunks load with the entry; count them too.
  const statics = meta.imports.filter((i) => i.kind === 'import-statement').map((i) => i.path);
  const parts = [
    file,
    ...result.outputFiles.filter((f) => statics.some((s) => f.path.endsWith(s.replace(/^.*\//, '')))),
  ];
  const code = Buffer.concat(parts.map((p) => Buffer.from(p.contents)));
  const lazy = result.outputFiles.filter((f) => !parts.includes(f) && f.path.endsWith('.js'));
  const lazyGzip = lazy.length
    ? gzipSync(Buffer.concat(lazy.map((p) => Buffer.from(p.contents))), { level: 9 }).length
    : 0;
  const startup = Object.entries(result.metafile.outputs)
    .filter(([out]) => parts.some((p) => p.path.endsWith(out.replace(/^.*\//, ''))))
    .flatMap(([, o]) => Object.entries(o.inputs))
    .filter(([, v]) => v.bytesInOutput > 0)
    .map(([f, v]) => ({ file: f.replace(/^.*node_modules\//, ''), bytes: v.bytesInOutput }));
  const top = [...startup].sort((a, b) => b.bytes - a.bytes).slice(0, 5);
  const startupInputs = startup.map((i) => i.file);
  return { bytes: code.length, gzip: gzipSync(code, { level: 9 }).length, top, lazyGzip, startupInputs };
}
