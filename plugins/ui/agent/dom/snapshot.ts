import { RequestError } from '../../../../shared/protocol/request-error.js';
import type { PageInfo, SnapshotParams, SnapshotResult, UiNode } from '../../protocol.js';
import { cut, deepActiveElement } from './aria.js';
import { elementOf } from './ids.js';
import { Walker } from './walk.js';

/** Levels shown below each match of a text search, unless the caller says. */
const MATCH_DEPTH = 2;
/** Nodes a text search looks through at most. */
const SEARCH_NODES = 50_000;

export function pageInfo(doc: Document): PageInfo {
  return { url: String(doc.location?.href ?? ''), title: cut(doc.title, 600), readyState: doc.readyState };
}

/** An element by the id a snapshot gave it, or a refusal that says to take a new snapshot. */
export function elementById(id: number): Element {
  const el = elementOf(id);
  if (!el?.isConnected) {
    throw new RequestError(
      'handler-error',
      'the element is no longer in the page (it was removed or re-rendered): take a new snapshot',
    );
  }
  return el;
}

export function snapshot(doc: Document, params: SnapshotParams, overlay: Element | null): SnapshotResult {
  const started = performance.now();
  const start = params.root ? elementById(params.root) : (doc.body ?? doc.documentElement);
  const focused = deepActiveElement(doc);
  const page = pageInfo(doc);
  if (params.text) {
    const all = new Walker({
      limit: SEARCH_NODES,
      maxChars: Number.POSITIVE_INFINITY,
      depth: 1000,
      focused,
      skip: overlay,
    }).root(start).nodes;
    const { nodes, matches, more } = around(all, params.text, params.depth ?? MATCH_DEPTH, params);
    return { page, nodes, more, matches, ms: performance.now() - started };
  }
  const walker = new Walker({
    limit: params.limit,
    maxChars: params.maxChars,
    depth: params.depth ?? 1000,
    focused,
    skip: overlay,
  }).root(start);
  const more = walker.full ? Math.max(0, start.getElementsByTagName('*').length + 1 - walker.visited) : 0;
  return { page, nodes: walker.nodes, more, ms: performance.now() - started };
}

/** The nodes matching `text`, each with its ancestors and `depth` levels of its subtree, in outline order. */
function around(
  all: UiNode[],
  text: string,
  depth: number,
  { limit, maxChars }: { limit: number; maxChars: number },
): { nodes: UiNode[]; matches: number; more: number } {
  const needle = text.toLowerCase();
  const keep = new Uint8Array(all.length);
  const path: number[] = [];
  let matches = 0;
  for (let i = 0; i < all.length; i++) {
    const node = all[i]!;
    path.length = node.d;
    path[node.d] = i;
    const hay = `${node.name ?? ''}\n${node.value ?? ''}\n${node.text ?? ''}`.toLowerCase();
    if (!hay.includes(needle)) continue;
    matches++;
    for (const at of path) if (at !== undefined) keep[at] = 1;
    for (let j = i + 1; j < all.length && all[j]!.d > node.d; j++) if (all[j]!.d - node.d <= depth) keep[j] = 1;
  }
  const nodes: UiNode[] = [];
  let chars = 0;
  let more = 0;
  for (let i = 0; i < all.length; i++) {
    if (!keep[i]) continue;
    const node = all[i]!;
    if (nodes.length >= limit || chars >= maxChars) {
      more++;
      continue;
    }
    nodes.push(node);
    chars += node.d * 2 + 20 + (node.name?.length ?? 0) + (node.value?.length ?? 0) + (node.text?.length ?? 0);
  }
  return { nodes, matches, more };
}
