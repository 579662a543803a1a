// The walk that finds a generated script's functions (function-names.ts), run in a worker thread
// so that parsing a large script (about 0.3-0.5 s a MB) never blocks the core's event loop. Plain
// JavaScript, not TypeScript: a worker has no TypeScript loader under vitest, and the build copies
// this file as it is beside the bundle (electron.vite.config.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { parse } from 'acorn';

/**
 * The script's line starts and functions: per function, in order of start, its start, end, parent
 * index (-1: none) and where its name is written (-1: anonymous), and its name as written (''
 * when anonymous). Null when the script parses neither as a module nor as a script.
 * @param {string} text
 * @returns {{ lineStarts: Int32Array, table: Int32Array, names: string[] } | null}
 */
export function scanFunctions(text) {
  let program;
  for (const sourceType of ['module', 'script']) {
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
  if (!program) return null;
  const rows = [];
  const names = [];
  collect(program, rows, names, text);
  const lines = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines.push(i + 1);
  return { lineStarts: Int32Array.from(lines), table: Int32Array.from(rows), names };
}

const isFunction = (n) =>
  n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression';

/** The node that names a function: its own id, else what it is assigned to (as JavaScript infers names). */
function nameNode(fn, parent) {
  if (fn.id) return fn.id;
  if (!parent) return undefined;
  const target = (n) => {
    if (!n) return undefined;
    if (n.type === 'Identifier' || n.type === 'PrivateIdentifier' || n.type === 'Literal') return n;
    if (n.type === 'MemberExpression' && !n.computed) return target(n.property);
    return undefined;
  };
  switch (parent.type) {
    case 'VariableDeclarator':
      return parent.init === fn ? target(parent.id) : undefined;
    case 'AssignmentExpression':
    case 'AssignmentPattern':
      return parent.right === fn ? target(parent.left) : undefined;
    case 'Property':
    case 'MethodDefinition':
    case 'PropertyDefinition':
      return parent.value === fn && !parent.computed ? target(parent.key) : undefined;
    default:
      return undefined;
  }
}

/** Every function in source order (pre-order: a parent before its children), without recursion. */
function collect(program, rows, names, text) {
  const stack = [[program, undefined, -1]];
  while (stack.length) {
    const [node, parent, owner] = stack.pop();
    let inside = owner;
    if (isFunction(node)) {
      inside = rows.length / 4;
      const name = nameNode(node, parent);
      rows.push(node.start, node.end, owner, name ? name.start : -1);
      names.push(!name ? '' : name.type === 'Literal' ? String(name.value) : text.slice(name.start, name.end));
    }
    const kids = [];
    for (const key in node) {
      if (key === 'type' || key === 'start' || key === 'end' || key === 'loc' || key === 'range') continue;
      const v = node[key];
      if (Array.isArray(v)) {
        for (const x of v) if (x && typeof x === 'object' && typeof x.type === 'string') kids.push(x);
      } else if (v && typeof v === 'object' && typeof v.type === 'string') kids.push(v);
    }
    kids.sort((a, b) => a.start - b.start); // source order, so functions come out sorted by start
    for (let k = kids.length - 1; k >= 0; k--) stack.push([kids[k], node, inside]);
  }
}

// Only as the worker function-names.ts starts (not when some other worker imports this file).
if (parentPort && workerData === 'porthole-function-scan') {
  const port = parentPort;
  port.on('message', (/** @type {{ id: number, text: string }} */ { id, text }) => {
    let result = null;
    try {
      result = scanFunctions(text);
    } catch {}
    // Names cross by structured clone (own strings, no slices of the script); tables by transfer.
    port.postMessage({ id, result }, result ? [result.lineStarts.buffer, result.table.buffer] : []);
  });
}
