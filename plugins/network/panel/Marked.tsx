import type { ReactNode } from 'react';
import type { SafeRegex } from '../../../shared/safe-regex.js';

/** At most this many hits are marked in one text. */
const MAX_MARKS = 1000;

/** `text` with every match of `pattern` in a <mark>; plain text without a pattern. */
export function Marked({ text, pattern }: { text: string; pattern?: SafeRegex }): ReactNode {
  if (!pattern) return text;
  const parts: ReactNode[] = [];
  let last = 0;
  for (const [start, end] of pattern.ranges(text, MAX_MARKS)) {
    if (start > last) parts.push(text.slice(last, start));
    parts.push(<mark key={start}>{text.slice(start, end)}</mark>);
    last = end;
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(last));
  return parts;
}

/** Counts the matches of `pattern` in `text` (for "3 hits"). */
export function countMatches(text: string, pattern: SafeRegex | undefined): number {
  return pattern ? pattern.ranges(text).length : 0;
}
