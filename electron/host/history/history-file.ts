import { readFileSync, statSync } from 'node:fs';
import { chmod, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { CallSummarySchema, StoredResultSchema } from '../../../shared/call-record.js';
import { CallDecisionSchema } from '../../../shared/permissions.js';
import { appendPrivate, mkdirPrivate, PRIVATE_FILE_MODE, writeFileAtomic } from '../data-dir.js';

const SLICE_CHARS = 256 * 1024;

/** A call began: everything known before it runs. */
export const StartedLineSchema = z.object({
  kind: z.literal('started'),
  call: CallSummarySchema.omit({ status: true, durationMs: true, error: true, decision: true }).extend({
    args: z.unknown(),
  }),
});

/** The call ended; pairs with its `started` line by id. */
export const FinishedLineSchema = z.object({
  kind: z.literal('finished'),
  id: z.string(),
  durationMs: z.number(),
  status: z.enum(['succeeded', 'failed', 'cancelled', 'refused']),
  error: z.string().optional(),
  decision: CallDecisionSchema.optional(),
  result: StoredResultSchema,
});

export const HistoryLineSchema = z.discriminatedUnion('kind', [StartedLineSchema, FinishedLineSchema]);
export type HistoryLine = z.infer<typeof HistoryLineSchema>;

/**
 * The call history on disk: JSON Lines, only ever appended to, and rewritten whole (write + rename)
 * when it has grown past its bound. A line cut short by a crash is skipped when read back.
 */
export class HistoryFile {
  constructor(readonly path: string) {}

  /** The lines that parse; `damaged` counts the ones that did not (a torn last line after a crash). */
  read(): { lines: HistoryLine[]; damaged: number } {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return { lines: [], damaged: 0 };
    }
    const lines: HistoryLine[] = [];
    let damaged = 0;
    for (const raw of text.split('\n')) {
      if (!raw.trim()) continue;
      try {
        const parsed = HistoryLineSchema.safeParse(JSON.parse(raw));
        if (parsed.success) lines.push(parsed.data);
        else damaged++;
      } catch {
        damaged++;
      }
    }
    return { lines, damaged };
  }

  size(): number {
    try {
      return statSync(this.path).size;
    } catch {
      return 0;
    }
  }

  /** Appends whole lines (a batch), creating the file 0600 (and its folder, when it is missing). */
  async appendAsync(text: string): Promise<void> {
    try {
      await appendPrivate(this.path, text);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      mkdirPrivate(dirname(this.path));
      await appendPrivate(this.path, text);
    }
  }

  /** Replaces the file with `text` at once (before anything else runs: at start). */
  rewrite(text: string): void {
    writeFileAtomic(this.path, text);
  }

  /**
   * Replaces the file with `parts` joined, written beside and renamed over it, a slice of at most
   * about 256 KiB per write so that no step holds the loop (a rewrite can be tens of MB).
   */
  async rewriteAsync(parts: readonly string[]): Promise<void> {
    mkdirPrivate(dirname(this.path));
    const temp = `${this.path}.${process.pid}.${Date.now()}.tmp`;
    try {
      const handle = await open(temp, 'w', PRIVATE_FILE_MODE);
      try {
        let slice: string[] = [];
        let chars = 0;
        for (const part of parts) {
          slice.push(part);
          chars += part.length;
          if (chars < SLICE_CHARS) continue;
          await handle.write(slice.join(''));
          slice = [];
          chars = 0;
        }
        if (slice.length > 0) await handle.write(slice.join(''));
      } finally {
        await handle.close();
      }
      await chmod(temp, PRIVATE_FILE_MODE);
      await rename(temp, this.path);
    } catch (e) {
      await rm(temp, { force: true });
      throw e;
    }
  }
}
