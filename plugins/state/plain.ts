// Shared by the host (answers for agents) and the window (one-line previews).

type Tagged = Record<string, unknown> & { $?: unknown };

/**
 * A SerializedValue as plain JSON: objects and arrays as themselves (a class name as `$class`,
 * what was cut as a `…` entry), a cut string with its length; other tags (Map, Set, Date, function,
 * undefined…) stay `{ $: kind, … }`.
 */
export function plain(v: unknown, depth = 0): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (depth > 200) return '…';
  if (Array.isArray(v)) return v.map((x) => plain(x, depth + 1));
  const t = v as Tagged;
  if (t.$ === 'object' && t.props && typeof t.props === 'object') {
    const out: Record<string, unknown> = {};
    if (typeof t.cls === 'string') out.$class = t.cls;
    for (const [k, x] of Object.entries(t.props)) out[k] = plain(x, depth + 1);
    if (typeof t.more === 'number' && t.more > 0) out['…'] = `${t.more} more keys`;
    return out;
  }
  if (t.$ === 'array' && Array.isArray(t.items)) {
    const items = t.items.map((x) => plain(x, depth + 1));
    const left = typeof t.length === 'number' ? t.length - items.length : 0;
    if (left > 0) items.push(`… ${left} more items`);
    return typeof t.cls === 'string' ? { $class: t.cls, items } : items;
  }
  if (t.$ === 'string' && typeof t.v === 'string') return `${t.v}… (${t.length} characters in all)`;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(t)) out[k] = plain(x, depth + 1);
  return out;
}
