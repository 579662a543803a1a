import type { SearchQuery } from './protocol.js';

/**
 * The RegExp a header/body search stands for, built the same way where it runs (the host) and where
 * its hits are highlighted (the panel). A bad regex throws an error that says what is wrong.
 */
export function searchPattern(query: SearchQuery): RegExp {
  const flags = query.caseSensitive ? '' : 'i';
  if (!query.regex) return new RegExp(query.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags);
  try {
    return new RegExp(query.text, flags);
  } catch (e) {
    throw new Error(`/${query.text}/ is not a valid regular expression: ${(e as Error).message}`);
  }
}
