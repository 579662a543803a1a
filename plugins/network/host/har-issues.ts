import type { z } from 'zod';

const SHOWN = 3;

/** `log.entries[3].request.url`: where a problem is, as a person reading the file would look for it. */
function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${String(key)}`;
  return out || 'the file';
}

/**
 * What is wrong with a file that is not HAR 1.2, in a few words: the first problems with where
 * they are, how many more there are, and where a good HAR comes from. Never the whole list of
 * validation issues (a broken file can have thousands).
 */
export function describeHarIssues(error: z.ZodError, value: unknown): string {
  const log = typeof value === 'object' && value !== null ? (value as { log?: unknown }).log : undefined;
  const next =
    ' Save one from the Network panel of a browser (Save all as HAR) or with Export HAR here, and import that.';
  if (typeof log !== 'object' || log === null || Array.isArray(log)) {
    return `not a HAR 1.2 file: it has no "log" object, so it is some other JSON.${next}`;
  }
  const issues = error.issues;
  const shown = issues.slice(0, SHOWN).map((i) => `${pathText(i.path)}: ${i.message.toLowerCase()}`);
  const more = issues.length > SHOWN ? `; and ${(issues.length - SHOWN).toLocaleString('en-US')} more problems` : '';
  return `not a HAR 1.2 file: ${shown.join('; ')}${more}.${next}`;
}
