import { rmSync } from 'node:fs';
import { RUN_DIR } from './support/run-once.js';
import { buildRenderer } from './window.helpers.js';

// Before any worker starts: the window is built here, once, so that no spec rebuilds out/renderer
// (a build empties it first) while a spec in the other worker is serving it.
export default async function globalSetup(): Promise<() => void> {
  await buildRenderer();
  return () => rmSync(RUN_DIR, { recursive: true, force: true });
}
