import { type Node, parse } from 'acorn';

/**
 * The functions of a generated script, for naming stack frames: a frame's name is the name of the
 * function it is in, not of whatever stands at its position (a call's callee). Each function is
 * kept as four numbers (start, end, its parent, where its name is written), found by parsing the
 * script once with acorn; the name's place is then looked up in the source map.
 */
export class ScriptFunctions {
  private constructor(
    private readonly lineStarts: Int32Array,
    /** start, end, parent index (-1: none), name offset (-1: anonymous) per function, by start. */
    private readonly table: Int32Array,
    /** Each function's name as the script writes it ('' for an anonymous one). */
    private readonly names: readonly string[],
  ) {}

  /** The script's functions, or undefined when it does not parse as a module nor as a script. */
  static parse(text: string): ScriptFunctions | undefined {
    let program: Node | undefined;
    for (const sourceType of ['module', 'script'] as const) {
      try {
        program = parse(text, {
          ecmaVersion: 'latest',
          sourceType,
          allowHashBang: true,
          allowReturnOutsideFunction: sourceType === 'script',
          allowAwaitOutsideFunction: true,
          allowImportExportEverywhere: true,
        });
        break;
      } catch {}
    }
    if (!program) return undefined;
    const rows: number[] = [];
    const names: string[] = [];
    collect(program, rows, names, text);
    const lines = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines.push(i + 1);
    return new ScriptFunctions(Int32Array.from(lines), Int32Array.from(rows), names);
  }

  /** About how many bytes this holds. */
  get bytes(): number {
    return this.lineStarts.byteLength + this.table.byteLength + this.names.reduce((n, s) => n + 16 + s.length * 2, 0);
  }

  /**
   * The innermost function around a place (line and column from 1): where its name is written (a
   * place to look up in the map) and the name written there; undefined outside any function or for
   * an anonymous one.
   */
  nameAt(line: number, column: number): { line: number; column: number; name: string } | undefined {
    const offset = this.offsetOf(line, column);
    if (offset === undefined) return undefined;
    const t = this.table;
    // The last function starting at or before the place; if it ended before, the one around the
    // place is one of its ancestors.
    let lo = 0;
    let hi = t.length / 4 - 1;
    let i = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (t[mid * 4]! <= offset) {
        i = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    while (i >= 0 && t[i * 4 + 1]! <= offset) i = t[i * 4 + 2]!;
    if (i < 0) return undefined;
    const at = t[i * 4 + 3]!;
    return at < 0 ? undefined : { ...this.placeOf(at), name: this.names[i]! };
  }

  private offsetOf(line: number, column: number): number | undefined {
    const start = this.lineStarts[line - 1];
    return start === undefined ? undefined : start + Math.max(0, column - 1);
  }

  private placeOf(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.lineStarts[lo]! + 1 };
  }
}

type AnyNode = Node & Record<string, unknown>;

const isFunction = (n: AnyNode) =>
  n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression';

/** The node that names a function: its own id, else what it is assigned to (as JavaScript infers names). */
function nameNode(fn: AnyNode, parent: AnyNode | undefined): AnyNode | undefined {
  const id = fn.id as AnyNode | null | undefined;
  if (id) return id;
  if (!parent) return undefined;
  const target = (n: AnyNode | undefined): AnyNode | undefined => {
    if (!n) return undefined;
    if (n.type === 'Identifier' || n.type === 'PrivateIdentifier' || n.type === 'Literal') return n;
    if (n.type === 'MemberExpression' && !n.computed) return target(n.property as AnyNode);
    return undefined;
  };
  switch (parent.type) {
    case 'VariableDeclarator':
      return parent.init === fn ? target(parent.id as AnyNode) : undefined;
    case 'AssignmentExpression':
    case 'AssignmentPattern':
      return parent.right === fn ? target(parent.left as AnyNode) : undefined;
    case 'Property':
    case 'MethodDefinition':
    case 'PropertyDefinition':
      return parent.value === fn && !parent.computed ? target(parent.key as AnyNode) : undefined;
    default:
      return undefined;
  }
}

/** A name as its own string, not a slice that keeps the whole script alive. */
const own = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

/** Every function in source order (pre-order: a parent before its children), without recursion. */
function collect(program: Node, rows: number[], names: string[], text: string): void {
  const stack: [AnyNode, AnyNode | undefined, number][] = [[program as AnyNode, undefined, -1]];
  while (stack.length) {
    const [node, parent, owner] = stack.pop()!;
    let inside = owner;
    if (isFunction(node)) {
      inside = rows.length / 4;
      const name = nameNode(node, parent);
      rows.push(node.start, node.end, owner, name ? name.start : -1);
      names.push(
        !name ? '' : name.type === 'Literal' ? own(String(name.value)) : own(text.slice(name.start, name.end)),
      );
    }
    const kids: AnyNode[] = [];
    for (const key in node) {
      if (key === 'type' || key === 'start' || key === 'end' || key === 'loc' || key === 'range') continue;
      const v = node[key];
      if (Array.isArray(v)) {
        for (const x of v) if (x && typeof x === 'object' && typeof x.type === 'string') kids.push(x);
      } else if (v && typeof v === 'object' && typeof (v as AnyNode).type === 'string') kids.push(v as AnyNode);
    }
    kids.sort((a, b) => a.start - b.start); // source order, so functions come out sorted by start
    for (let k = kids.length - 1; k >= 0; k--) stack.push([kids[k]!, node, inside]);
  }
}
