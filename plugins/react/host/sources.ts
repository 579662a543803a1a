import type { SourceFrame } from '../../../shared/host-plugin.js';
import type { InspectResult } from '../protocol.js';

/** `file:line:col`, or `fn (file:line:col)` as a stack line. */
const PLACE = /^(?:(.*) \()?(.+):(\d+):(\d+)\)?$/;

const parse = (text: string): SourceFrame | undefined => {
  const m = PLACE.exec(text);
  if (!m) return undefined;
  const frame: SourceFrame = { file: m[2]!, line: Number(m[3]), column: Number(m[4]) };
  if (m[1]) frame.fn = m[1];
  return frame;
};

const place = (f: SourceFrame) => `${f.file}:${f.line}:${f.column}`;

/**
 * An inspection with its source and owner stack in the app's original files, as console stacks are
 * (the core's source maps; function names are the original functions'): React gives bundle
 * places (React 19's owner stack) or original ones (React 18's `_debugSource`, which no map
 * changes). A place no map knows stays as React gave it.
 */
export async function mapSources(
  result: InspectResult,
  map: (frame: SourceFrame) => Promise<SourceFrame | undefined>,
): Promise<InspectResult> {
  if (!result.source && !result.stack) return result;
  const one = async (text: string, named: boolean) => {
    const frame = parse(text);
    const mapped = frame && (await map(frame).catch(() => undefined));
    if (!mapped) return text;
    return named && mapped.fn ? `${mapped.fn} (${place(mapped)})` : place(mapped);
  };
  const [source, stack] = await Promise.all([
    result.source === undefined ? undefined : one(result.source, false),
    result.stack && Promise.all(result.stack.map((s) => one(s, true))),
  ]);
  const out = { ...result };
  if (source !== undefined) out.source = source;
  if (stack) out.stack = stack;
  return out;
}
