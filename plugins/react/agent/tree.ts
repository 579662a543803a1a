import { type Fiber, fiberName, isHost, isShown, Tag } from '../../../agent/react/fiber.js';
import { fiberBadge } from '../../../agent/react/fiber-details.js';
import type { TreeNode, TreeParams } from '../protocol.js';
import type { FiberIds } from './ids.js';

/** Fibers looked at per call at most, so no tree holds up the app for long. */
const MAX_FIBERS = 250_000;

/**
 * The component tree under `starts` (roots' current fibers, or one component) as lines in DFS
 * order; with a name or text filter, the matches and their ancestors. Ids are given only to the
 * fibers shown.
 */
export function buildTree(
  starts: Fiber[],
  ids: FiberIds,
  p: TreeParams,
): { nodes: TreeNode[]; more: number; deeper: number } {
  const nodes: TreeNode[] = [];
  const path: { f: Fiber; node?: TreeNode }[] = [];
  const byName = p.name?.toLowerCase();
  const byText = p.text?.toLowerCase();
  let more = 0;
  let deeper = 0;
  let visited = 0;

  const show = (d: number) => {
    if (d >= p.depth) return void deeper++;
    if (path[d]!.node) return;
    let i = d;
    while (i >= 0 && !path[i]!.node) i--;
    if (nodes.length + d - i > p.limit) return void more++;
    for (i++; i <= d; i++) nodes.push((path[i]!.node = node(path[i]!.f, i, ids)));
  };
  const hasText = (t: unknown) =>
    (typeof t === 'string' || typeof t === 'number') && String(t).toLowerCase().includes(byText!);

  const visit = (x: Fiber): void => {
    if (++visited > MAX_FIBERS) return;
    // the hidden content of a suspended boundary (its fallback is shown instead)
    if (x.tag === Tag.Offscreen && x.memoizedState != null) return;
    const listed = x.tag === Tag.HostRoot || isShown(x, p.hosts);
    if (listed) {
      path.push({ f: x });
      if (!(byName || byText) || (byName && fiberName(x).toLowerCase().includes(byName))) show(path.length - 1);
    }
    if (byText && path.length > 0) {
      if (x.tag === Tag.Text ? hasText(x.memoizedProps) : isHost(x) && hasText(x.memoizedProps?.children)) {
        show(path.length - 1);
      }
    }
    for (let c = x.child; c; c = c.sibling) visit(c);
    if (listed) path.pop();
  };
  for (const start of starts) visit(start);
  return { nodes, more, deeper };
}

function node(f: Fiber, d: number, ids: FiberIds): TreeNode {
  const info = ids.info(f);
  const out: TreeNode = { d, n: info.name, id: ids.format(info) };
  if (f.key != null) out.k = String(f.key).slice(0, 200);
  const badge = fiberBadge(f);
  if (badge) out.b = badge;
  if (info.renders) out.r = info.renders;
  if (isHost(f)) {
    out.h = true;
    const c = f.memoizedProps?.children;
    if (typeof c === 'string' || typeof c === 'number') out.t = String(c).slice(0, 80);
  } else if (f.tag === Tag.HostRoot) {
    const el = f.stateNode?.containerInfo as { localName?: string; id?: string } | undefined;
    if (typeof el?.localName === 'string') out.t = el.id ? `${el.localName}#${el.id}` : el.localName;
  }
  return out;
}
