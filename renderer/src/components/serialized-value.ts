import { Literal } from './JsonTree.js';

type Tagged = { $?: unknown; [key: string]: unknown };

/**
 * A serialized argument (see shared/serialized-value.ts) as a tree for the window's JsonTree:
 * objects and arrays stay containers; undefined, BigInt, symbols, functions, DOM nodes, cycles,
 * getters and cuts become Literals, shown as a console shows them. Read defensively.
 */
export function toDisplay(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > 64) return new Literal('…');
  if (Array.isArray(value)) return value.map((v) => toDisplay(v, depth + 1));
  const v = value as Tagged;
  const str = (x: unknown) => (typeof x === 'string' ? x : '');
  const more = (shown: number, total: unknown) =>
    typeof total === 'number' && total > shown ? { '…': new Literal(`${total - shown} more`) } : {};
  switch (v.$) {
    case 'undefined':
      return new Literal('undefined');
    case 'number':
    case 'symbol':
    case 'date':
    case 'regexp':
    case 'node':
      return new Literal(str(v.v));
    case 'bigint':
      return new Literal(`${str(v.v)}n`);
    case 'string':
      return `${str(v.v)}… (${v.length} characters)`;
    case 'function':
      return new Literal(`ƒ ${str(v.name) || '(anonymous)'}()`);
    case 'circular':
      return new Literal('[Circular]');
    case 'getter':
      return new Literal('(getter)');
    case 'thrown':
      return new Literal(`[Thrown: ${str(v.message)}]`);
    case 'cut':
      return new Literal(
        v.why === 'depth' ? `[${str(v.cls) || 'Object'}: deeper than the agent went]` : '[cut: message size limit]',
      );
    case 'array': {
      const items = Array.isArray(v.items) ? v.items.map((x) => toDisplay(x, depth + 1)) : [];
      const extra = typeof v.length === 'number' ? v.length - items.length : 0;
      return extra > 0 ? [...items, new Literal(`… ${extra} more`)] : items;
    }
    case 'typed': {
      const items = Array.isArray(v.items) ? [...v.items] : [];
      if (!Array.isArray(v.items)) return new Literal(`${str(v.cls)}(${v.length})`);
      return { [`[[${str(v.cls)}]]`]: items, ...more(items.length, v.length) };
    }
    case 'map': {
      const entries = Array.isArray(v.entries) ? v.entries : [];
      return {
        [`[[${str(v.cls) || 'Map'}(${v.size})]]`]: entries.map((e) =>
          Array.isArray(e) ? { key: toDisplay(e[0], depth + 1), value: toDisplay(e[1], depth + 1) } : e,
        ),
        ...more(entries.length, v.size),
      };
    }
    case 'set': {
      const items = Array.isArray(v.items) ? v.items.map((x) => toDisplay(x, depth + 1)) : [];
      return { [`[[${str(v.cls) || 'Set'}(${v.size})]]`]: items, ...more(items.length, v.size) };
    }
    case 'error': {
      const out: Record<string, unknown> = { name: str(v.name), message: str(v.message) };
      if (typeof v.stack === 'string') out.stack = v.stack;
      if ('cause' in v) out.cause = toDisplay(v.cause, depth + 1);
      if (Array.isArray(v.errors)) out.errors = v.errors.map((x) => toDisplay(x, depth + 1));
      if (v.props && typeof v.props === 'object') Object.assign(out, props(v.props as object, depth));
      return out;
    }
    case 'object': {
      const out: Record<string, unknown> = v.cls ? { '[[Class]]': new Literal(str(v.cls)) } : {};
      if (v.props && typeof v.props === 'object') Object.assign(out, props(v.props as object, depth));
      return { ...out, ...more(0, v.more) };
    }
    default:
      return props(v, depth);
  }
}

function props(o: object, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) out[k] = toDisplay(x, depth + 1);
  return out;
}
