import type { Frame } from '../protocol.js';

const V8_FRAME = /^\s*at\s+(.*)$/;
const GECKO_FRAME = /^\s*(.*?)@(.*)$/;
const LOCATION = /^(.*):(\d+):(\d+)$/;

/** Frames of a stack as V8 (Chrome, Node, Electron), SpiderMonkey, JavaScriptCore or Hermes print it; other lines are skipped. */
export function parseStack(text: string | undefined, max = 100): Frame[] {
  if (!text) return [];
  const frames: Frame[] = [];
  for (const line of text.split('\n')) {
    if (frames.length >= max) break;
    const frame = parseFrame(line);
    if (frame) frames.push(frame);
  }
  return frames;
}

function parseFrame(line: string): Frame | undefined {
  const v8 = V8_FRAME.exec(line);
  if (v8) {
    let rest = v8[1]!.trim();
    let fn: string | undefined;
    if (rest.endsWith(')')) {
      const open = rest.indexOf(' (');
      if (open > 0) {
        fn = rest.slice(0, open);
        rest = rest.slice(open + 2, -1);
      }
    }
    // `at eval (eval at f (file:1:2), <anonymous>:1:1)`: the place of the eval call
    const evalAt = /^eval at .*? \((.*?)\)/.exec(rest);
    if (evalAt) rest = evalAt[1]!;
    return located(rest, fn);
  }
  const gecko = GECKO_FRAME.exec(line);
  if (gecko && LOCATION.test(gecko[2]!)) return located(gecko[2]!, gecko[1] || undefined);
  return undefined;
}

function located(location: string, fn: string | undefined): Frame | undefined {
  const m = LOCATION.exec(location);
  if (!m) return undefined;
  const frame: Frame = { file: m[1]!, line: Number(m[2]), column: Number(m[3]) };
  if (fn) frame.fn = fn;
  return frame;
}

/** `file:line:column`, the file shortened to what follows the origin or the last few path parts. */
export function frameSite(frame: Frame): string {
  return `${frame.file}:${frame.line}:${frame.column}`;
}
