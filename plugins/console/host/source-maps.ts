import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SourceMapConsumer } from 'source-map-js';
import type { Frame } from '../protocol.js';

export interface SourceMapOptions {
  /** Fetch scripts and maps from hosts other than loopback (127.0.0.0/8, ::1, localhost). Default false. */
  allowRemote?: boolean;
  /** Read scripts and maps from this machine's disk (Node and Electron apps). Default true. */
  allowDisk?: boolean;
  /** Scripts whose map (or its absence) is remembered. Default 64. */
  maxScripts?: number;
  /** Largest script or map read, in bytes. Default 32 MiB. */
  maxBytes?: number;
  /** Per fetch. Default 3 s. */
  timeoutMs?: number;
}

interface Loaded {
  consumer: SourceMapConsumer;
  /** Where the map is: sources resolve against it. */
  base: string;
}

const MAPPING_URL = /[#@]\s*sourceMappingURL=([^\s'"*]+)\s*(?:\*\/)?\s*$/;

/**
 * Maps stack frames to the app's original sources. A browser frame's script is fetched from the
 * app's own origin (loopback only unless allowRemote); a Node frame's file is read from disk. The
 * map is found by the script's `sourceMappingURL` (a data: URL, or a file or URL beside it) or,
 * over HTTP, its `SourceMap` header. Scripts are remembered, map or not, up to maxScripts (oldest
 * forgotten first); a failure to load a map only means frames stay as they are.
 */
export class SourceMapper {
  private readonly scripts = new Map<string, Promise<Loaded | null>>();
  private readonly options: Required<SourceMapOptions>;

  constructor(options: SourceMapOptions = {}) {
    this.options = {
      allowRemote: false,
      allowDisk: true,
      maxScripts: 64,
      maxBytes: 32 * 1024 * 1024,
      timeoutMs: 3000,
      ...options,
    };
  }

  /** The frame's place in the original source, or undefined when no map says. */
  async map(frame: Frame): Promise<Frame | undefined> {
    const loaded = await this.load(frame.file);
    if (!loaded) return undefined;
    const pos = loaded.consumer.originalPositionFor({ line: frame.line, column: Math.max(0, frame.column - 1) });
    if (pos.source == null || pos.line == null) return undefined;
    const mapped: Frame = {
      file: resolveSource(pos.source, loaded.base),
      line: pos.line,
      column: (pos.column ?? 0) + 1,
    };
    const fn = pos.name ?? frame.fn;
    if (fn) mapped.fn = fn;
    return mapped;
  }

  private load(file: string): Promise<Loaded | null> {
    const key = file.replace(/[?#].*$/, '');
    let loading = this.scripts.get(key);
    if (loading) {
      this.scripts.delete(key); // most recently used last
      this.scripts.set(key, loading);
      return loading;
    }
    loading = this.loadScript(file).catch(() => null);
    this.scripts.set(key, loading);
    while (this.scripts.size > this.options.maxScripts) this.scripts.delete(this.scripts.keys().next().value!);
    return loading;
  }

  private async loadScript(file: string): Promise<Loaded | null> {
    if (/^https?:\/\//i.test(file)) return this.loadHttp(file);
    if (!this.options.allowDisk) return null;
    let path: string;
    if (/^file:\/\//i.test(file)) path = fileURLToPath(file);
    else if (isAbsolute(file)) path = file;
    else return null;
    if (!/\.[cm]?js$/i.test(path)) return null; // maps belong to generated JavaScript
    const text = await this.readDisk(path);
    const ref = mappingUrl(text);
    if (!ref) return null;
    if (ref.startsWith('data:')) return parseMap(decodeDataUrl(ref), pathToFileURL(path).href);
    const mapPath = resolve(dirname(path), decodeURIComponent(ref));
    return parseMap(await this.readDisk(mapPath), pathToFileURL(mapPath).href);
  }

  private async loadHttp(url: string): Promise<Loaded | null> {
    const script = await this.fetchText(url);
    if (!script) return null;
    const ref = mappingUrl(script.text) ?? script.header ?? undefined;
    if (!ref) return null;
    if (ref.startsWith('data:')) return parseMap(decodeDataUrl(ref), url);
    const mapUrl = new URL(ref, url);
    if (mapUrl.origin !== new URL(url).origin) return null; // a map on another origin is not the app's to show
    const map = await this.fetchText(mapUrl.href);
    return map ? parseMap(map.text, mapUrl.href) : null;
  }

  private async fetchText(url: string): Promise<{ text: string; header: string | null } | undefined> {
    const parsed = new URL(url);
    if (!this.options.allowRemote && !isLoopback(parsed.hostname)) return undefined;
    const response = await fetch(parsed, { signal: AbortSignal.timeout(this.options.timeoutMs), redirect: 'error' });
    if (!response.ok) return undefined;
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > this.options.maxBytes) return undefined;
    const text = await response.text();
    if (text.length > this.options.maxBytes) return undefined;
    return { text, header: response.headers.get('sourcemap') ?? response.headers.get('x-sourcemap') };
  }

  private async readDisk(path: string): Promise<string> {
    const info = await stat(path);
    if (!info.isFile() || info.size > this.options.maxBytes) throw new Error(`not read: ${path}`);
    return readFile(path, 'utf8');
  }
}

function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** The last sourceMappingURL comment, looked for in the script's last lines only. */
function mappingUrl(text: string): string | undefined {
  const tail = text
    .slice(-Math.min(text.length, 1024 * 1024))
    .trimEnd()
    .split('\n')
    .slice(-5);
  for (let i = tail.length - 1; i >= 0; i--) {
    const m = MAPPING_URL.exec(tail[i]!);
    if (m) return m[1];
  }
  return undefined;
}

function decodeDataUrl(url: string): string {
  const comma = url.indexOf(',');
  const meta = url.slice(5, comma);
  const data = url.slice(comma + 1);
  return meta.endsWith(';base64') ? Buffer.from(data, 'base64').toString('utf8') : decodeURIComponent(data);
}

function parseMap(text: string, mapUrl: string): Loaded | null {
  // Given the map's URL, the consumer resolves sources (and sourceRoot) against it.
  const Consumer = SourceMapConsumer as unknown as new (raw: unknown, url: string) => SourceMapConsumer;
  return { consumer: new Consumer(JSON.parse(text), mapUrl), base: mapUrl };
}

/** A source path of the map, as a URL (browser) or a file path (Node). */
function resolveSource(source: string, base: string): string {
  try {
    const url = new URL(source, base);
    return url.protocol === 'file:' ? fileURLToPath(url) : url.href;
  } catch {
    return source;
  }
}
