#!/usr/bin/env node
// Builds out/main/page-agent.js: the agent with console and network as one script that
// `porthole/playwright` injects into the pages of a test (agent/page-bundle.ts). Browser code only,
// minified; it defines globalThis.__porthole. In a checkout the fixture builds it the same way, in
// memory, so it is never older than the sources.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export async function buildPageAgent(root) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'agent/page-bundle.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
  });
  return result.outputFiles[0].text;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const code = await buildPageAgent(root);
  mkdirSync(join(root, 'out/main'), { recursive: true });
  writeFileSync(join(root, 'out/main/page-agent.js'), code);
  console.log(`out/main/page-agent.js: ${(code.length / 1024).toFixed(0)} KiB`);
}
