#!/usr/bin/env node
// Builds agent/dist for the @porthole/agent package (run by its prepack): every file the entry
// points reach, transpiled one by one to ES modules (dist/esm) and to CommonJS (dist/cjs, marked by
// its own package.json), each with its declarations, keeping the repo's folder layout so the
// relative imports stay valid.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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
    const result = await transform(code, { loader: 'ts', format, target: 'es2022', sourcefile: source });
    const target = join(out, format, source.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, result.code);
  }
}
writeFileSync(join(out, 'cjs/package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);

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
console.log(`agent/dist: ${sources.length} modules, ESM and CommonJS, with declarations`);
