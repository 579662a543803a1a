import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { readJson, writeFileAtomic } from './data-dir.js';

/** `<data-dir>/instance.json`: how other processes (`porthole mcp`, scripts) find the running inspector. */
export const InstanceInfoSchema = z.object({
  pid: z.number().int(),
  version: z.string(),
  startedAt: z.number(),
  debuggeeUrl: z.string(),
  controlUrl: z.string(),
  mcpUrl: z.string(),
  uiUrl: z.string(),
});
export type InstanceInfo = z.infer<typeof InstanceInfoSchema>;

export const instancePath = (dataDir: string) => join(dataDir, 'instance.json');

export function writeInstance(dataDir: string, info: InstanceInfo): void {
  // 0600: the UI URL in it carries the token that opens the window's bridge.
  writeFileAtomic(instancePath(dataDir), `${JSON.stringify(info, null, 2)}\n`, 0o600);
}

/** Removes the file if it still describes this process (a newer instance may have replaced it). */
export function removeInstance(dataDir: string, pid = process.pid): void {
  const current = readJson<InstanceInfo>(instancePath(dataDir));
  if (current?.pid === pid) rmSync(instancePath(dataDir), { force: true });
}

/** The running inspector, or undefined when none is recorded or its process is gone. */
export function readInstance(dataDir: string): InstanceInfo | undefined {
  const parsed = InstanceInfoSchema.safeParse(readJson(instancePath(dataDir)));
  if (!parsed.success) return undefined;
  try {
    process.kill(parsed.data.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return undefined;
  }
  return parsed.data;
}
