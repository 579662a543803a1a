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
import type { CallSurface } from '../../../shared/tool.js';
import { mirrorText, type ToolResult } from '../../../shared/tool-result.js';
import type { CallOutcomeStatus } from '../../../shared/tool-runner.js';
import { keepAside } from '../data-dir.js';
import type { EventBus } from '../event-bus.js';
import { HistoryFile, type HistoryLine } from './history-file.js';
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
  /** Secrets (the UI and MCP tokens) never written into a record: replaced by `[redacted]`. */
  secrets?: () => readonly (string | undefined)[];
}

export const REDACTED = '[redacted]';

export interface HistoryFilter {
  status?: CallSummary['status'];
  tool?: string;
  sessionId?: string;
  surface?: CallSurface;
}

interface Entry {
  summary: CallSummary;
  args: unknown;
  result?: StoredResult;
}

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
  private readonly secrets: () => readonly (string | undefined)[];
  private linesInFile = 0;

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
    this.secrets = options.secrets ?? (() => []);
  }

  /** Reads the file back; a call that never finished (the inspector died) is recorded as failed. */
  load(): void {
    const { lines, damaged } = this.file.read();
    this.entries.clear();
    for (const line of lines) {
      if (line.kind === 'started') {
        const { args, ...call } = line.call;
        this.entries.set(call.id, { summary: { ...call, status: 'running' }, args });
      } else {
        const entry = this.entries.get(line.id);
        if (!entry) continue;
        entry.summary = { ...entry.summary, status: line.status, durationMs: line.durationMs, error: line.error };
        entry.result = line.result;
      }
    }
    let interrupted = 0;
    for (const entry of this.entries.values()) {
      if (entry.summary.status !== 'running') continue;
      entry.summary = { ...entry.summary, status: 'failed', error: INTERRUPTED };
      entry.result = { content: [{ type: 'text', text: INTERRUPTED }], isError: true };
      interrupted++;
    }
    this.trim();
    this.linesInFile = lines.length;
    if (damaged > 0) {
      const aside = keepAside(this.file.path, 'damaged', true);
      console.error(
        `[porthole] call history: skipped ${damaged} unreadable line(s) in ${this.file.path}${aside ? `; the file as it was is kept as ${aside}` : ''}`,
      );
    }
    if (damaged > 0 || interrupted > 0 || this.linesInFile > this.entries.size * 2) this.compact();
  }

  start(call: CallStart): CallSummary {
    const summary: CallSummary = {
      id: randomUUID(),
      tool: call.tool,
      plugin: call.plugin,
      sessionId: call.sessionId,
      surface: call.surface,
      client: call.client,
      startedAt: Date.now(),
      status: 'running',
    };
    const args = this.redact(this.keepable(call.args));
    this.entries.set(summary.id, { summary, args });
    const { status: _status, ...started } = summary;
    this.write({ kind: 'started', call: { ...started, args } });
    this.trim();
    this.bus.emit('call:started', { call: summary });
    return summary;
  }

  finish(id: string, outcome: { status: CallOutcomeStatus; result: ToolResult }): CallSummary | undefined {
    const entry = this.entries.get(id);
    if (entry?.summary.status !== 'running') return undefined;
    const durationMs = Math.round((Date.now() - entry.summary.startedAt) * 100) / 100;
    const error = outcome.status === 'succeeded' ? undefined : this.redact(outcome.result.textContent);
    let result: StoredResult;
    try {
      result = this.redact(this.store(outcome.result));
    } catch (e) {
      console.error('[porthole] call history: could not store a result:', e);
      result = {
        content: [{ type: 'text', text: `(the result could not be stored: ${(e as Error).message})` }],
        isError: outcome.result.isError,
      };
    }
    entry.summary = { ...entry.summary, status: outcome.status, durationMs, error };
    entry.result = result;
    this.write({ kind: 'finished', id, durationMs, status: outcome.status, error, result });
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
    return { ...entry.summary, args: entry.args, result: entry.result && this.resolve(entry.result) };
  }

  /** The stored form of a call's result: images by reference, a mirrored JSON payload once. */
  stored(id: string): StoredResult | undefined {
    return this.entries.get(id)?.result;
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
    const ids: string[] = [];
    for (const { summary, args, result } of [...this.entries.values()].reverse()) {
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
      this.entries.delete(id);
      cleared++;
    }
    this.compact();
    return cleared;
  }

  get path(): string {
    return this.file.path;
  }

  /** The value with every secret in its strings (and keys) replaced; a copy only where something changed. */
  private redact<T>(value: T): T {
    const secrets = this.secrets().filter((s): s is string => !!s && s.length >= 8);
    if (secrets.length === 0) return value;
    const scrub = (text: string) => secrets.reduce((t, secret) => t.split(secret).join(REDACTED), text);
    const walk = (v: unknown, depth: number): unknown => {
      if (typeof v === 'string') return scrub(v);
      if (v === null || typeof v !== 'object' || depth > 64) return v;
      if (Array.isArray(v)) return v.map((item) => walk(item, depth + 1));
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(v)) out[scrub(key)] = walk(item, depth + 1);
      return out;
    };
    return walk(value, 0) as T;
  }

  /** Arguments as kept: in full unless their JSON is very long (a whole HAR file, say). */
  private keepable(args: unknown): unknown {
    let json: string;
    try {
      json = JSON.stringify(args) ?? 'null';
    } catch (e) {
      return { '(not kept)': `the arguments could not be written as JSON: ${(e as Error).message}` };
    }
    if (json.length <= this.maxArgsChars) return args;
    return {
      '(not kept)': `the arguments were ${json.length} characters of JSON; the history keeps the first ${this.maxArgsChars}`,
      preview: json.slice(0, this.maxArgsChars),
    };
  }

  private store(result: ToolResult): StoredResult {
    const mirror = result.structuredContent ? mirrorText(result.structuredContent) : undefined;
    let mirrored = false;
    const content = result.content.map((block): StoredContent => {
      if (block.type === 'image')
        return { type: 'image', mimeType: block.mimeType, ...this.images.put(block.data, block.mimeType) };
      if (!mirrored && block.text === mirror) {
        mirrored = true;
        return { type: 'mirror' };
      }
      if (block.text.length <= this.maxTextChars) return block;
      const cut = block.text.length - this.maxTextChars;
      return {
        type: 'text',
        text: `${block.text.slice(0, this.maxTextChars)}… (${cut} more characters not kept in the history)`,
      };
    });
    return { content, structuredContent: result.structuredContent, isError: result.isError };
  }

  private resolve(result: StoredResult): ToolResultJson {
    return {
      isError: result.isError,
      structuredContent: result.structuredContent,
      content: result.content.map((block) => {
        if (block.type === 'mirror') return { type: 'text', text: mirrorText(result.structuredContent ?? {}) };
        if (block.type === 'text') return block;
        const data = this.images.get(block.ref);
        return data === undefined
          ? { type: 'text', text: `(a ${block.mimeType} image of ${block.bytes} bytes that is no longer stored)` }
          : { type: 'image', data, mimeType: block.mimeType };
      }),
    };
  }

  private write(line: HistoryLine): void {
    try {
      this.file.append(line);
      this.linesInFile++;
      if (this.linesInFile > this.maxRecords * 4) this.compact();
    } catch (e) {
      console.error(`[porthole] call history: could not write ${this.file.path}:`, e);
    }
  }

  private trim(): void {
    for (const id of this.entries.keys()) {
      if (this.entries.size <= this.maxRecords) break;
      this.entries.delete(id);
    }
  }

  /** Rewrites the file with the kept calls only and deletes images nothing refers to. */
  private compact(): void {
    const lines: HistoryLine[] = [];
    const refs = new Set<string>();
    for (const { summary, args, result } of this.entries.values()) {
      const { status, durationMs, error, ...started } = summary;
      lines.push({ kind: 'started', call: { ...started, args } });
      if (status !== 'running' && result) {
        lines.push({ kind: 'finished', id: summary.id, durationMs: durationMs ?? 0, status, error, result });
        for (const block of result.content) if (block.type === 'image') refs.add(block.ref);
      }
    }
    try {
      this.file.rewrite(lines);
      this.linesInFile = lines.length;
      this.images.retainOnly(refs);
    } catch (e) {
      console.error(`[porthole] call history: could not rewrite ${this.file.path}:`, e);
    }
  }
}
