import { compileRegex, literalRegex, type SafeRegex } from '../../shared/safe-regex.js';
import type { SearchQuery } from './protocol.js';

/**
 * The pattern a header/body search stands for, built the same way where it runs (the host) and where
 * its hits are highlighted (the panel). A regex runs in linear time (RE2); one that cannot, or a bad
 * one, throws an error that says what to change.
 */
export function searchPattern(query: SearchQuery): SafeRegex {
  if (!query.regex) return literalRegex(query.text, query.caseSensitive);
  return compileRegex(query.text, query.caseSensitive ? '' : 'i', 'or turn "regex" off to look for the text itself');
}
