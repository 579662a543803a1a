// Paths into a state, written as JavaScript reads them: `todos[3].title`, `entities["a.b"].id`.
// A dotted number (`todos.3.title`) reads an array item too. Shared by the agent (to read a value),
// the host (to redact by path) and the window (to show and search paths).

/** A key of an object or Map (string), or an index of an array (number). */
export type PathPart = string | number;

const IDENT = /^[A-Za-z_$][\w$]*$/;

/** The parts of `path`; throws an Error naming what is wrong. An empty path (or `$`) is the root. */
export function parsePath(path: string): PathPart[] {
  const parts: PathPart[] = [];
  if (path === '$') return parts;
  let i = 0;
  while (i < path.length) {
    const c = path[i]!;
    if (c === '.') {
      i++;
      if (i === path.length || path[i] === '.' || path[i] === '[') throw new Error(`empty part at ${i} in "${path}"`);
      continue;
    }
    if (c === '[') {
      const end = path.indexOf(']', i);
      const q = path[i + 1];
      if (q === '"' || q === "'") {
        const close = findQuote(path, i + 2, q);
        if (close < 0 || path[close + 1] !== ']') throw new Error(`unclosed quote at ${i + 1} in "${path}"`);
        const raw = path.slice(i + 2, close);
        parts.push(q === '"' ? (JSON.parse(`"${raw}"`) as string) : raw.replace(/\\'/g, "'"));
        i = close + 2;
        continue;
      }
      if (end < 0) throw new Error(`unclosed [ at ${i} in "${path}"`);
      const inner = path.slice(i + 1, end);
      if (!/^\d+$/.test(inner)) throw new Error(`[${inner}] in "${path}" is not an index; quote a key: ["${inner}"]`);
      parts.push(Number(inner));
      i = end + 1;
      continue;
    }
    let end = i;
    while (end < path.length && path[end] !== '.' && path[end] !== '[') end++;
    parts.push(path.slice(i, end));
    i = end;
  }
  return parts;
}

function findQuote(path: string, from: number, quote: string): number {
  for (let i = from; i < path.length; i++) {
    if (path[i] === '\\') i++;
    else if (path[i] === quote) return i;
  }
  return -1;
}

/** The path as text: `a.b[2]["x.y"]`; the root is the empty string. */
export function formatPath(parts: readonly PathPart[]): string {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (IDENT.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}

/** The keys of a path without its array indices: what redaction rules are written against (`users.ssn`). */
export function keyParts(parts: readonly PathPart[]): string[] {
  return parts.filter((p): p is string => typeof p === 'string');
}
