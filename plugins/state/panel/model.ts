import { formatPath, type PathPart, parsePath } from '../path.js';
import { plain } from '../plain.js';

// The panel's pure parts: searching a state as the agent serialized it, and short texts of values.

type Tagged = { $?: unknown; [key: string]: unknown };

export interface Match {
  path: string;
  text: string;
}

/** A leaf of a serialized value as one line of text (strings quoted, tags as a console shows them). */
export function leafText(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || typeof v !== 'object') return String(v);
  const t = v as Tagged;
  switch (t.$) {
    case 'undefined':
      return 'undefined';
    case 'function':
      return `ƒ ${t.name || '(anonymous)'}()`;
    case 'string':
      return `${JSON.stringify(t.v)}… (${t.length} characters)`;
    case 'bigint':
      return `${t.v}n`;
    case 'circular':
      return '[Circular]';
    case 'cut':
      return '[not sent: too deep or too large]';
    case 'array':
      return `Array(${t.length})`;
    case 'object':
      return t.cls ? `${t.cls} {…}` : '{…}';
    case 'map':
      return `Map(${t.size})`;
    case 'set':
      return `Set(${t.size})`;
    default:
      return typeof t.v === 'string' ? t.v : JSON.stringify(v).slice(0, 120);
  }
}

/**
 * Paths and values of a serialized state that contain `needle` (any case), depth first, at most
 * `max`, visiting at most `budget` values. `base` is the path the value was read at.
 */
export function search(value: unknown, needle: string, base = '', max = 200, budget = 50_000): Match[] {
  const out: Match[] = [];
  const q = needle.toLowerCase();
  if (!q) return out;
  let start: PathPart[] = [];
  try {
    start = parsePath(base);
  } catch {}
  const walk = (v: unknown, path: PathPart[]) => {
    if (out.length >= max || --budget < 0) return;
    const t = v as Tagged | null;
    const children: [PathPart, unknown][] =
      t && typeof t === 'object'
        ? t.$ === 'object' && t.props && typeof t.props === 'object'
          ? Object.entries(t.props as object)
          : t.$ === 'array' && Array.isArray(t.items)
            ? t.items.map((x, i) => [i, x] as [number, unknown])
            : t.$ === 'map' && Array.isArray(t.entries)
              ? (t.entries as unknown[]).map(
                  (e) => [leafText((e as unknown[])?.[0]), (e as unknown[])?.[1]] as [string, unknown],
                )
              : []
        : [];
    const text = leafText(v);
    const p = formatPath(path);
    if (p.toLowerCase().includes(q) || (children.length === 0 && text.toLowerCase().includes(q))) {
      out.push({ path: p, text });
    }
    for (const [k, x] of children) walk(x, [...path, k]);
  };
  walk(value, start);
  return out;
}

/** A change's value as a short line: `—` when the key was absent. */
export function changeText(v: unknown, present: boolean): string {
  if (!present) return '—';
  const t = v as Tagged | null;
  const text =
    t && typeof t === 'object' && (t.$ === 'object' || t.$ === 'array') ? JSON.stringify(plain(v)) : leafText(v);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

/** Milliseconds as a short age: 850 ms, 12 s, 3 min, 2 h. */
export function age(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}
