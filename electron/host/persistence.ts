import { close as closeFd, fstat, open as openFd, readFileSync, rmSync, write as writeFd } from 'node:fs';
import { chmod, type FileHandle, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { Dropped, RecordStore } from '../../shared/records.js';
import { SessionInfoSchema } from '../../shared/session.js';
import { appendPrivate, keepAside, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, safeName } from './data-dir.js';
import type { DataDirHealth } from './persistence-health.js';

/** What a session needs to be resumed after a restart: its info and its resume secret. */
export const PersistedSessionSchema = z.object({ info: SessionInfoSchema, secret: z.string().min(16) });
export type PersistedSession = z.infer<typeof PersistedSessionSchema>;
const DroppedSchema = z.object({ count: z.number().int().min(0), bytes: z.number().min(0) });
const SessionsFileSchema = z.object({
  version: z.literal(1),
  sessions: z.array(z.unknown()),
  /** What the global budget had dropped, over every run. */
  dropped: DroppedSchema.optional(),
});

/**
 * How often changed data is written. A change is on disk at most this long after it happened, plus
 * the time the write takes: a kill loses at most about the last second (docs/data-dir.md).
 */
export const PERSIST_INTERVAL_MS = 500;

/** After a failed write (a full disk, a file replaced by a folder) the next try waits this long, longer each time. */
const RETRY_MS = [1000, 2000, 4000, 8000];

/** Rewriting a large store whole goes on for at most this long per step; appends of new changes go between. */
const REWRITE_SLICE_MS = 40;

/**
 * Journals kept open at most (a descriptor each): well below the limits Node and Chromium raise the
 * process to (the hard limit, 8192), leaving room for the apps' sockets. At EMFILE all are let go.
 */
const MAX_OPEN_JOURNALS = 128;

/** About this many characters are rendered and written per write, so that no step holds the loop long. */
const SLICE_CHARS = 256 * 1024;

function openForAppend(file: string): Promise<number> {
  return new Promise((resolve, reject) =>
    openFd(file, 'a', PRIVATE_FILE_MODE, (e, fd) => (e ? reject(e) : resolve(fd))),
  );
}

function identity(fd: number): Promise<{ dev: number; ino: number }> {
  return new Promise((resolve, reject) => fstat(fd, (e, s) => (e ? reject(e) : resolve({ dev: s.dev, ino: s.ino }))));
}

/**
 * Writes all of `text` at the descriptor's end (appends are atomic per write; a short write goes on).
 * The string is handed to fs as it is: a Buffer of it made here first cost a large body's size again.
 */
async function writeAll(fd: number, text: string): Promise<void> {
  const written = await new Promise<number>((resolve, reject) =>
    writeFd(fd, text, null, 'utf8', (e, n) => (e ? reject(e) : resolve(n))),
  );
  const buffer = written < Buffer.byteLength(text) ? Buffer.from(text) : undefined;
  let offset = written;
  while (buffer && offset < buffer.length) {
    offset += await new Promise<number>((resolve, reject) =>
      writeFd(fd, buffer, offset, buffer.length - offset, null, (e, n) => (e ? reject(e) : resolve(n))),
    );
  }
}

/**
 * Lines joined into slices of about SLICE_CHARS, rendered only as they are written (a large line on
 * its own): what is in flight is a slice, never a second copy of the store.
 */
async function writeSlices(lines: Iterable<string>, write: (text: string) => Promise<unknown>): Promise<number> {
  let slice = '';
  let chars = 0;
  for (const line of lines) {
    chars += line.length;
    if (slice.length + line.length > SLICE_CHARS && slice) {
      await write(slice);
      slice = '';
    }
    if (line.length >= SLICE_CHARS) await write(line);
    else slice += line;
  }
  if (slice) await write(slice);
  return chars;
}

const recordLine = (key: string, value: unknown) => `${JSON.stringify([key, value])}\n`;
const deletedLine = (key: string) => `${JSON.stringify([key])}\n`;
const droppedLine = (d: Dropped) => `${JSON.stringify({ dropped: { count: d.count, bytes: d.bytes } })}\n`;

/** A whole rewrite under way: the keys to write (values are read as they are written), into `temp`. */
interface Rewrite {
  temp: string;
  handle: FileHandle;
  keys: string[];
  next: number;
  /** Keys changed or removed since the keys were taken: written after them, before the rename. */
  since: Set<string>;
  chars: number;
}

/**
 * One store's file: changed records are appended as `[key, value]`, removed ones as `[key]`, how
 * many the store dropped as `{"dropped":{count,bytes}}`; once it holds far more than the store it is
 * rewritten whole, a slice at a time, while changes still go to the old file until the new one
 * replaces it (with them), so a kill during a long rewrite loses no more than at any other time.
 */
class Journal<T> {
  readonly changed = new Set<string>();
  readonly deleted = new Set<string>();
  wantWhole = false;
  /** Characters appended since the file was last written whole. */
  written = 0;
  droppedWritten = '';
  rewrite: Rewrite | undefined;

  constructor(
    readonly file: string,
    readonly store: () => RecordStore<T>,
  ) {}

  get hasChanges(): boolean {
    const s = this.store();
    return this.changed.size > 0 || this.deleted.size > 0 || (s.dropped.count > 0 && this.droppedNow() !== '');
  }

  get busy(): boolean {
    return this.wantWhole || this.rewrite !== undefined;
  }

  droppedNow(): string {
    const line = droppedLine(this.store().dropped);
    return line === this.droppedWritten ? '' : line;
  }

  /** Takes the pending changes (the sets are emptied); the lines are rendered as they are written. */
  takeChanges(): { lines: Iterable<string>; keys: string[] } {
    const deleted = [...this.deleted];
    const changed = [...this.changed];
    this.deleted.clear();
    this.changed.clear();
    const store = this.store();
    const dropped = store.dropped.count > 0 ? this.droppedNow() : '';
    if (dropped) this.droppedWritten = dropped;
    function* lines() {
      if (dropped) yield dropped;
      for (const key of deleted) yield deletedLine(key);
      for (const key of changed) {
        const value = store.get(key);
        if (value !== undefined) yield recordLine(key, value);
      }
    }
    return { lines: lines(), keys: [...deleted, ...changed] };
  }
}

export class SessionPersistence {
  private readonly journals = new Map<string, Journal<unknown>>();
  private sessionsDirty = false;
  /** Folders made by this run (a folder removed behind its back is made again when a write fails). */
  private readonly made = new Set<string>();
  /** Journals kept open for appending, by file, with the file they were opened on. */
  private readonly fds = new Map<string, { fd: number; dev: number; ino: number }>();
  private journalsOpenedAt = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private io: Promise<void> = Promise.resolve();
  private closed = false;
  private failures = 0;

  /** The global budget's dropped count as last written into sessions.json. */
  private droppedWritten = '';

  constructor(
    readonly dir: string,
    private readonly sessions: () => PersistedSession[],
    /** What the global budget dropped in all (saved with the sessions, given back by loadSessions). */
    private readonly dropped: () => Dropped = () => ({ count: 0, bytes: 0 }),
    /** Open journals are closed this often (besides being checked at every write against their file). */
    private readonly reopenJournalsMs = 30_000,
    /** Told of every write that fails and of the first that works again (the status tool, the window, one log line). */
    private readonly health?: DataDirHealth,
  ) {}

  get sessionsFile(): string {
    return join(this.dir, 'sessions.json');
  }

  storeFile(sessionId: string, plugin: string, name: string): string {
    return join(this.dir, safeName(sessionId), `${safeName(plugin)}--${safeName(name)}.jsonl`);
  }

  /**
   * The sessions saved by the last run, and what the global budget had dropped in all; an
   * unreadable file is moved aside and reported.
   */
  loadSessions(): { sessions: PersistedSession[]; dropped: Dropped } {
    let text: string;
    const none = { count: 0, bytes: 0 };
    try {
      text = readFileSync(this.sessionsFile, 'utf8');
    } catch {
      return { sessions: [], dropped: none };
    }
    try {
      const file = SessionsFileSchema.parse(JSON.parse(text));
      const out: PersistedSession[] = [];
      for (const raw of file.sessions) {
        const parsed = PersistedSessionSchema.safeParse(raw);
        if (parsed.success) out.push(parsed.data);
      }
      if (out.length < file.sessions.length)
        console.error(`[porthole] sessions: skipped ${file.sessions.length - out.length} unreadable session(s)`);
      return { sessions: out, dropped: file.dropped ?? none };
    } catch (e) {
      const aside = keepAside(this.sessionsFile, 'corrupt');
      console.error(
        `[porthole] sessions: ${this.sessionsFile} could not be read (${(e as Error).message.split('\n')[0]}); starting without earlier sessions${aside ? `, the file is kept as ${aside}` : ''}`,
      );
      return { sessions: [], dropped: none };
    }
  }

  /** A store's journal (see Journal): tell it what changed, it is written within the interval. */
  journal<T>(file: string, store: () => RecordStore<T>) {
    const journal = new Journal<T>(file, store);
    this.journals.set(file, journal as Journal<unknown>);
    return {
      changed: (key: string) => {
        journal.deleted.delete(key);
        journal.changed.add(key);
        this.schedule();
      },
      deleted: (key: string) => {
        journal.changed.delete(key);
        journal.deleted.add(key);
        this.schedule();
      },
      rewrite: () => {
        journal.wantWhole = true;
        this.schedule();
      },
    };
  }

  /**
   * Fills a store with what was saved for it and adds what it had dropped to its count; damaged
   * lines are skipped. Answers whether the store dropped records while it was filled (the budget
   * is smaller now): then the file no longer says what the store holds.
   */
  loadStore<T>(file: string, store: RecordStore<T>): { droppedNow: boolean } {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return { droppedNow: false };
    }
    const before = store.dropped.count;
    let saved: Dropped | undefined;
    // The file's end state first, then into the store: a batch may hold a record whose growth made the
    // store drop older ones in the next batch, and the store must not drop for that while it fills.
    const records = new Map<string, T>();
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const record = JSON.parse(line) as [string, T] | [string] | { dropped?: unknown };
        if (!Array.isArray(record)) {
          const dropped = DroppedSchema.safeParse(record.dropped);
          if (dropped.success) saved = dropped.data;
          continue;
        }
        if (typeof record[0] !== 'string') continue;
        if (record.length === 1) records.delete(record[0]);
        else records.set(record[0], record[1] as T);
      } catch {
        // a line cut short by a kill
      }
    }
    for (const [key, value] of records) store.set(key, value);
    const droppedNow = store.dropped.count > before;
    if (saved) {
      store.dropped.count += saved.count;
      store.dropped.bytes += saved.bytes;
    }
    const journal = this.journals.get(file);
    if (journal) journal.written = text.length;
    return { droppedNow };
  }

  sessionsChanged(): void {
    this.sessionsDirty = true;
    this.schedule();
  }

  /** Forgets a session's files (it was removed). */
  removeSession(sessionId: string): void {
    const dir = join(this.dir, safeName(sessionId));
    const gone = [...this.journals.values()].filter((j) => dirname(j.file) === dir);
    for (const journal of gone) this.journals.delete(journal.file);
    this.made.delete(dir);
    this.io = this.io.then(async () => {
      for (const journal of gone) await this.abandonRewrite(journal);
      this.closeJournals(dir);
      await rm(dir, { recursive: true, force: true }).catch(() => {});
    });
    this.sessionsChanged();
  }

  /** Writes everything changed now (whole rewrites to the end) and waits for it. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (let round = 0; round < 1000; round++) {
      const failed = await this.queueStep(Number.POSITIVE_INFINITY);
      if (failed || !this.pending()) break;
    }
    if (this.pending() && !this.closed) this.schedule();
  }

  /** Writes what changed and stops (a clean stop). */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    for (const journal of this.journals.values()) await this.abandonRewrite(journal);
    this.closeJournals();
  }

  /** Drops everything saved (tests, `--fresh`). */
  clearAll(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Something is waiting to be written. */
  private pending(): boolean {
    if (this.sessionsDirty || this.droppedChanged()) return true;
    for (const journal of this.journals.values()) if (journal.hasChanges || journal.busy) return true;
    return false;
  }

  private droppedChanged(): boolean {
    const { count, bytes } = this.dropped();
    return `${count}/${bytes}` !== this.droppedWritten;
  }

  private schedule(delay = PERSIST_INTERVAL_MS): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.queueStep(REWRITE_SLICE_MS).then((failed) => {
        if (!this.pending()) return;
        // A rewrite under way goes on soon; after a failure the next try waits, longer each time.
        const rewriting = [...this.journals.values()].some((j) => j.busy);
        this.schedule(failed ? this.retryDelay() : rewriting ? 10 : PERSIST_INTERVAL_MS);
      });
    }, delay);
    this.timer.unref?.();
  }

  private retryDelay(): number {
    return RETRY_MS[Math.min(this.failures - 1, RETRY_MS.length - 1)] ?? PERSIST_INTERVAL_MS;
  }

  /** One write step, after those before it; answers whether a write failed. */
  private queueStep(rewriteBudgetMs: number): Promise<boolean> {
    let failed = false;
    this.io = this.io.then(async () => {
      failed = await this.step(rewriteBudgetMs);
    });
    return this.io.then(() => failed);
  }

  /**
   * sessions.json, then every journal's changes (appended), then up to `rewriteBudgetMs` of whole
   * rewrites. A failure leaves what failed to be written whole at the next try, from memory (the
   * catch-up); while sessions.json itself cannot be written, the journals wait with it.
   */
  private async step(rewriteBudgetMs: number): Promise<boolean> {
    if (Date.now() - this.journalsOpenedAt >= this.reopenJournalsMs) {
      this.closeJournals();
      this.journalsOpenedAt = Date.now();
      this.made.clear();
    }
    let failure: { path: string; error: unknown } | undefined;
    let wrote = false;
    if (this.sessionsDirty || this.droppedChanged()) {
      this.sessionsDirty = false;
      const { count, bytes } = this.dropped();
      try {
        await this.writeWhole(this.sessionsFile, [
          `${JSON.stringify({ version: 1, sessions: this.sessions(), dropped: { count, bytes } })}\n`,
        ]);
        this.droppedWritten = `${count}/${bytes}`;
        wrote = true;
      } catch (error) {
        this.sessionsDirty = true;
        failure = { path: this.sessionsFile, error };
      }
    }
    if (!failure) {
      for (const journal of [...this.journals.values()]) {
        if (!journal.hasChanges || (journal.wantWhole && !journal.rewrite)) continue;
        try {
          await this.appendChanges(journal);
          wrote = true;
        } catch (error) {
          failure ??= { path: journal.file, error };
        }
      }
      const deadline = performance.now() + rewriteBudgetMs;
      for (const journal of [...this.journals.values()]) {
        if (!journal.busy || performance.now() > deadline) continue;
        try {
          if (await this.continueRewrite(journal, deadline)) wrote = true;
        } catch (error) {
          failure ??= { path: journal.file, error };
        }
      }
    }
    if (failure) {
      this.failures++;
      this.health?.failed('sessions', failure.path, failure.error);
      if (!this.health) console.error(`[porthole] sessions: could not write ${failure.path}: ${String(failure.error)}`);
      return true;
    }
    this.failures = 0;
    if (wrote) this.health?.succeeded('sessions');
    return false;
  }

  private async folder(file: string): Promise<void> {
    const dir = dirname(file);
    if (this.made.has(dir)) return;
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    this.made.add(dir);
  }

  /** Appends a journal's changes; on failure they are written with the whole file at the next try. */
  private async appendChanges(journal: Journal<unknown>): Promise<void> {
    const { lines, keys } = journal.takeChanges();
    if (journal.rewrite) for (const key of keys) journal.rewrite.since.add(key);
    try {
      journal.written += await this.append(journal.file, lines);
    } catch (e) {
      journal.wantWhole = true;
      journal.droppedWritten = '';
      throw e;
    }
    const store = journal.store();
    if (!journal.rewrite && journal.written > 2 * store.bytes + 1024 * 1024) journal.wantWhole = true;
  }

  /**
   * Appends through a descriptor kept open (an open and a close per append cost the loop more than
   * the write), for the first MAX_OPEN_JOURNALS journals; others open, append and close. A kept
   * descriptor is checked against the file first: one deleted or replaced (by a folder, say)
   * behind the inspector's back is let go, so the writes never vanish into an unlinked file.
   */
  private async append(file: string, lines: Iterable<string>): Promise<number> {
    await this.folder(file);
    let open = this.fds.get(file);
    if (open) {
      const now = await stat(file).catch(() => undefined);
      if (!now || now.ino !== open.ino || now.dev !== open.dev) {
        this.closeJournal(file);
        open = undefined;
      }
    }
    if (!open && this.fds.size < MAX_OPEN_JOURNALS) {
      open = await this.openJournal(file);
    }
    if (open) {
      const fd = open.fd;
      try {
        return await writeSlices(lines, (text) => writeAll(fd, text));
      } catch (e) {
        this.closeJournal(file);
        throw e;
      }
    }
    return writeSlices(lines, (text) => appendPrivate(file, text));
  }

  private async openJournal(file: string): Promise<{ fd: number; dev: number; ino: number } | undefined> {
    let fd: number;
    try {
      fd = await openForAppend(file);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // Out of descriptors: the journals give theirs back, the sockets need them more.
      if (code === 'EMFILE' || code === 'ENFILE') {
        this.closeJournals();
        return undefined;
      }
      if (code !== 'ENOENT') throw e;
      // Its folder was removed behind the inspector's back: made again.
      this.made.delete(dirname(file));
      await this.folder(file);
      fd = await openForAppend(file);
    }
    const open = { fd, ...(await identity(fd)) };
    this.fds.set(file, open);
    return open;
  }

  /**
   * Goes on with (or starts) a journal's whole rewrite until `deadline`: records in slices into a
   * temporary file, then what changed since the keys were taken, then the rename. Answers whether
   * the rewrite ended.
   */
  private async continueRewrite(journal: Journal<unknown>, deadline: number): Promise<boolean> {
    const store = journal.store();
    if (!journal.rewrite) {
      journal.wantWhole = false;
      this.made.delete(dirname(journal.file));
      await this.folder(journal.file);
      const temp = `${journal.file}.${process.pid}.tmp`;
      const handle = await open(temp, 'w', PRIVATE_FILE_MODE);
      journal.rewrite = {
        temp,
        handle,
        keys: [...store.entries()].map(([key]) => key),
        next: 0,
        since: new Set(),
        chars: 0,
      };
      // What is pending now is in the new file: written with the records, not appended to the old one.
      for (const key of [...journal.changed, ...journal.deleted]) journal.rewrite.since.add(key);
    }
    const rewrite = journal.rewrite;
    try {
      const write = (text: string) => rewrite.handle.write(text);
      // A slice (about SLICE_CHARS) per write, the deadline looked at between writes.
      let slice = '';
      while (rewrite.next < rewrite.keys.length) {
        const key = rewrite.keys[rewrite.next++]!;
        const value = rewrite.since.has(key) ? undefined : store.get(key);
        if (value !== undefined) slice += recordLine(key, value);
        if (slice.length < SLICE_CHARS && rewrite.next < rewrite.keys.length) continue;
        if (slice) await write(slice);
        rewrite.chars += slice.length;
        slice = '';
        if (performance.now() > deadline && rewrite.next < rewrite.keys.length) return false;
      }
      // The changes since the keys were taken, as they are now; nothing can be marked in between.
      const since = [...rewrite.since, ...journal.changed, ...journal.deleted];
      journal.changed.clear();
      journal.deleted.clear();
      const dropped = store.dropped.count > 0 ? droppedLine(store.dropped) : '';
      rewrite.chars += await writeSlices(
        (function* () {
          if (dropped) yield dropped;
          for (const key of new Set(since)) {
            const value = store.get(key);
            yield value === undefined ? deletedLine(key) : recordLine(key, value);
          }
        })(),
        write,
      );
      await rewrite.handle.close();
      await chmod(rewrite.temp, PRIVATE_FILE_MODE);
      // The descriptor on the old file would go on writing to the file this one replaces.
      this.closeJournal(journal.file);
      await rename(rewrite.temp, journal.file);
      journal.rewrite = undefined;
      journal.written = rewrite.chars;
      journal.droppedWritten = dropped;
      return true;
    } catch (e) {
      await this.abandonRewrite(journal);
      journal.wantWhole = true;
      throw e;
    }
  }

  private async abandonRewrite(journal: Journal<unknown>): Promise<void> {
    const rewrite = journal.rewrite;
    if (!rewrite) return;
    journal.rewrite = undefined;
    // Its changes since the keys were taken go to the old file again, as they are now.
    const store = journal.store();
    for (const key of rewrite.since) {
      if (journal.changed.has(key) || journal.deleted.has(key)) continue;
      (store.has(key) ? journal.changed : journal.deleted).add(key);
    }
    await rewrite.handle.close().catch(() => {});
    await rm(rewrite.temp, { force: true }).catch(() => {});
  }

  private closeJournal(file: string): void {
    const open = this.fds.get(file);
    if (!open) return;
    this.fds.delete(file);
    closeFd(open.fd, () => {});
  }

  private closeJournals(under?: string): void {
    for (const file of [...this.fds.keys()]) if (!under || file.startsWith(under)) this.closeJournal(file);
  }

  /** Replaces a file with `parts`, written beside and renamed over it. */
  private async writeWhole(file: string, parts: readonly string[]): Promise<void> {
    this.made.delete(dirname(file));
    await this.folder(file);
    const temp = `${file}.${process.pid}.tmp`;
    try {
      const handle = await open(temp, 'w', PRIVATE_FILE_MODE);
      try {
        for (const part of parts) await handle.write(part);
      } finally {
        await handle.close();
      }
      await chmod(temp, PRIVATE_FILE_MODE);
      await rename(temp, file);
    } catch (e) {
      await rm(temp, { force: true });
      throw e;
    }
  }
}
