import { RE2JS } from 're2js';

// Mock rules' URL patterns, compiled for matching in time linear in the URL. Kept out of
// protocol.ts so the agent loads RE2 only when the app has a mock rule.

/** A compiled URL pattern; matching runs in time linear in the URL (RE2), whatever the pattern. */
export interface UrlMatcher {
  test(url: string): boolean;
}

function re2(source: string, flags: number): UrlMatcher {
  const re = RE2JS.compile(source, flags);
  return { test: (url) => re.matcher(url).find() };
}

/** A glob (`*` any run of characters, `?` one) over the whole URL, compiled without backtracking. */
export function globToRegExp(glob: string): UrlMatcher {
  const source = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return re2(`^${source}$`, RE2JS.DOTALL);
}

const FLAG_BITS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };

/**
 * Compiles a rule's URL regex for linear-time matching (RE2 syntax, close to JavaScript's; flags
 * i, m, s apply, d g u v y change nothing). Backreferences and lookaround cannot be matched in
 * linear time and are refused; the error says what is wrong with the pattern.
 */
export function compileRegex(pattern: string, flags?: string): UrlMatcher {
  let bits = 0;
  for (const flag of flags ?? '') bits |= FLAG_BITS[flag] ?? 0;
  try {
    return re2(pattern, bits);
  } catch (e) {
    const why = (e as Error).message.replace(/^error parsing regexp: /, '');
    const unsafe = /`\\[1-9k]/.test(why)
      ? 'it uses a backreference'
      : /`\(\?<?[=!]/.test(why)
        ? 'it uses a lookahead or lookbehind'
        : undefined;
    if (unsafe) {
      throw new Error(
        `the regular expression /${pattern}/ cannot be matched safely: ${unsafe}, which needs backtracking that can freeze the app; mock rules match in linear time (RE2). Rewrite it without, or use kind "glob" or "contains"`,
      );
    }
    throw new Error(`invalid regular expression /${pattern}/${flags ?? ''}: ${why} (mock rules use RE2 syntax)`);
  }
}

/** Replaces every match of a pattern (as `compileRegex` checks it) with `replacement`, in linear time. */
export function compileReplacer(pattern: string): (text: string, replacement: string) => string {
  compileRegex(pattern);
  const re = RE2JS.compile(pattern);
  return (text, replacement) => re.matcher(text).replaceAll(() => replacement);
}
