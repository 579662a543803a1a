import type { AgentMessage } from '../protocol.js';

// The text of a message as a console prints it: format specifiers (%s %d %i %f %o %O %c %%) applied to
// the first argument, the others appended, objects as short previews. Read defensively: an app may
// send any JSON.

type Tagged = { $?: unknown; [key: string]: unknown };

const MAX = 10_000;

export function messageText(m: Pick<AgentMessage, 'kind' | 'args' | 'label' | 'value' | 'stack'>): string {
  const body = formatArgs(Array.isArray(m.args) ? m.args : []);
  switch (m.kind) {
    case 'assert':
      return body ? `Assertion failed: ${body}` : 'Assertion failed';
    case 'count':
      return `${m.label ?? 'default'}: ${m.value ?? 0}`;
    case 'timeLog':
    case 'timeEnd':
      if (m.value === undefined) return `Timer '${m.label ?? 'default'}' does not exist`;
      return `${m.label ?? 'default'}: ${formatMs(m.value)}${body ? ` ${body}` : ''}`;
    case 'trace':
      return body ? `console.trace: ${body}` : 'console.trace';
    case 'group':
    case 'groupCollapsed':
      return body || 'console.group';
    case 'exception':
      return `Uncaught ${errorHead(m.args[0], m.stack)}`;
    case 'rejection':
      return `Uncaught (in promise) ${errorHead(m.args[0], m.stack)}`;
    default:
      return body;
  }
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms.toFixed(3)} ms` : `${(ms / 1000).toFixed(3)} s`;
}

/**
 * What an uncaught value says on the first line: `Error: message`, or the value's preview. When the
 * value says nothing (no argument, `undefined`, an error without name and message) but the message
 * has the error's stack, the stack's first line says it (`TypeError: x is not a function`).
 */
export function errorHead(value: unknown, stack?: string): string {
  const v = value as Tagged | null;
  const fromStack = stack?.split('\n', 1)[0]?.trim().slice(0, 500);
  if (v && typeof v === 'object' && v.$ === 'error') {
    const name = str(v.name);
    const message = str(v.message);
    if (!name && !message && fromStack) return fromStack;
    return message ? `${name || 'Error'}: ${message}` : name || 'Error';
  }
  const nothing = value === undefined || (v && typeof v === 'object' && v.$ === 'undefined');
  if (nothing && fromStack) return fromStack;
  return preview(value, 0, { left: 500 });
}

export function formatArgs(args: readonly unknown[]): string {
  const budget = { left: MAX };
  const parts: string[] = [];
  let i = 0;
  const first = args[0];
  if (typeof first === 'string' && first.includes('%')) {
    i = 1;
    parts.push(
      first.replace(/%([sdifoOcj%])/g, (match, spec: string) => {
        if (spec === '%') return '%';
        if (i >= args.length) return match;
        const arg = args[i++];
        switch (spec) {
          case 's':
            return typeof arg === 'string' ? arg : preview(arg, 1, budget);
          case 'd':
          case 'i': {
            const n = toNumber(arg);
            return Number.isNaN(n) ? 'NaN' : String(spec === 'i' || spec === 'd' ? Math.trunc(n) : n);
          }
          case 'f':
            return String(toNumber(arg));
          case 'c':
            return '';
          default:
            return preview(arg, 1, budget);
        }
      }),
    );
  }
  for (; i < args.length && budget.left > 0; i++) parts.push(preview(args[i], 0, budget));
  const text = parts.join(' ');
  return text.length > MAX ? `${text.slice(0, MAX)}…` : text;
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return Number.parseFloat(v);
  const t = v as Tagged | null;
  if (t && typeof t === 'object' && (t.$ === 'number' || t.$ === 'bigint')) return Number(t.v);
  return Number.NaN;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** A short preview of a serialized value; top-level strings print as they are, nested ones quoted. */
export function preview(value: unknown, depth: number, budget: { left: number }): string {
  const out = render(value, depth, budget);
  budget.left -= out.length;
  return out;
}

function render(value: unknown, depth: number, budget: { left: number }): string {
  if (budget.left <= 0) return '…';
  if (typeof value === 'string') return depth === 0 ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (typeof value !== 'object' || value === undefined) return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => render(v, depth + 1, budget)).join(', ')}]`;
  const v = value as Tagged;
  const nested = (x: unknown) => render(x, depth + 1, budget);
  const items = (list: unknown, total: unknown) => {
    const arr = Array.isArray(list) ? list : [];
    const parts = arr.slice(0, depth > 1 ? 5 : 20).map(nested);
    const extra = (typeof total === 'number' ? total : arr.length) - parts.length;
    if (extra > 0) parts.push(`… ${extra} more`);
    return parts.join(', ');
  };
  const cls = typeof v.cls === 'string' ? `${v.cls} ` : '';
  switch (v.$) {
    case 'undefined':
      return 'undefined';
    case 'number':
    case 'symbol':
    case 'date':
    case 'regexp':
    case 'node':
      return str(v.v);
    case 'bigint':
      return `${str(v.v)}n`;
    case 'string': {
      const s = `${str(v.v)}…`;
      return depth === 0 ? s : JSON.stringify(s);
    }
    case 'function':
      return `[Function${v.name ? `: ${str(v.name)}` : ' (anonymous)'}]`;
    case 'array':
      return `${v.cls ? `${str(v.cls)}(${v.length}) ` : ''}[${items(v.items, v.length)}]`;
    case 'set':
      return `${str(v.cls) || 'Set'}(${v.size}) {${items(v.items, v.size)}}`;
    case 'typed':
      return `${str(v.cls)}(${v.length})${Array.isArray(v.items) ? ` [${items(v.items, v.length)}]` : ''}`;
    case 'map': {
      const entries = Array.isArray(v.entries) ? v.entries : [];
      const parts = entries.slice(0, 20).map((e) => (Array.isArray(e) ? `${nested(e[0])} => ${nested(e[1])}` : '?'));
      const extra = (typeof v.size === 'number' ? v.size : entries.length) - parts.length;
      if (extra > 0) parts.push(`… ${extra} more`);
      return `${str(v.cls) || 'Map'}(${v.size}) {${parts.join(', ')}}`;
    }
    case 'object': {
      const props = v.props && typeof v.props === 'object' ? Object.entries(v.props as object) : [];
      if (depth > 2 && props.length > 0) return `${cls}{…}`;
      const parts = props
        .slice(0, 20)
        .map(([k, x]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${nested(x)}`);
      const extra = props.length - parts.length + (typeof v.more === 'number' ? v.more : 0);
      if (extra > 0) parts.push(`… ${extra} more`);
      return `${cls}{${parts.join(', ')}}`;
    }
    case 'error': {
      if (depth === 0 && typeof v.stack === 'string' && v.stack) {
        const cause = v.cause !== undefined ? ` [cause]: ${nested(v.cause)}` : '';
        return `${v.stack}${cause}`;
      }
      return `[${str(v.name) || 'Error'}: ${str(v.message)}]`;
    }
    case 'circular':
      return '[Circular]';
    case 'getter':
      return '[Getter]';
    case 'cut':
      return v.why === 'depth' ? `[${str(v.cls) || 'Object'}]` : '…';
    case 'thrown':
      return `[Thrown: ${str(v.message)}]`;
    default:
      return JSON.stringify(value)?.slice(0, 200) ?? '?';
  }
}
