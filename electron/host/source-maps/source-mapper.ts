import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SourceMapConsumer } from 'source-map-js';
import type { SourceFrame } from '../../../shared/host-plugin.js';
import { FunctionScanner, type ScriptFunctions } from './function-names.js';

/**
 * Where the inspector may look for one session's scripts and maps (source-access.ts decides it
 * from how the app connected): nothing else is ever fetched or read.
 */
export interface SourceAccess {
  /** Origins (`http://localhost:5173`) scripts and their maps may be fetched from. */
  origins: readonly string[];
  /** Files the frames name may be read from this machine's disk (a Node or Electron app running here). */
  disk: boolean;
  /** Folders the user pointed at (`--source-maps <dir>`): maps of anything else are looked up there by name. */
  folders: readonly string[];
  /**
   * A fetched map's absolute source paths are files on this machine, not paths on its origin:
   * Metro writes them so (`/Users/me/shop/App.js`), and serves on this machine.
   */
  absoluteSourcesAreFiles?: boolean;
}

export interface SourceMapperLimits {
  /** Scripts whose map (or its absence) is remembered. Default 64. */
  maxScripts?: number;
  /** Largest script or map read, in bytes. Default 32 MiB. */
  maxBytes?: number;
  /** Per fetch. Default 3 s. */
  timeoutMs?: number;
}

export interface SourceMapperOptions extends SourceMapperLimits {
  /** A map was parsed for `script`: it holds about `bytes` (the memory budget counts it). */
  onLoaded?(script: string, bytes: number): void;
  /** The map of `script` was let go (its place went to a newer script, or the mapper was cleared). */
  onForgotten?(script: string): void;
  /** Parses scripts for their functions off the event loop (shared by a core's mappers); else the mapper has its own, ended by close(). */
  scanner?: FunctionScanner;
}

interface Loaded {
  consumer: SourceMapConsumer;
  /** Where the map is: sources resolve against it. */
  base: string;
  /** The generated script's functions, when the script itself could be read (names frames). */
  functions?: ScriptFunctions;
}

/** The source text of a frame: the file (original when mapped), the frame's place in it, the text. */
export interface SourceText extends SourceFrame {
  text: string;
}

const SOURCE_TEXT_MAX = 4 * 1024 * 1024;
/** Larger scripts are not parsed for their functions (about 0.3-0.5 s a MB, in a worker): their frames keep the engine's names. */
const FUNCTION_SCAN_MAX = 8 * 1024 * 1024;

/** A parsed map holds about this many times its JSON's length (measured with source-map-js: 5.9×). */
export const PARSED_MAP_BYTES_PER_CHAR = 6;

const MAPPING_URL = /[#@]\s*sourceMappingURL=([^\s'"*]+)\s*(?:\*\/)?\s*$/;

/**
 * Maps stack frames to the app's original sources, within a SourceAccess. A frame's script is
 * fetched over HTTP only from an allowed origin, read from disk only when the app runs here, and its
 * map found by its `sourceMappingURL` (a data: URL, or a file or URL beside it, same origin) or its
 * `SourceMap` header; any other frame's map is looked up by the script's name in the user's folders.
 * Scripts are remembered, map or not, up to maxScripts (oldest forgotten first); a failure to load a
 * map only means frames stay as they are.
 */
export class SourceMapper {
  private readonly scripts = new Map<string, Promise<Loaded | null>>();
  private readonly limits: Required<SourceMapperLimits>;
  private readonly scanner: FunctionScanner;
  private readonly ownScanner: boolean;

  constructor(
    private readonly access: SourceAccess,
    private readonly options: SourceMapperOptions = {},
  ) {
    this.limits = { maxScripts: 64, maxBytes: 32 * 1024 * 1024, timeoutMs: 3000, ...options };
    this.ownScanner = !options.scanner;
    this.scanner = options.scanner ?? new FunctionScanner();
  }

  /** The frame's place in the original source, or undefined when no map says. */
  async map(frame: SourceFrame): Promise<SourceFrame | undefined> {
    const loaded = await this.load(frame.file);
    if (!loaded) return undefined;
    const pos = loaded.consumer.originalPositionFor({ line: frame.line, column: Math.max(0, frame.column - 1) });
    if (pos.source == null || pos.line == null) return undefined;
    const mapped: SourceFrame = {
      file: resolveSource(pos.source, loaded.base),
      line: pos.line,
      column: (pos.column ?? 0) + 1,
    };
    const fn = functionName(loaded, frame) ?? frame.fn;
    if (fn) mapped.fn = fn;
    return mapped;
  }

  /**
   * The text of the original source a frame is in (the map's `sourcesContent`), with the frame's
   * place in it; without a map, the script itself where it may be fetched or read. At most 4 MiB.
   */
  async source(frame: SourceFrame): Promise<SourceText | undefined> {
    const loaded = await this.load(frame.file);
    if (loaded) {
      const pos = loaded.consumer.originalPositionFor({ line: frame.line, column: Math.max(0, frame.column - 1) });
      if (pos.source == null || pos.line == null) return undefined;
      const text = loaded.consumer.sourceContentFor(pos.source, true);
      if (typeof text !== 'string' || text.length > SOURCE_TEXT_MAX) return undefined;
      return { file: resolveSource(pos.source, loaded.base), line: pos.line, column: (pos.column ?? 0) + 1, text };
    }
    const place = { file: frame.file, line: frame.line, column: frame.column };
    if (/^https?:\/\//i.test(frame.file)) {
      const script = await this.fetchText(frame.file).catch(() => undefined);
      return script && script.text.length <= SOURCE_TEXT_MAX ? { ...place, text: script.text } : undefined;
    }
    if (!this.access.disk) return undefined;
    const path = /^file:\/\//i.test(frame.file)
      ? fileURLToPath(frame.file)
      : isAbsolute(frame.file)
        ? frame.file
        : undefined;
    if (!path || !/\.[cm]?[jt]sx?$/i.test(path)) return undefined;
    const text = await readRegularFile(path, SOURCE_TEXT_MAX).catch(() => undefined);
    return text === undefined ? undefined : { ...place, text };
  }

  /** Lets the map of one script go (the memory budget took it): it is loaded again if a frame needs it. */
  forget(script: string): void {
    this.scripts.delete(script);
  }

  /** Lets every map go. */
  clear(): void {
    for (const script of [...this.scripts.keys()]) this.drop(script);
  }

  /** Lets every map go and ends the mapper's own function scanner (its worker thread). */
  close(): void {
    this.clear();
    if (this.ownScanner) this.scanner.close();
  }

  private drop(script: string): void {
    if (this.scripts.delete(script)) this.options.onForgotten?.(script);
  }

  private load(file: string): Promise<Loaded | null> {
    const key = file.replace(/[?#].*$/, '');
    let loading = this.scripts.get(key);
    if (loading) {
      this.scripts.delete(key); // most recently used last
      this.scripts.set(key, loading);
      return loading;
    }
    loading = this.loadScript(file)
      .catch(() => null)
      .then((loaded) => {
        if (loaded && this.scripts.get(key) === loading) this.options.onLoaded?.(key, loaded.bytes);
        return loaded && { consumer: loaded.consumer, base: loaded.base, functions: loaded.functions };
      });
    this.scripts.set(key, loading);
    while (this.scripts.size > this.limits.maxScripts) this.drop(this.scripts.keys().next().value!);
    return loading;
  }

  private async loadScript(file: string): Promise<Parsed | null> {
    if (/^https?:\/\//i.test(file)) {
      return this.allowed(file) ? this.loadHttp(file) : this.fromFolders(new URL(file).pathname);
    }
    let path: string | undefined;
    if (/^file:\/\//i.test(file)) path = fileURLToPath(file);
    else if (isAbsolute(file)) path = file;
    if (path && this.access.disk) return this.loadDisk(path);
    return this.fromFolders(path ?? file);
  }

  /** The script's functions beside its map (a frame is named after the function it is in), counted in its bytes. */
  private async withFunctions(map: Parsed | null, script: string): Promise<Parsed | null> {
    if (!map || script.length > FUNCTION_SCAN_MAX) return map;
    const functions = await this.scanner.parse(script);
    return functions ? { ...map, functions, bytes: map.bytes + functions.bytes } : map;
  }

  private allowed(url: string): boolean {
    try {
      return this.access.origins.includes(new URL(url).origin);
    } catch {
      return false;
    }
  }

  private async loadDisk(path: string): Promise<Parsed | null> {
    if (!/\.[cm]?js$/i.test(path)) return null; // maps belong to generated JavaScript
    const text = await readRegularFile(path, this.limits.maxBytes);
    const ref = mappingUrl(text);
    if (!ref) return this.withFunctions(await this.fromFolders(path), text);
    if (ref.startsWith('data:'))
      return this.withFunctions(parseMap(decodeDataUrl(ref), pathToFileURL(path).href), text);
    const mapPath = resolve(dirname(path), decodeURIComponent(ref));
    const map = await readRegularFile(mapPath, this.limits.maxBytes);
    return this.withFunctions(parseMap(map, pathToFileURL(mapPath).href), text);
  }

  private async loadHttp(url: string): Promise<Parsed | null> {
    const script = await this.fetchText(url);
    if (!script) return null;
    const ref = mappingUrl(script.text) ?? script.header ?? undefined;
    if (!ref) return this.withFunctions(await this.fromFolders(new URL(url).pathname), script.text);
    const files = this.access.absoluteSourcesAreFiles === true;
    if (ref.startsWith('data:')) return this.withFunctions(parseMap(decodeDataUrl(ref), url, files), script.text);
    const mapUrl = new URL(ref, url);
    // A map on another origin is not the app's to fetch (nor one the script names somewhere else).
    if (mapUrl.origin !== new URL(url).origin || !this.allowed(mapUrl.href)) return null;
    const map = await this.fetchText(mapUrl.href);
    return map ? this.withFunctions(parseMap(map.text, mapUrl.href, files), script.text) : null;
  }

  private async fetchText(url: string): Promise<{ text: string; header: string | null } | undefined> {
    if (!this.allowed(url)) return undefined;
    const response = await fetch(url, { signal: AbortSignal.timeout(this.limits.timeoutMs), redirect: 'error' });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > this.limits.maxBytes) {
      await response.body?.cancel();
      return undefined;
    }
    const text = await response.text();
    if (text.length > this.limits.maxBytes) return undefined;
    return { text, header: response.headers.get('sourcemap') ?? response.headers.get('x-sourcemap') };
  }

  /**
   * A map the user keeps in one of their folders for a script the inspector may not fetch or read:
   * `<folder>/<the script's path>.map`, else `<folder>/<the script's name>.map`.
   */
  private async fromFolders(scriptPath: string): Promise<Parsed | null> {
    const name = basename(scriptPath);
    if (!name) return null;
    const within = scriptPath.replace(/^[/\\]+/, '');
    for (const folder of this.access.folders) {
      const root = resolve(folder);
      for (const candidate of [`${within}.map`, `${name}.map`]) {
        const path = resolve(root, candidate);
        const rel = relative(root, path);
        if (!rel || rel.startsWith('..') || isAbsolute(rel) || !path.startsWith(`${root}${sep}`)) continue;
        const text = await readRegularFile(path, this.limits.maxBytes).catch(() => undefined);
        if (text !== undefined) return parseMap(text, pathToFileURL(path).href);
      }
    }
    return null;
  }
}

interface Parsed extends Loaded {
  bytes: number;
}

/**
 * A regular file of at most `maxBytes`, read through one handle: opened without blocking (a FIFO
 * put in its place cannot hang a libuv worker), checked on that handle, then read.
 */
async function readRegularFile(path: string, maxBytes: number): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > maxBytes) throw new Error(`not read: ${path}`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
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

function parseMap(text: string, mapUrl: string, absoluteSourcesAreFiles = false): Parsed {
  const raw = JSON.parse(text);
  if (absoluteSourcesAreFiles) pathsToFileUrls(raw);
  // Given the map's URL, the consumer resolves sources (and sourceRoot) against it.
  const Consumer = SourceMapConsumer as unknown as new (raw: unknown, url: string) => SourceMapConsumer;
  return {
    consumer: new Consumer(raw, mapUrl),
    base: mapUrl,
    bytes: text.length * PARSED_MAP_BYTES_PER_CHAR,
  };
}

/** A map's (and its sections') absolute source paths as file: URLs, which no map URL resolves away. */
function pathsToFileUrls(map: unknown, depth = 0): void {
  if (!map || typeof map !== 'object' || depth > 2) return;
  const { sources, sections } = map as { sources?: unknown; sections?: unknown };
  if (Array.isArray(sources)) {
    (map as { sources: unknown[] }).sources = sources.map((s) =>
      typeof s === 'string' && isAbsolute(s) && !/^[/\\]{2}/.test(s) ? pathToFileURL(s).href : s,
    );
  }
  if (Array.isArray(sections)) for (const section of sections) pathsToFileUrls(section?.map, depth + 1);
}

/**
 * The original name of the function a frame is in: the map's name at the place the generated
 * script names that function (a minifier's renaming), else the name written there (not renamed).
 * Undefined when the script could not be read or the frame is in no named function: the frame's
 * own name stays then. (Not the map's name at the frame's own place: that is what is called there.)
 */
function functionName(loaded: Loaded, frame: SourceFrame): string | undefined {
  const at = loaded.functions?.nameAt(frame.line, frame.column);
  if (!at) return undefined;
  const pos = loaded.consumer.originalPositionFor({ line: at.line, column: at.column - 1 });
  return pos.name ?? at.name;
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
