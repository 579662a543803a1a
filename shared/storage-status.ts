import { z } from 'zod';

// Whether the inspector can write its data dir, as `inspector_get_status` and the window show it.
// While it cannot (a full disk, a read-only one, a file replaced by a folder), everything keeps
// working from memory and the writes are tried again; once they succeed, what was missed is written.

export const StorageProblemSchema = z.object({
  /** What cannot be written: the sessions and their captured data, the call history, instance.json. */
  area: z.enum(['sessions', 'history', 'instance']),
  /** full: no space left; read-only: the disk or the file may not be written; not-a-file: a folder (or a file) is where a file (or a folder) should be. */
  kind: z.enum(['full', 'read-only', 'not-a-file', 'failed']),
  path: z.string(),
  /** The system's error code, e.g. ENOSPC. */
  code: z.string(),
  since: z.number().describe('When writing first failed (ms since the epoch).'),
  message: z.string().describe('What happened, what is kept meanwhile and what to do.'),
});
export type StorageProblem = z.infer<typeof StorageProblemSchema>;

export const StorageStatusSchema = z.object({
  /** False while any write to the data dir fails. */
  writable: z.boolean(),
  problems: z.array(StorageProblemSchema),
});
export type StorageStatus = z.infer<typeof StorageStatusSchema>;
