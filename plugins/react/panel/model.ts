import type { Status, TreeNode } from '../protocol.js';

/** A tree line as the panel shows it: the node, whether it has children, and its parent's index. */
export interface Row {
  node: TreeNode;
  index: number;
  parent: number;
  hasChildren: boolean;
}

/** Every node with its parent and whether it has children (nodes come in DFS order with depths). */
export function rowsOf(nodes: TreeNode[]): Row[] {
  const rows: Row[] = [];
  const open: number[] = [];
  nodes.forEach((node, index) => {
    while (open.length && nodes[open.at(-1)!]!.d >= node.d) open.pop();
    rows.push({ node, index, parent: open.at(-1) ?? -1, hasChildren: (nodes[index + 1]?.d ?? -1) > node.d });
    open.push(index);
  });
  return rows;
}

/** The rows shown when the nodes whose ids are in `collapsed` are closed. */
export function visibleRows(rows: Row[], collapsed: ReadonlySet<string>): Row[] {
  const out: Row[] = [];
  let hideBelow = Number.POSITIVE_INFINITY;
  for (const row of rows) {
    if (row.node.d > hideBelow) continue;
    hideBelow = collapsed.has(row.node.id) && row.hasChildren ? row.node.d : Number.POSITIVE_INFINITY;
    out.push(row);
  }
  return out;
}

/** "react-dom 19.3.1 (development) · 1 root · 12 commits" */
export function statusLine(s: Status | undefined): string {
  if (!s) return 'Waiting for the app…';
  const renderers = s.renderers.map((r) => `${r.package ?? 'React'} ${r.version ?? ''} (${r.build})`).join(', ');
  return `${renderers || 'No React renderer'} · ${s.roots} root${s.roots === 1 ? '' : 's'} · ${s.commits} commits`;
}
