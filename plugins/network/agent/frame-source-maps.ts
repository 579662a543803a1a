import type { CallSite } from './site-frames.js';

// A frame at its place in the original source, with the source map Node itself uses
// (module.findSourceMap) when it maps stacks (--enable-source-maps, tsx). Node only: node.ts hands
// it to site-frames.ts, so that a browser's bundle carries none of it.

interface SourceMap {
  findEntry(line: number, column: number): { originalSource?: string; originalLine?: number; originalColumn?: number };
}

/** The frame as V8 writes it, at its place in the original source when Node maps stacks. */
export function mapFrame(frame: CallSite, file: string): string {
  const text = String(frame);
  const map = sourceMapOf(file);
  const line = frame.getLineNumber();
  const column = frame.getColumnNumber();
  if (!map || !line || !column) return text;
  const entry = map.findEntry(line - 1, column - 1);
  if (!entry?.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined) return text;
  const raw = `${file}:${line}:${column}`;
  const at = text.lastIndexOf(raw);
  if (at < 0) return text;
  const source = pathOf(entry.originalSource);
  return `${text.slice(0, at)}${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}${text.slice(at + raw.length)}`;
}

interface NodeProcess {
  sourceMapsEnabled?: boolean;
  getBuiltinModule?(name: string): unknown;
}

function sourceMapOf(file: string): SourceMap | undefined {
  const proc = (globalThis as { process?: NodeProcess }).process;
  if (proc?.sourceMapsEnabled !== true) return undefined;
  const mod = proc.getBuiltinModule?.('node:module') as { findSourceMap?(path: string): SourceMap | undefined };
  try {
    return mod?.findSourceMap?.(file);
  } catch {
    return undefined;
  }
}

/** A source map's file URL as the path Node's own stacks show. */
function pathOf(source: string): string {
  if (!source.startsWith('file://')) return source;
  const proc = (globalThis as { process?: NodeProcess }).process;
  const url = proc?.getBuiltinModule?.('node:url') as { fileURLToPath?(u: string): string } | undefined;
  try {
    return url?.fileURLToPath?.(source) ?? source;
  } catch {
    return source;
  }
}
