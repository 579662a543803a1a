import type { TransactionSummary } from '../protocol.js';
import { shortType } from './format.js';
import { hostOf, KEYS, tokenize } from './query.js';

export interface Suggestion {
  /** What the token under the caret becomes. */
  insert: string;
  /** What the list shows beside it. */
  detail: string;
}

export interface Suggestions {
  /** The span of the query the chosen suggestion replaces. */
  from: number;
  to: number;
  items: Suggestion[];
}

/** Values seen in the data, offered after `key:`. */
export interface Vocabulary {
  methods: string[];
  domains: string[];
  statuses: string[];
  types: string[];
}

const MAX_ITEMS = 8;
const MAX_SCAN = 20_000;

/** What the rows hold, for suggestions: the newest `MAX_SCAN` rows are enough. */
export function vocabularyOf(rows: readonly TransactionSummary[]): Vocabulary {
  const methods = new Set<string>();
  const domains = new Set<string>();
  const statuses = new Set<string>();
  const types = new Set<string>();
  for (let i = rows.length - 1; i >= Math.max(0, rows.length - MAX_SCAN); i--) {
    const tx = rows[i]!;
    methods.add(tx.method.toUpperCase());
    const host = hostOf(tx.url.toLowerCase());
    if (host) domains.add(host);
    if (tx.status !== undefined) statuses.add(String(tx.status));
    const type = shortType(tx.responseType);
    if (type) types.add(type);
  }
  const sorted = (s: Set<string>) => [...s].sort();
  return { methods: sorted(methods), domains: sorted(domains), statuses: sorted(statuses), types: sorted(types) };
}

/** Suggestions for the token under `caret`: keys while typing a word, values after `key:`. */
export function suggest(source: string, caret: number, vocabulary: Vocabulary): Suggestions {
  const token = tokenize(source).find((t) => t.start <= caret && caret <= t.end);
  const from = token?.start ?? caret;
  const to = token?.end ?? caret;
  const typed = token ? source.slice(token.start, caret) : '';
  const negation = typed.startsWith('-') ? '-' : '';
  const word = typed.slice(negation.length);
  if (word.startsWith('/')) return { from, to, items: [] };
  const colon = word.indexOf(':');
  if (colon < 0) {
    const lower = word.toLowerCase();
    const items = KEYS.filter((k) => k.key.startsWith(lower) && k.key !== lower).map((k) => ({
      insert: `${negation}${k.key}:`,
      detail: k.help,
    }));
    return { from, to, items: items.slice(0, MAX_ITEMS) };
  }
  const key = word.slice(0, colon).toLowerCase();
  const spec = KEYS.find((k) => k.key === key);
  if (!spec) return { from, to, items: [] };
  // After a comma, suggest the next value of the list.
  const valueText = word.slice(colon + 1);
  const comma = valueText.lastIndexOf(',');
  const done = comma >= 0 ? valueText.slice(0, comma + 1) : '';
  const partial = valueText.slice(comma + 1).toLowerCase();
  const seen: Record<string, string[]> = {
    method: vocabulary.methods,
    domain: vocabulary.domains,
    status: vocabulary.statuses,
    type: vocabulary.types,
  };
  const values = [...new Set([...spec.values, ...(seen[key] ?? [])])];
  const items = values
    .filter((v) => v.toLowerCase().startsWith(partial) && v.toLowerCase() !== partial && !done.includes(`${v},`))
    .map((v) => ({ insert: `${negation}${key}:${done}${v}`, detail: spec.help }));
  return { from, to, items: items.slice(0, MAX_ITEMS) };
}

/** The query with a suggestion applied, and where the caret goes (after it, past a space). */
export function applySuggestion(source: string, s: Suggestions, item: Suggestion): { text: string; caret: number } {
  const endsKey = item.insert.endsWith(':');
  const before = source.slice(0, s.from);
  const after = source.slice(s.to);
  const glue = endsKey || after.startsWith(' ') ? '' : ' ';
  const text = `${before}${item.insert}${glue}${after}`;
  return { text, caret: before.length + item.insert.length + glue.length };
}
