import { definePluginTool } from '../../../shared/tool.js';
import { json, text } from '../../../shared/tool-result.js';
import {
  InspectParamsSchema,
  RendersParamsSchema,
  type Status,
  type TreeNode,
  TreeParamsSchema,
  type TreeResult,
} from '../protocol.js';
import type { ReactHost } from './host-api.js';

const tool = definePluginTool<ReactHost>();
const readOnly = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

export const reactTree = tool({
  name: 'react_tree',
  title: 'React component tree',
  description:
    'React components as an outline: name key="…" [memo|forwardRef|class|suspended] #id ×renders; ids go to react_inspect.',
  input: TreeParamsSchema,
  annotations: readOnly,
  handler: async (p, { instance, signal }) => text(outline(await instance.ask('tree', p, signal), p.limit)),
});

export const reactInspect = tool({
  name: 'react_inspect',
  title: 'Inspect a React component',
  description:
    "A component's props, state, hooks (kind, value, deps), contexts, owners, source file:line:col, DOM nodes; set writes a prop, hook or state.",
  input: InspectParamsSchema,
  annotations: readOnly,
  askWhen: {
    what: 'writing props, state or hooks (set)',
    check: ({ id, name, set }) =>
      set &&
      `Set ${set.path
        .map((k) => (/^\d+$/.test(k) ? `[${k}]` : `.${k}`))
        .join('')
        .replace(
          /^\./,
          '',
        )} of the React component ${id ? `#${id}` : `"${name}"`} to ${JSON.stringify(set.value).slice(0, 300)} (React re-renders it)`,
  },
  handler: async (p, { instance, signal }) => json(await instance.inspect(p, signal)),
});

export const reactRenders = tool({
  name: 'react_renders',
  title: 'React renders and why',
  description:
    'Which components rendered, how often, self ms, and why: mount, props.<key>, hook #i <kind>, context <name>, parent, forced. Pass its commit as since next time.',
  input: RendersParamsSchema,
  annotations: readOnly,
  handler: async (p, { instance, signal }) => json(await instance.ask('renders', p, signal)),
});

export const reactTools = [reactTree, reactInspect, reactRenders];

/** The tree as text: a header about React, one line per component, what was left out and how to see it. */
export function outline(tree: TreeResult, limit: number): string {
  const lines = [header(tree.status), ...tree.nodes.map(line)];
  if (!tree.nodes.length)
    lines.push(tree.status.roots || tree.status.late ? '(nothing matches)' : '(no React root yet)');
  if (tree.more) lines.push(`… ${tree.more} more: filter by name or text, start at an id, or raise limit (${limit})`);
  if (tree.deeper) lines.push(`… ${tree.deeper} below depth: call again with id of a listed component`);
  return lines.join('\n');
}

function header(s: Status): string {
  const r = s.renderers.map((x) => `${x.package ?? 'React'} ${x.version ?? '?'} (${x.build})`).join(', ');
  const head = `${r || 'React'}: ${s.roots} root${s.roots === 1 ? '' : 's'}, ${s.commits} commits`;
  return s.problem ? `${head}\n! ${s.problem}` : head;
}

function line(n: TreeNode): string {
  let out = ' '.repeat(n.d) + n.n;
  if (n.k !== undefined) out += ` key=${JSON.stringify(n.k)}`;
  if (n.b) out += ` [${n.b}]`;
  if (n.t !== undefined) out += n.h ? ` ${JSON.stringify(n.t)}` : ` ${n.t}`;
  out += ` #${n.id}`;
  if (n.r) out += ` ×${n.r}`;
  return out;
}
