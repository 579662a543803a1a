#!/usr/bin/env node
// Builds agent/dist for the @porthole/agent package (run by its prepack): every file the entry
// points reach, transpiled one by one to ES modules (dist/esm) and to CommonJS (dist/cjs, marked by
// its own package.json), each with its declarations, keeping the repo's folder layout so the
// relative imports stay valid.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { build, transform } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const out = join(root, 'agent/dist');
// The entries: connect(), the preloads (`@porthole/agent/register`, `@porthole/agent/react/register`) and every plugin's agent part
// (agent/package.json maps `./<id>` to them).
const plugins = readdirSync(join(root, 'plugins')).filter((id) =>
  existsSync(join(root, 'plugins', id, 'agent/index.ts')),
);
const entries = [
  join(root, 'agent/index.ts'),
  join(root, 'plugins/network/agent/register.ts'),
  join(root, 'agent/react/register.ts'),
  // React Native's entries (the package's `react-native` condition): connect() and the network plugin.
  join(root, 'agent/react-native.ts'),
  join(root, 'plugins/network/agent/react-native.ts'),
  join(root, 'plugins/example/agent/react-native.ts'),
  // What browser bundlers take for the network plugin's Node taps (the "browser" field of agent/package.json).
  join(root, 'plugins/network/agent/without-node.ts'),
  ...plugins.map((id) => join(root, 'plugins', id, 'agent/index.ts')),
];

// The files the entries import at run time (type-only imports are gone after transpiling).
const graph = await build({
  absWorkingDir: root,
  entryPoints: entries,
  bundle: true,
  write: false,
  metafile: true,
  packages: 'external',
  platform: 'neutral',
  format: 'esm',
  outdir: '/nonexistent',
  splitting: true,
  logLevel: 'error',
});
const sources = Object.keys(graph.metafile.inputs).filter((f) => f.endsWith('.ts'));

// Every package the modules import must be a dependency of @porthole/agent, or apps cannot load it.
const pkg = JSON.parse(readFileSync(join(root, 'agent/package.json'), 'utf8'));
const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
const imported = new Set(
  Object.values(graph.metafile.inputs).flatMap((input) =>
    input.imports.filter((i) => i.external && !i.path.startsWith('node:')).map((i) => packageOf(i.path)),
  ),
);
const missing = [...imported].filter((name) => !pkg.dependencies?.[name] && !pkg.peerDependencies?.[name]);
if (missing.length) {
  console.error(`agent/package.json lacks dependencies its code imports: ${missing.join(', ')}`);
  process.exit(1);
}

rmSync(out, { recursive: true, force: true });
for (const format of ['esm', 'cjs']) {
  for (const source of sources) {
    const code = readFileSync(join(root, source), 'utf8');
    // CommonJS: a lazy import() becomes a require() in a promise, so the module's exports are its
    // own (Node's import() of a CommonJS file sees only what its lexer finds, not esbuild's getters).
    const supported = format === 'cjs' ? { 'dynamic-import': false } : {};
    const result = await transform(code, { loader: 'ts', format, target: 'es2022', sourcefile: source, supported });
    const target = join(out, format, source.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, result.code);
  }
}
writeFileSync(join(out, 'cjs/package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);

// React Native's tree (dist/rn, the `react-native` condition of agent/package.json): the entries
// bundled with esbuild into a few ES modules, shared code in shared chunks. Metro neither drops unused
// exports nor splits lazy imports out, and wraps every module, importing each binding as a property
// read (`require(d[3]).Limits`) where it is used: one module per entry instead of one per file took
// the agent's added gzip size in a release bundle down by a tenth. Every plugin's entry is in the
// same build, so each module is there once (one RequestError class, one hub) whichever an app imports.
// As in React Native's own packages, a file `x.native.ts` beside `x.ts` takes its place in this tree:
// the same exports without what only browsers or Node run (Metro would carry it all).
const rnEntries = {
  'agent/react-native': join(root, 'agent/react-native.ts'),
  ...Object.fromEntries(
    plugins.map((id) => {
      const native = join(root, 'plugins', id, 'agent/react-native.ts');
      return [`plugins/${id}/agent/index`, existsSync(native) ? native : join(root, 'plugins', id, 'agent/index.ts')];
    }),
  ),
};
await build({
  absWorkingDir: root,
  entryPoints: rnEntries,
  bundle: true,
  splitting: true,
  packages: 'external',
  platform: 'neutral',
  format: 'esm',
  target: 'es2022',
  outdir: join(out, 'rn'),
  chunkNames: 'chunks/[name]-[hash]',
  // async/await as generators once per chunk, not by React Native's Babel preset once per function.
  supported: { 'async-await': false },
  // Minified as Metro's release build would (the one name the agent reads, traceWithoutWrapper's, is
  // read only under Node, never in React Native): the bindings
  // between chunks, which Metro reads as properties (`require(d[3]).Limits`) at each use, get short
  // names, and dev builds carry less too. dist/esm keeps the readable code.
  minify: true,
  logLevel: 'error',
  plugins: [
    {
      name: 'native-files',
      setup(b) {
        b.onResolve({ filter: /^\.\.?\/.*\.js$/ }, ({ path, resolveDir, importer }) => {
          const native = resolve(resolveDir, path.replace(/\.js$/, '.native.ts'));
          return native !== importer && existsSync(native) ? { path: native } : undefined;
        });
      },
    },
  ],
});

// Declarations for both trees: the same .d.ts files, read as ESM or CommonJS by their folder.
const types = join(out, 'types');
execFileSync(
  process.execPath,
  [
    join(root, 'node_modules/typescript/bin/tsc'),
    '-p',
    join(root, 'tsconfig.agent.json'),
    '--emitDeclarationOnly',
    '--outDir',
    types,
  ],
  { stdio: 'inherit' },
);
for (const format of ['esm', 'cjs']) cpSync(types, join(out, format), { recursive: true });
rmSync(types, { recursive: true });

// The declarations name zod's types (plugin protocols are zod schemas; the agent's run-time code never
// imports zod). So that installing the agent does not install zod (8 MB), the declaration files of
// zod they reach are copied into the package (dist/<format>/zod-types, with zod's license) and the
// declarations point there: the types stand alone, in ESM and CommonJS flavours like the rest.
const zodRoot = join(root, 'node_modules/zod');
const zodEntries = { zod: 'index', 'zod/v4/core': 'v4/core/index' };
for (const format of ['esm', 'cjs']) {
  const ext = format === 'esm' ? '.d.ts' : '.d.cts';
  const vendor = join(out, format, 'zod-types');
  const pending = Object.values(zodEntries).map((f) => f + ext);
  const copied = new Set();
  while (pending.length) {
    const file = pending.pop();
    if (copied.has(file)) continue;
    copied.add(file);
    let text = readFileSync(join(zodRoot, file), 'utf8');
    for (const [, spec] of text.matchAll(/(?:from |import\()["'](\.[^"']+)["']/g)) {
      pending.push(join(dirname(file), spec.replace(/\.c?js$/, '')) + ext);
    }
    // Under dist/cjs every .d.ts is read as CommonJS (its package.json), so zod's .d.cts become .d.ts there.
    if (format === 'cjs') text = text.replace(/(["'])(\.[^"']+)\.cjs\1/g, '$1$2.js$1');
    const target = join(vendor, file.replace(/\.d\.cts$/, '.d.ts'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  cpSync(join(zodRoot, 'LICENSE'), join(vendor, 'LICENSE'));
  for (const file of readdirSync(join(out, format), { recursive: true })) {
    if (!file.endsWith('.d.ts') || file.startsWith('zod-types')) continue;
    const path = join(out, format, file);
    const up = relative(dirname(path), vendor).split(sep).join('/');
    const text = readFileSync(path, 'utf8').replace(
      /(["'])(zod(?:\/v4\/core)?)\1/g,
      (_, q, spec) => `${q}${up.startsWith('.') ? up : `./${up}`}/${zodEntries[spec]}.js${q}`,
    );
    writeFileSync(path, text);
  }
  if (copied.size < 5) throw new Error(`only ${copied.size} of zod's declaration files were found`);
}
console.log(`agent/dist: ${sources.length} modules, ESM and CommonJS, with declarations that stand alone`);
