#!/usr/bin/env node
// In a checkout the CLI runs from its TypeScript source through tsx (no build step); an installed
// package carries only the build (out/main/cli.js, made by its prepack).
import { existsSync } from 'node:fs';

const source = new URL('../electron/host/cli-main.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(new URL('../out/main/cli.js', import.meta.url).href);
}
