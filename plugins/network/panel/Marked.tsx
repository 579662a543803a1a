import type { ReactNode } from 'react';

/** `text` with every match of `pattern` in a <mark>; plain text without a pattern. */
export function Marked({ text, pattern }: { text: string; pattern?: RegExp }): ReactNode {
  if (!pattern) return text;
  const re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  const parts: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m[0] === '') break;
    const at = m.index ?? 0;
    if (at > last) parts.push(text.slice(last, at));
    parts.push(<mark key={at}>{m[0]}</mark>);
    last = at + m[0].length;
    if (parts.length > 2000) break;
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(last));
  return parts;
}

/** Counts the matches of `pattern` in `text` (for "3 hits"). */
export function countMatches(text: string, pattern: RegExp | undefined): number {
  if (!pattern) return 0;
  const re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  let n = 0;
  for (const m of text.matchAll(re)) {
    if (m[0] === '') break;
    n++;
  }
  return n;
}
