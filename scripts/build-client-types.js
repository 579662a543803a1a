#!/usr/bin/env node
// Builds out/types: the declarations of `porthole/client`, `/playwright`, `/node` and `/vitest`
// (tsconfig.client.json), then makes them stand on the package alone: the HAR types the network
// plugin takes from @types/har-format (a dev dependency) are shipped beside them, and any other
// package the declarations import must be a dependency or a peer of `porthole`, or the build fails.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const out = join(root, 'out/types');
rmSync(out, { recursive: true, force: true });
execFileSync(
  process.execPath,
  [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.client.json')],
  {
    stdio: 'inherit',
  },
);

const harTypes = readFileSync(join(root, 'node_modules/@types/har-format/index.d.ts'), 'utf8');
const shipped = join(out, 'vendor/har-format.d.ts');
const license =
  '// From @types/har-format (MIT, the DefinitelyTyped authors): the HAR 1.2 types, shipped so that\n// the published declarations need no package of their own for them.\n';
mkdirSync(dirname(shipped), { recursive: true });
writeFileSync(shipped, license + harTypes);

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const allowed = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
const problems = [];
let files = 0;
for (const file of walk(out)) {
  if (!file.endsWith('.d.ts') || file === shipped) continue;
  files++;
  let text = readFileSync(file, 'utf8');
  const path = relative(dirname(file), shipped).replace(/\.d\.ts$/, '.js');
  const local = path.startsWith('.') ? path : `./${path}`;
  text = text.replace(/(from |import\()(['"])har-format\2/g, (_, how, quote) => `${how}${quote}${local}${quote}`);
  writeFileSync(file, text);
  for (const [, spec] of text.matchAll(/(?:from |import\()['"]([^'".][^'"]*)['"]/g)) {
    if (spec.startsWith('node:') || allowed.has(packageOf(spec))) continue;
    problems.push(`${relative(root, file)} imports "${spec}", which is not a dependency or peer of porthole`);
  }
}
if (problems.length) {
  console.error(`out/types would not type-check in a user's project:\n  ${[...new Set(problems)].join('\n  ')}`);
  process.exit(1);
}
console.log(`out/types: ${files} declaration files, HAR types shipped in vendor/`);

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}
