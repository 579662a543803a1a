import { RE2JS } from 're2js';

// Every regular expression the inspector runs over text it did not write (logs, URLs, headers,
// bodies, names) is compiled here, for RE2: matching takes time linear in the text whatever the
// pattern, so `(a+)+$` over a logged line cannot freeze the inspector or the window. Patterns are
// written as in JavaScript; what RE2 cannot run in linear time (backreferences, lookaround) is
// refused with a message that says what to change. Agent code imports this module lazily only
// (the network agent does when the app has a mock rule): RE2 is large.

/** A compiled pattern. Matching runs in time linear in the text. */
export interface SafeRegex {
  /** The pattern as written. */
  readonly source: string;
  /** The flags that apply: among `i`, `m`, `s`. */
  readonly flags: string;
  test(text: string): boolean;
  /** Start and end (UTF-16 offsets) of the non-overlapping non-empty matches, left to right, at most `max`. */
  ranges(text: string, max?: number): [number, number][];
  /** Every match replaced with `replacement`, taken literally (no `$1`). */
  replaceAll(text: string, replacement: string): string;
}

/** Longer patterns are refused: compiling one costs time in its length. */
export const MAX_PATTERN_CHARS = 4096;

/** A pattern that cannot be compiled or run safely; the message says why and what to change. */
export class RegexError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegexError';
  }
}

const FLAG_BITS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };
/** JavaScript flags that change nothing for a stateless test (g, y) or are always on here (u, v, d). */
const IGNORED_FLAGS = new Set(['g', 'y', 'u', 'v', 'd']);

/**
 * Compiles a JavaScript-style pattern (flags i, m, s apply; g, y, u, v, d change nothing) for RE2.
 * Throws a RegexError that says what is wrong; `hint` is added to the advice when the pattern uses
 * what RE2 cannot run (e.g. 'or use kind "contains"').
 */
export function compileRegex(pattern: string, flags = '', hint?: string): SafeRegex {
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw new RegexError(
      `the regular expression is ${pattern.length} characters long, over the ${MAX_PATTERN_CHARS} allowed; shorten it`,
    );
  }
  let bits = 0;
  let kept = '';
  for (const flag of new Set(flags)) {
    const bit = FLAG_BITS[flag];
    if (bit !== undefined) {
      bits |= bit;
      kept += flag;
    } else if (!IGNORED_FLAGS.has(flag)) {
      throw new RegexError(`unknown regular expression flag "${flag}" in /${quote(pattern)}/${flags}: use i, m or s`);
    }
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(fromJavaScript(pattern), bits);
  } catch (e) {
    throw refusal(pattern, flags, (e as Error).message.replace(/^error parsing regexp: /, ''), hint);
  }
  return re2Regex(re, pattern, kept);
}

/** `text` itself as a pattern (no character has a meaning), case-insensitive unless asked. */
export function literalRegex(text: string, caseSensitive = false): SafeRegex {
  // A literal cannot backtrack: JavaScript's own engine runs it in linear time, and faster than RE2.
  const escaped = text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const flags = caseSensitive ? '' : 'i';
  const once = new RegExp(escaped, flags);
  const all = new RegExp(escaped, `${flags}g`);
  return {
    source: escaped,
    flags,
    test: (s) => once.test(s),
    ranges: (s, max = Number.POSITIVE_INFINITY) => {
      const out: [number, number][] = [];
      if (!text) return out;
      all.lastIndex = 0;
      for (let m = all.exec(s); m && out.length < max; m = all.exec(s)) out.push([m.index, m.index + m[0].length]);
      return out;
    },
    replaceAll: (s, replacement) => (text ? s.replace(all, () => replacement) : s),
  };
}

/** A glob over the whole text (`*` any run of characters, `?` one), e.g. a URL. */
export function globToRegExp(glob: string): SafeRegex {
  const source = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return compileRegex(`^${source}$`, 's');
}

/** The pattern and flags of a `/pattern/flags` text filter, or undefined for plain text. */
export function slashPattern(text: string): { pattern: string; flags: string } | undefined {
  const m = /^\/(.+)\/([a-z]*)$/s.exec(text);
  return m ? { pattern: m[1]!, flags: m[2]! } : undefined;
}

/**
 * A text filter as the console and the network panel read it: `/pattern/flags` is a regular
 * expression, anything else is looked for as it is, ignoring case. Throws a RegexError for a bad pattern.
 */
export function textFilterRegex(text: string, hint?: string): SafeRegex {
  const slashed = slashPattern(text);
  return slashed ? compileRegex(slashed.pattern, slashed.flags, hint) : literalRegex(text);
}

function re2Regex(re: RE2JS, source: string, flags: string): SafeRegex {
  return {
    source,
    flags,
    test: (s) => re.test(s),
    ranges: (s, max = Number.POSITIVE_INFINITY) => {
      const out: [number, number][] = [];
      const m = re.matcher(s);
      while (out.length < max && m.find()) if (m.end() > m.start()) out.push([m.start(), m.end()]);
      return out;
    },
    replaceAll: (s, replacement) => re.matcher(s).replaceAll(() => replacement),
  };
}

/**
 * The JavaScript spellings RE2 writes otherwise: `\uXXXX` (a surrogate pair as one character),
 * `\u{X}`, `\cX`, `[^]`. Everything else is left for RE2 to judge (`\1` and `\k<name>` stay
 * backreferences, refused, never quietly read as plain characters).
 */
function fromJavaScript(pattern: string): string {
  if (!/\\[uc]|\[\^\]/.test(pattern)) return pattern;
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      const next = pattern[i + 1];
      const unit = (at: number) =>
        /^[0-9a-fA-F]{4}$/.test(pattern.slice(at, at + 4)) ? pattern.slice(at, at + 4) : '';
      if (next === 'u' && pattern[i + 2] === '{') {
        const close = pattern.indexOf('}', i + 3);
        const hex = close > 0 ? pattern.slice(i + 3, close) : '';
        if (/^[0-9a-fA-F]{1,6}$/.test(hex)) {
          out += `\\x{${hex}}`;
          i = close;
          continue;
        }
      } else if (next === 'u' && unit(i + 2)) {
        let code = Number.parseInt(unit(i + 2), 16);
        i += 5;
        if (code >= 0xd800 && code < 0xdc00 && pattern.slice(i + 1, i + 3) === '\\u' && unit(i + 3)) {
          const low = Number.parseInt(unit(i + 3), 16);
          if (low >= 0xdc00 && low < 0xe000) {
            code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
            i += 6;
          }
        }
        out += `\\x{${code.toString(16)}}`;
        continue;
      } else if (next === 'c' && /^[A-Za-z]$/.test(pattern[i + 2] ?? '')) {
        out += `\\x{${(pattern.charCodeAt(i + 2) % 32).toString(16)}}`;
        i += 2;
        continue;
      }
      out += ch + (next ?? '');
      i++;
      continue;
    }
    if (!inClass && pattern.startsWith('[^]', i)) {
      out += '[\\s\\S]';
      i += 2;
      continue;
    }
    if (ch === '[') inClass = true;
    else if (ch === ']') inClass = false;
    out += ch;
  }
  return out;
}

/** What RE2 said, as a message that says what to change. */
function refusal(pattern: string, flags: string, why: string, hint: string | undefined): RegexError {
  const unsafe = /`\\(?:[1-9]|k)/.test(why)
    ? ['a backreference', 'match the group’s text again with its own pattern']
    : /`\(\?<?[=!]/.test(why)
      ? ['a lookahead or lookbehind', 'match the surrounding text too, or drop the condition']
      : /`\(\?>/.test(why)
        ? ['an atomic group', 'use a plain group (?:…)']
        : /nested repetition operator: `[*+?}][+]/.test(why)
          ? ['a possessive quantifier', 'drop the + after the quantifier']
          : undefined;
  const shown = `/${quote(pattern)}/${flags}`;
  if (unsafe) {
    return new RegexError(
      `the regular expression ${shown} cannot be run safely: it uses ${unsafe[0]}, which needs backtracking that can freeze the inspector (regular expressions run in linear time, RE2 syntax); rewrite it without: ${unsafe[1]}${hint ? `, ${hint}` : ''}`,
    );
  }
  return new RegexError(`invalid regular expression ${shown}: ${why} (RE2 syntax, close to JavaScript's)`);
}

/** A pattern as quoted in a message: long ones cut. */
function quote(pattern: string): string {
  return pattern.length > 200 ? `${pattern.slice(0, 200)}…` : pattern;
}
