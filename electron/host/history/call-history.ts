import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type {
  CallDetail,
  CallSummary,
  ClientInfo,
  StoredContent,
  StoredResult,
  ToolResultJson,
} from '../../../shared/call-record.js';
import type { CallDecision } from '../../../shared/permissions.js';
import type { CallSurface } from '../../../shared/tool.js';
import { mirrorText, type ToolResult } from '../../../shared/tool-result.js';
import { keepAside } from '../data-dir.js';
import type { EventBus } from '../event-bus.js';
import type { DataDirHealth } from '../persistence-health.js';
import { HistoryFile } from './history-file.js';
import { ImageStore } from './image-store.js';

export interface CallStart {
  tool: string;
  plugin?: string;
  sessionId?: string;
  surface: CallSurface;
  client?: ClientInfo;
  args: unknown;
}

export interface HistoryOptions {
  /** Calls kept; the oldest go first. */
  maxRecords?: number;
  /** A longer text block is cut in the history (the caller still got all of it). */
  maxTextChars?: number;
  /** Arguments whose JSON is longer are kept as a preview only (the tool still got all of them). */
  maxArgsChars?: number;
  /** A structuredContent whose JSON is longer is kept as a preview only. */
  maxStructuredChars?: number;
  /** Bytes of records kept (in memory and in the file after a rewrite); the oldest calls go first. */
  maxBytes?: number;
  /** Secrets (the UI and MCP tokens) never written into a record: replaced by `[redacted]`. */
  secrets?: () => readonly (string | undefined)[];
  /** Told when writing the file fails and when it works again (the status tool, the window, one log line). */
  health?: DataDirHealth;
}

/** After a failed write the next try waits this long, longer each time (the calls stay in memory). */
const RETRY_MS = [1000, 2000, 4000, 8000];

export const REDACTED = '[redacted]';

export interface HistoryFilter {
  status?: CallSummary['status'];
  tool?: string;
  sessionId?: string;
  surface?: CallSurface;
}

/**
 * A kept call: its summary and its lines as written (arguments and result as JSON, read back when
 * asked for: holding them as objects made every call's answer live on in the heap for the GC to
 * copy and scan), and the images its result refers to.
 */
interface Entry {
  summary: CallSummary;
  lines: string;
  images?: string[];
}

/** Longest tool name, session id, plugin and client field kept; error texts get their own bound. */
const MAX_NAME_CHARS = 200;
const MAX_ERROR_CHARS = 8 * 1024;

function cut(text: string, max: number): string;
function cut(text: string | undefined, max: number): string | undefined;
function cut(text: string | undefined, max: number): string | undefined {
  if (text === undefined || text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters not kept in the history)`;
}

/** Secrets are base64url, so they can be replaced in JSON text without breaking it. */
function redactText(json: string, secrets: readonly string[]): string {
  return secrets.reduce((text, secret) => text.split(secret).join(REDACTED), json);
}

/** An object's JSON with one more member at its end (`objectJson` is the JSON of a plain object). */
function withMember(objectJson: string, key: string, valueJson: string): string {
  const member = `${JSON.stringify(key)}:${valueJson}`;
  return objectJson === '{}' ? `{${member}}` : `${objectJson.slice(0, -1)},${member}}`;
}

/** A call's lines: `started` with its arguments, and `finished` with its result once it ended. */
function serialized(summary: CallSummary, args: unknown, result: StoredResult | undefined): string {
  const { status, durationMs, error, decision, ...started } = summary;
  let lines = `${JSON.stringify({ kind: 'started', call: { ...started, args } })}\n`;
  if (status !== 'running' && result)
    lines += `${JSON.stringify({ kind: 'finished', id: summary.id, durationMs: durationMs ?? 0, status, error, decision, result })}\n`;
  return lines;
}

/** A kept call's arguments and result, read back from its lines. */
function readBack(entry: Entry): { args: unknown; result?: StoredResult } {
  const [started, finished] = entry.lines.split('\n');
  const args = started ? (JSON.parse(started) as { call: { args?: unknown } }).call.args : undefined;
  const result = finished ? (JSON.parse(finished) as { result: StoredResult }).result : undefined;
  return { args, result };
}

function imagesOf(result: StoredResult | undefined): string[] | undefined {
  const refs = result?.content.flatMap((block) => (block.type === 'image' ? [block.ref] : []));
  return refs?.length ? refs : undefined;
}

/** How a call can end. */
export type FinishedStatus = Exclude<CallSummary['status'], 'running'>;

const INTERRUPTED = 'the inspector stopped before this call finished';

/**
 * Every tool call from every surface, newest last in memory, persisted as JSON Lines in
 * `<data-dir>/history/`. Bounded: past `maxRecords` the oldest calls are dropped (and the file is
 * rewritten once it holds twice that many). Announces `call:started` and `call:finished` on the bus.
 */
export class CallHistory {
  private readonly entries = new Map<string, Entry>();
  private readonly file: HistoryFile;
  private readonly images: ImageStore;
  private readonly maxRecords: number;
  private readonly maxTextChars: number;
  private readonly maxArgsChars: number;
  private readonly maxStructuredChars: number;
  private readonly maxBytes: number;
  private readonly secrets: () => readonly (string | undefined)[];
  private readonly health: DataDirHealth | undefined;
  /** Writes that failed in a row: while any did, the file is rewritten whole from memory at the next try. */
  private failures = 0;
  private linesInFile = 0;
  private bytesInFile = 0;
  private bytesKept = 0;
  /** Lines waiting to be appended: written in batches, off the call's path. */
  private pending: string[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private compactWanted = false;
  /** File operations, one after another. */
  private io: Promise<void> = Promise.resolve();

  constructor(
    dataDir: string,
    private readonly bus: EventBus,
    options: HistoryOptions = {},
  ) {
    this.file = new HistoryFile(join(dataDir, 'history', 'calls.jsonl'));
    this.images = new ImageStore(join(dataDir, 'history', 'images'));
    this.maxRecords = Math.max(1, options.maxRecords ?? 1000);
    this.maxTextChars = options.maxTextChars ?? 256 * 1024;
    this.maxArgsChars = options.maxArgsChars ?? 256 * 1024;
    this.maxStructuredChars = options.maxStructuredChars ?? 256 * 1024;
    this.maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
    this.secrets = options.secrets ?? (() => []);
    this.health = options.health;
  }

  /** Reads the file back; a call that never finished (the inspector died) is recorded as failed. */
  load(): void {
    const { lines, damaged } = this.file.read();
    this.entries.clear();
    this.bytesKept = 0;
    const loaded = new Map<string, { summary: CallSummary; args: unknown; result?: StoredResult }>();
    for (const line of lines) {
      if (line.kind === 'started') {
        const { args, ...call } = line.call;
        loaded.delete(call.id);
        loaded.set(call.id, { summary: { ...call, status: 'running' }, args });
      } else {
        const call = loaded.get(line.id);
        if (!call) continue;
        call.summary = { ...call.summary, status: line.status, durationMs: line.durationMs, error: line.error };
        if (line.decision) call.summary.decision = line.decision;
        call.result = line.result;
      }
    }
    let interrupted = 0;
    for (const call of loaded.values()) {
      if (call.summary.status === 'running') {
        call.summary = { ...call.summary, status: 'failed', error: INTERRUPTED };
        call.result = { content: [{ type: 'text', text: INTERRUPTED }], isError: true };
        interrupted++;
      }
      const entry: Entry = { summary: call.summary, lines: serialized(call.summary, call.args, call.result) };
      const images = imagesOf(call.result);
      if (images) entry.images = images;
      this.entries.set(call.summary.id, entry);
      this.bytesKept += entry.lines.length;
    }
    this.trim();
    this.linesInFile = lines.length;
    this.bytesInFile = this.file.size();
    if (damaged > 0) {
      const aside = keepAside(this.file.path, 'damaged', true);
      console.error(
        `[porthole] call history: skipped ${damaged} unreadable line(s) in ${this.file.path}${aside ? `; the file as it was is kept as ${aside}` : ''}`,
      );
    }
    if (damaged > 0 || interrupted > 0 || this.linesInFile > this.entries.size * 2 || this.bytesInFile > this.maxBytes)
      this.compactNow();
  }

  start(call: CallStart): CallSummary {
    const summary: CallSummary = {
      id: randomUUID(),
      tool: cut(call.tool, MAX_NAME_CHARS),
      plugin: cut(call.plugin, MAX_NAME_CHARS),
      sessionId: cut(call.sessionId, MAX_NAME_CHARS),
      surface: call.surface,
      client: call.client && {
        name: cut(call.client.name, MAX_NAME_CHARS),
        version: cut(call.client.version, MAX_NAME_CHARS),
      },
      startedAt: Date.now(),
      status: 'running',
    };
    const secrets = this.activeSecrets();
    let argsJson = this.keepable(call.args);
    if (secrets.some((secret) => argsJson.includes(secret))) argsJson = redactText(argsJson, secrets);
    const entry: Entry = { summary, lines: '' };
    this.entries.set(summary.id, entry);
    const { status: _status, ...started } = summary;
    // The line is `{kind, call: {...started, args}}`, with the arguments' JSON made once above.
    this.writeLine(entry, `{"kind":"started","call":${withMember(JSON.stringify(started), 'args', argsJson)}}\n`);
    this.trim();
    this.bus.emit('call:started', { call: summary });
    return summary;
  }

  finish(
    id: string,
    outcome: { status: FinishedStatus; result: ToolResult; decision?: CallDecision },
  ): CallSummary | undefined {
    const entry = this.entries.get(id);
    if (entry?.summary.status !== 'running') return undefined;
    const durationMs = Math.round((Date.now() - entry.summary.startedAt) * 100) / 100;
    const error =
      outcome.status === 'succeeded' ? undefined : this.redact(cut(outcome.result.textContent, MAX_ERROR_CHARS));
    let result: StoredResult;
    let resultJson: string;
    try {
      ({ result, json: resultJson } = this.store(outcome.result));
    } catch (e) {
      console.error('[porthole] call history: could not store a result:', e);
      result = {
        content: [{ type: 'text', text: `(the result could not be stored: ${(e as Error).message})` }],
        isError: outcome.result.isError,
      };
      resultJson = JSON.stringify(result);
    }
    const { decision } = outcome;
    entry.summary = { ...entry.summary, status: outcome.status, durationMs, error, ...(decision && { decision }) };
    const images = imagesOf(result);
    if (images) entry.images = images;
    const head = JSON.stringify({ kind: 'finished', id, durationMs, status: outcome.status, error, decision });
    this.writeLine(entry, `${withMember(head, 'result', resultJson)}\n`);
    this.trim();
    this.bus.emit('call:finished', { call: entry.summary });
    return entry.summary;
  }

  /** Newest first, at most `limit`, optionally only the matching calls. */
  list(limit?: number, filter: HistoryFilter = {}): CallSummary[] {
    const out: CallSummary[] = [];
    const all = [...this.entries.values()];
    for (let i = all.length - 1; i >= 0 && out.length < (limit ?? Number.POSITIVE_INFINITY); i--) {
      const s = all[i]!.summary;
      if (filter.status && s.status !== filter.status) continue;
      if (filter.tool && s.tool !== filter.tool) continue;
      if (filter.sessionId && s.sessionId !== filter.sessionId) continue;
      if (filter.surface && s.surface !== filter.surface) continue;
      out.push(s);
    }
    return out;
  }

  /** Calls `listener` as calls start and finish. */
  subscribe(listener: (event: 'call:started' | 'call:finished', call: CallSummary) => void): () => void {
    const off = [
      this.bus.on('call:started', ({ call }) => listener('call:started', call)),
      this.bus.on('call:finished', ({ call }) => listener('call:finished', call)),
    ];
    return () => {
      for (const f of off) f();
    };
  }

  /** One call with its arguments and its result as the caller got it (images read back from disk). */
  get(id: string): CallDetail | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const { args, result } = readBack(entry);
    return { ...entry.summary, args, result: result && this.resolve(result) };
  }

  /** The stored form of a call's result: images by reference, a mirrored JSON payload once. */
  stored(id: string): StoredResult | undefined {
    const entry = this.entries.get(id);
    return entry && readBack(entry).result;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The most calls kept: a window keeps no more than this either, so every window counts alike. */
  get capacity(): number {
    return this.maxRecords;
  }

  /** Ids of the calls whose tool, error, arguments or result contain `text` (case-insensitive), newest first. */
  search(text: string): string[] {
    const needle = text.toLowerCase();
    // The lines hold everything searched, as JSON: a call whose lines have neither the text nor its
    // JSON-escaped form cannot match, and is not read back.
    const escaped = JSON.stringify(needle).slice(1, -1);
    const ids: string[] = [];
    for (const entry of [...this.entries.values()].reverse()) {
      const lower = entry.lines.toLowerCase();
      if (!lower.includes(needle) && !lower.includes(escaped)) continue;
      const { summary } = entry;
      const { args, result } = readBack(entry);
      const hay = [
        summary.tool,
        summary.error ?? '',
        JSON.stringify(args) ?? '',
        ...(result?.content.map((b) => (b.type === 'text' ? b.text : '')) ?? []),
        result?.structuredContent ? JSON.stringify(result.structuredContent) : '',
      ];
      if (hay.some((h) => h.toLowerCase().includes(needle))) ids.push(summary.id);
    }
    return ids;
  }

  /** Forgets every finished call (running ones stay until they finish). */
  clear(): number {
    let cleared = 0;
    for (const [id, entry] of this.entries) {
      if (entry.summary.status === 'running') continue;
      this.forget(id);
      cleared++;
    }
    this.requestCompaction();
    return cleared;
  }

  /** Resolves once every record so far is in the file (appends and rewrites are batched off the call path). */
  flush(): Promise<void> {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
      this.queueFlush();
    }
    return this.io;
  }

  get path(): string {
    return this.file.path;
  }

  private activeSecrets(): string[] {
    return this.secrets().filter((s): s is string => !!s && s.length >= 8);
  }

  /** The value with every secret in its strings (and keys) replaced; a copy only where something changed. */
  private redact<T>(value: T): T {
    const secrets = this.activeSecrets();
    if (secrets.length === 0 || value === undefined) return value;
    const json = JSON.stringify(value);
    if (json === undefined || !secrets.some((secret) => json.includes(secret))) return value;
    return JSON.parse(redactText(json, secrets)) as T;
  }

  /** The JSON of the arguments as kept: in full unless it is very long (a whole HAR file, say). */
  private keepable(args: unknown): string {
    let json: string;
    try {
      json = JSON.stringify(args) ?? 'null';
    } catch (e) {
      return JSON.stringify({ '(not kept)': `the arguments could not be written as JSON: ${(e as Error).message}` });
    }
    if (json.length <= this.maxArgsChars) return json;
    return JSON.stringify({
      '(not kept)': `the arguments were ${json.length} characters of JSON; the history keeps the first ${this.maxArgsChars}`,
      preview: json.slice(0, this.maxArgsChars),
    });
  }

  /**
   * A result as kept, secrets replaced, with its JSON: the structured payload's JSON is the text
   * mirror the caller got (made once), not made again.
   */
  private store(result: ToolResult): { result: StoredResult; json: string } {
    const stored = this.storable(result);
    const structuredJson =
      stored.structuredContent === undefined
        ? undefined
        : stored.structuredContent === result.structuredContent
          ? mirrorText(stored.structuredContent)
          : JSON.stringify(stored.structuredContent);
    const contentJson = JSON.stringify(stored.content);
    let json = `{"content":${contentJson}${structuredJson === undefined ? '' : `,"structuredContent":${structuredJson}`},"isError":${stored.isError}}`;
    const secrets = this.activeSecrets();
    if (!secrets.some((secret) => json.includes(secret))) return { result: stored, json };
    json = redactText(json, secrets);
    return { result: JSON.parse(json) as StoredResult, json };
  }

  private storable(result: ToolResult): StoredResult {
    const mirror = result.structuredContent ? mirrorText(result.structuredContent) : undefined;
    const structuredCut = mirror !== undefined && mirror.length > this.maxStructuredChars;
    const structuredContent = structuredCut
      ? {
          '(not kept)': `the structured result was ${mirror.length} characters of JSON; the history keeps the first ${this.maxStructuredChars}`,
          preview: mirror.slice(0, this.maxStructuredChars),
        }
      : result.structuredContent;
    let mirrored = false;
    const content = result.content.map((block): StoredContent => {
      if (block.type === 'image')
        return { type: 'image', mimeType: block.mimeType, ...this.images.put(block.data, block.mimeType) };
      if (block.type === 'resource_link') return block;
      if (!mirrored && block.text === mirror) {
        mirrored = true;
        if (structuredCut) return { type: 'text', text: cut(block.text, Math.min(this.maxTextChars, 4096)) };
        return { type: 'mirror' };
      }
      if (block.text.length <= this.maxTextChars) return block;
      return { type: 'text', text: cut(block.text, this.maxTextChars) };
    });
    return { content, structuredContent, isError: result.isError };
  }

  private resolve(result: StoredResult): ToolResultJson {
    return {
      isError: result.isError,
      structuredContent: result.structuredContent,
      content: result.content.map((block) => {
        if (block.type === 'mirror') return { type: 'text', text: mirrorText(result.structuredContent ?? {}) };
        if (block.type === 'text' || block.type === 'resource_link') return block;
        const data = this.images.get(block.ref);
        return data === undefined
          ? { type: 'text', text: `(a ${block.mimeType} image of ${block.bytes} bytes that is no longer stored)` }
          : { type: 'image', data, mimeType: block.mimeType };
      }),
    };
  }

  private writeLine(entry: Entry, json: string): void {
    this.bytesKept += json.length;
    entry.lines += json;
    this.pending.push(json);
    this.linesInFile++;
    this.bytesInFile += json.length;
    if (this.linesInFile > this.maxRecords * 4 || this.bytesInFile > this.maxBytes * 2) this.compactWanted = true;
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      this.queueFlush();
    }, 20);
    this.flushTimer.unref?.();
  }

  /**
   * Appends what is pending (taken when the step runs), then rewrites the file if it has grown past
   * its bound. A write that fails (a full disk, the file replaced by a folder) is said once; the
   * calls stay in memory, and the next try (later each time) writes the file whole from them.
   */
  private queueFlush(): void {
    this.io = this.io.then(async () => {
      try {
        if (this.pending.length > 0 && !this.compactWanted) {
          const batch = this.pending.join('');
          this.pending = [];
          await this.file.appendAsync(batch);
        }
        if (this.compactWanted) await this.compactAsync();
        if (this.failures > 0) {
          this.failures = 0;
          this.health?.succeeded('history');
        }
      } catch (e) {
        this.failures++;
        this.compactWanted = true;
        if (this.health) this.health.failed('history', this.file.path, e);
        else console.error(`[porthole] call history: could not write ${this.file.path}: ${(e as Error).message}`);
        this.flushTimer ??= setTimeout(
          () => {
            this.flushTimer = undefined;
            this.queueFlush();
          },
          RETRY_MS[Math.min(this.failures - 1, RETRY_MS.length - 1)],
        );
        this.flushTimer.unref?.();
      }
    });
  }

  private requestCompaction(): void {
    this.compactWanted = true;
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      this.queueFlush();
    }, 0);
  }

  /** Drops the oldest finished calls past the count and byte bounds (running calls stay). */
  private trim(): void {
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= this.maxRecords && this.bytesKept <= this.maxBytes) break;
      if (entry.summary.status === 'running' && this.entries.size <= this.maxRecords) continue;
      this.forget(id);
    }
  }

  private forget(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.bytesKept -= entry.lines.length;
    this.entries.delete(id);
  }

  /** The kept calls' lines (already serialized) and the images they refer to. */
  private snapshot(): { parts: string[]; bytes: number; lines: number; refs: Set<string> } {
    const refs = new Set<string>();
    const parts: string[] = [];
    let lines = 0;
    let bytes = 0;
    for (const entry of this.entries.values()) {
      parts.push(entry.lines);
      bytes += entry.lines.length;
      lines += entry.summary.status === 'running' ? 1 : 2;
      for (const ref of entry.images ?? []) refs.add(ref);
    }
    // Everything pending is in the snapshot: appending it after the rewrite would repeat it.
    this.pending = [];
    this.compactWanted = false;
    return { parts, bytes, lines, refs };
  }

  /** At start, before any call: rewrites the file with the kept calls only (tried again later if it cannot). */
  private compactNow(): void {
    const { parts, bytes, lines, refs } = this.snapshot();
    try {
      this.file.rewrite(parts.join(''));
      this.linesInFile = lines;
      this.bytesInFile = bytes;
      this.images.retainOnly(refs);
    } catch (e) {
      this.failures++;
      this.compactWanted = true;
      if (this.health) this.health.failed('history', this.file.path, e);
      else console.error(`[porthole] call history: could not rewrite ${this.file.path}: ${(e as Error).message}`);
    }
  }

  /**
   * Rewrites the file with the kept calls only (write beside, rename), in slices so the loop never
   * waits on it, and deletes unreferenced images.
   */
  private async compactAsync(): Promise<void> {
    const { parts, bytes, lines, refs } = this.snapshot();
    try {
      await this.file.rewriteAsync(parts);
    } catch (e) {
      // What was pending is in the snapshot: the next try writes it all again.
      this.compactWanted = true;
      throw e;
    }
    this.linesInFile = lines + this.pending.length;
    this.bytesInFile = bytes + this.pending.reduce((n, l) => n + l.length, 0);
    this.images.retainOnly(refs);
  }
}
