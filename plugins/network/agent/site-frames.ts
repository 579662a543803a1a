// A request's call site (observed.ts callSite()) as the lines the Initiator column shows, made when
// its notification leaves. V8 hands the frames to Error.prepareStackTrace as CallSites; each is
// formatted once per place in the code and then taken from a cache, since an app makes its requests
// from a few places. Where Node maps stacks itself (--enable-source-maps, tsx), its formatting went
// through the source map for every frame of every request (70 µs of a captured http.get under tsx):
// here each place is mapped once, with the same source map (module.findSourceMap, in
// frame-source-maps.ts: Node's taps hand it over, so a browser bundle has none of it). An app that set
// its own Error.prepareStackTrace keeps it: its text is used as before.

export interface CallSite {
  getFileName(): string | null | undefined;
  getLineNumber(): number | null;
  getColumnNumber(): number | null;
  toString(): string;
}

/** How a frame is written at its place in the original source (Node's: frame-source-maps.ts, from the Node taps). */
export type FrameMapper = (frame: CallSite, file: string) => string;

type Prepare = (error: unknown, frames: CallSite[]) => unknown;

const MAX_PLACES = 4096;
/** Formatted frames by file, then by line and column (a number: no key string made per frame). */
const places = new Map<string, Map<number | string, string>>();
let placeCount = 0;
/** Columns below this share a number with their line. */
const COLUMNS = 2 ** 26;
const takeFrames: Prepare = (_error, frames) => frames;

/** The frames of a site as lines (`at fn (file:line:col)`), without the header an app's formatter may add. */
export function siteFrames(site: { stack?: unknown } | undefined, map?: FrameMapper): string | undefined {
  if (!site) return undefined;
  const E = Error as unknown as { prepareStackTrace?: Prepare };
  const previous = E.prepareStackTrace;
  let stack: unknown;
  try {
    // An app's own formatter (source-map-support and the like) is kept: it may know maps Node does not.
    if (!appFormatter(previous)) E.prepareStackTrace = takeFrames;
    stack = site.stack;
  } catch {
    return undefined;
  } finally {
    E.prepareStackTrace = previous;
  }
  try {
    if (typeof stack === 'string') return formatted(stack); // not V8, or formatted before
    if (!Array.isArray(stack) || stack.length === 0) return undefined;
    let out = '';
    for (const frame of stack as CallSite[]) out += `${out ? '\n' : ''}at ${place(frame, map)}`;
    return out.slice(0, 4096);
  } catch {
    return undefined;
  }
}

/** An app's own formatter; Node (20.20+, 22+) shows its default one as Error.prepareStackTrace. */
const appFormatter = (prepare: Prepare | undefined) =>
  typeof prepare === 'function' && prepare.name !== 'ErrorPrepareStackTrace';

function place(frame: CallSite, map: FrameMapper | undefined): string {
  const file = frame.getFileName();
  if (!file) return String(frame);
  const line = frame.getLineNumber() ?? 0;
  const column = frame.getColumnNumber() ?? 0;
  const key = column < COLUMNS && line < COLUMNS ? line * COLUMNS + column : `${line}:${column}`;
  let inFile = places.get(file);
  let text = inFile?.get(key);
  if (text === undefined) {
    text = map ? map(frame, file) : String(frame);
    if (placeCount >= MAX_PLACES) {
      places.clear();
      placeCount = 0;
      inFile = undefined;
    }
    if (!inFile) places.set(file, (inFile = new Map()));
    inFile.set(key, text);
    placeCount++;
  }
  return text;
}

/** A stack another formatter made: its `at` lines only. */
function formatted(stack: string): string | undefined {
  const lines = stack.split('\n').filter((l) => /^\s*at\s/.test(l));
  return lines.length
    ? lines
        .map((l) => l.trim())
        .join('\n')
        .slice(0, 4096)
    : undefined;
}
