import { close as closeFd, open as openFd, readFileSync, rmSync, write as writeFd } from 'node:fs';
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { Dropped, RecordStore } from '../../shared/records.js';
import { SessionInfoSchema } from '../../shared/session.js';
import { appendPrivate, keepAside, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, safeName } from './data-dir.js';

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

/** How often changed data is written (a kill loses at most this much). */
export const PERSIST_INTERVAL_MS = 1000;

/**
 * Sessions and their plugins' record stores in `<data-dir>/sessions/`: `sessions.json` and one
 * JSON Lines file per (session, plugin, store) of `[key, value]`. Changes are written as whole
 * files, beside and renamed over, at most once per interval and off the event loop.
 */
/** What a dirty file needs written: lines to append, or its whole content (lines, or records rendered in slices). */
type Rendered =
  | { append: true; lines: string[] }
  | { append: false; text: string }
  | { append: false; records: unknown[] };

/**
 * Journals kept open at most (a descriptor each): well below the limits Node and Chromium raise the
 * process to (the hard limit, 8192), leaving room for the apps' sockets. At EMFILE all are let go.
 */
const MAX_OPEN_JOURNALS = 128;

function openForAppend(file: string): Promise<number> {
  return new Promise((resolve, reject) =>
    openFd(file, 'a', PRIVATE_FILE_MODE, (e, fd) => (e ? reject(e) : resolve(fd))),
  );
}

/**
 * Writes all of `text` at the descriptor's end (appends are atomic per write; a short write goes on).
 * The string is handed to fs as it is: a Buffer of it made here first cost a large body's size again
 * in fresh memory, three times the write itself.
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

/** About this many characters are rendered and written per step, so that no step holds the loop long. */
const SLICE_CHARS = 256 * 1024;

/** Appends whole lines: short ones joined up to a slice per write, a long one (a large body) on its own, never copied into a joint string. */
async function writeLines(fd: number, lines: readonly string[]): Promise<void> {
  let slice = '';
  for (const line of lines) {
    if (slice.length + line.length > SLICE_CHARS && slice) {
      await writeAll(fd, slice);
      slice = '';
    }
    if (line.length >= SLICE_CHARS) await writeAll(fd, line);
    else slice += line;
  }
  if (slice) await writeAll(fd, slice);
}

export class SessionPersistence {
  private readonly dirty = new Map<string, () => Rendered>();
  /** Folders made by this run (a folder removed behind its back is made again when a write fails). */
  private readonly made = new Set<string>();
  /** Journals kept open for appending, by file. */
  private readonly fds = new Map<string, number>();
  private journalsOpenedAt = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private io: Promise<void> = Promise.resolve();
  private closed = false;

  /** The global budget's dropped count as last written into sessions.json. */
  private droppedWritten = '';

  constructor(
    readonly dir: string,
    private readonly sessions: () => PersistedSession[],
    /** What the global budget dropped in all (saved with the sessions, given back by loadSessions). */
    private readonly dropped: () => Dropped = () => ({ count: 0, bytes: 0 }),
    /** Open journals are closed this often, so a folder removed behind the inspector's back is made again. */
    private readonly reopenJournalsMs = 30_000,
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

  /**
   * A store's journal: changed records are appended as `[key, value]`, removed ones as `[key]`, and
   * how many the store dropped so far as `{"dropped":{count,bytes}}`, once per interval; the file is
   * rewritten whole once it holds far more than the store.
   */
  journal<T>(file: string, store: () => RecordStore<T>) {
    const changed = new Set<string>();
    const deleted = new Set<string>();
    let whole = false;
    let written = 0;
    let droppedWritten = '';
    const droppedLine = (s: RecordStore<T>) => {
      const line = `${JSON.stringify({ dropped: { count: s.dropped.count, bytes: s.dropped.bytes } })}\n`;
      if (line === droppedWritten || s.dropped.count === 0) return '';
      droppedWritten = line;
      return line;
    };
    const render = (): Rendered => {
      const s = store();
      const lines: string[] = [];
      if (whole || written > 2 * s.bytes + 1024 * 1024) {
        whole = false;
        changed.clear();
        deleted.clear();
        // Written in slices later: a record changed or removed meanwhile is appended after it again.
        written = s.bytes;
        droppedWritten = '';
        return { records: [droppedLine(s), ...s.entries()], append: false };
      }
      const dropped = droppedLine(s);
      if (dropped) lines.push(dropped);
      for (const key of deleted) lines.push(`${JSON.stringify([key])}\n`);
      for (const key of changed) {
        const value = s.get(key);
        if (value !== undefined) lines.push(`${JSON.stringify([key, value])}\n`);
      }
      changed.clear();
      deleted.clear();
      for (const line of lines) written += line.length;
      return { lines, append: true };
    };
    return {
      changed: (key: string) => {
        deleted.delete(key);
        changed.add(key);
        this.markJournal(file, render);
      },
      deleted: (key: string) => {
        changed.delete(key);
        deleted.add(key);
        this.markJournal(file, render);
      },
      rewrite: () => {
        whole = true;
        this.markJournal(file, render);
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
        if (record.length === 1) store.delete(record[0]);
        else store.set(record[0], record[1] as T);
      } catch {
        // a line cut short by a kill
      }
    }
    const droppedNow = store.dropped.count > before;
    if (saved) {
      store.dropped.count += saved.count;
      store.dropped.bytes += saved.bytes;
    }
    return { droppedNow };
  }

  sessionsChanged(): void {
    this.mark(this.sessionsFile, () => {
      const { count, bytes } = this.dropped();
      this.droppedWritten = `${count}/${bytes}`;
      return `${JSON.stringify({ version: 1, sessions: this.sessions(), dropped: { count, bytes } })}\n`;
    });
  }

  /** Forgets a session's files (it was removed). */
  removeSession(sessionId: string): void {
    for (const file of this.dirty.keys())
      if (file.startsWith(join(this.dir, safeName(sessionId)))) this.dirty.delete(file);
    const dir = join(this.dir, safeName(sessionId));
    this.made.delete(dir);
    this.io = this.io.then(() => {
      this.closeJournals(dir);
      return rm(dir, { recursive: true, force: true }).catch(() => {});
    });
    this.sessionsChanged();
  }

  /** Writes everything changed now and waits for it. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.queueWrite();
    return this.io;
  }

  /** Writes what changed and stops (a clean stop). */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    this.closeJournals();
  }

  /** Drops everything saved (tests, `--fresh`). */
  clearAll(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private mark(file: string, render: () => string): void {
    this.markJournal(file, () => ({ text: render(), append: false }));
  }

  private markJournal(file: string, render: () => Rendered): void {
    if (this.closed) return;
    this.dirty.set(file, render);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.queueWrite();
    }, PERSIST_INTERVAL_MS);
    this.timer.unref?.();
  }

  private queueWrite(): void {
    this.io = this.io.then(async () => {
      if (Date.now() - this.journalsOpenedAt >= this.reopenJournalsMs) {
        this.closeJournals();
        this.journalsOpenedAt = Date.now();
        this.made.clear();
      }
      // Records were dropped since sessions.json was written: it carries the global count.
      const { count, bytes } = this.dropped();
      if (`${count}/${bytes}` !== this.droppedWritten && !this.closed) this.sessionsChanged();
      const work = [...this.dirty];
      this.dirty.clear();
      for (const [file, render] of work) {
        try {
          const rendered = render();
          if (!rendered.append) await this.writeWhole(file, 'text' in rendered ? [rendered.text] : rendered.records);
          else if (rendered.lines.length) await this.append(file, rendered.lines);
        } catch (e) {
          console.error(`[porthole] sessions: could not write ${file}: ${(e as Error).message}`);
        }
      }
    });
  }

  private async folder(file: string): Promise<void> {
    const dir = dirname(file);
    if (this.made.has(dir)) return;
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    this.made.add(dir);
  }

  /**
   * Appends to a journal through a descriptor kept open (an open and a close per append and per
   * second cost the loop more than the write), for the first MAX_OPEN_JOURNALS journals; others
   * open, append and close.
   */
  private async append(file: string, lines: string[]): Promise<void> {
    await this.folder(file);
    let fd = this.fds.get(file);
    if (fd === undefined && this.fds.size < MAX_OPEN_JOURNALS) {
      fd = await openForAppend(file).catch((e: NodeJS.ErrnoException) => {
        // Out of descriptors: the journals give theirs back, the sockets need them more.
        if (e.code === 'EMFILE' || e.code === 'ENFILE') this.closeJournals();
        return undefined;
      });
      if (fd !== undefined) this.fds.set(file, fd);
    }
    if (fd !== undefined) {
      try {
        await writeLines(fd, lines);
        return;
      } catch {
        this.closeJournal(file);
      }
    }
    const text = lines.join('');
    try {
      await appendPrivate(file, text);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      this.made.delete(dirname(file));
      await this.folder(file);
      await appendPrivate(file, text);
    }
  }

  private closeJournal(file: string): void {
    const fd = this.fds.get(file);
    if (fd === undefined) return;
    this.fds.delete(file);
    closeFd(fd, () => {});
  }

  private closeJournals(under?: string): void {
    for (const file of [...this.fds.keys()]) if (!under || file.startsWith(under)) this.closeJournal(file);
  }

  /**
   * Replaces a file, written beside and renamed over it: text parts as they are, records as JSON
   * lines rendered a slice at a time (a store can hold hundreds of MB).
   */
  private async writeWhole(file: string, parts: readonly unknown[]): Promise<void> {
    // An open descriptor would go on writing to the file this one replaces.
    this.closeJournal(file);
    this.made.delete(dirname(file));
    await this.folder(file);
    const temp = `${file}.${process.pid}.tmp`;
    try {
      const handle = await open(temp, 'w', PRIVATE_FILE_MODE);
      try {
        let slice = '';
        for (const part of parts) {
          slice += typeof part === 'string' ? part : `${JSON.stringify(part)}\n`;
          if (slice.length < SLICE_CHARS) continue;
          await handle.write(slice);
          slice = '';
        }
        if (slice) await handle.write(slice);
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
