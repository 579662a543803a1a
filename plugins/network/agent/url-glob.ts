import type { UrlPatterns } from './mock-match.js';

// URL patterns for React Native, where Metro would bundle RE2 whole (150 KB): globs matched by hand
// in time polynomial in the URL (never backtracking over `*`), and regex rules refused with what to
// use instead.

/** A glob (`*` any run of characters, `?` one) over the whole URL. */
export function globMatcher(glob: string): { test(url: string): boolean } {
  const pieces = glob.split('*');
  const at = (text: string, piece: string, from: number) => {
    if (from + piece.length > text.length) return false;
    for (let i = 0; i < piece.length; i++) if (piece[i] !== '?' && piece[i] !== text[from + i]) return false;
    return true;
  };
  const find = (text: string, piece: string, from: number, last: number) => {
    for (let i = from; i <= last; i++) if (at(text, piece, i)) return i;
    return -1;
  };
  return {
    test(url) {
      const first = pieces[0]!;
      if (pieces.length === 1) return url.length === first.length && at(url, first, 0);
      const tail = pieces[pieces.length - 1]!;
      if (!at(url, first, 0) || url.length < first.length + tail.length) return false;
      const end = url.length - tail.length;
      if (!at(url, tail, end)) return false;
      // The pieces between stars, each at its leftmost place: if that fails, no later place can do better.
      let from = first.length;
      for (let p = 1; p < pieces.length - 1; p++) {
        const piece = pieces[p]!;
        const i = find(url, piece, from, end - piece.length);
        if (i < 0) return false;
        from = i + piece.length;
      }
      return true;
    },
  };
}

export const reactNativeUrlPatterns: UrlPatterns = {
  globToRegExp: globMatcher,
  compileRegex(pattern) {
    throw new Error(
      `regex URL patterns (/${pattern}/) are not matched in React Native apps, whose bundle would carry a 150 KB regex engine for them; use kind "glob" (* and ?), "contains" or "exact"`,
    );
  },
};
