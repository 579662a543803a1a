// The page's own ids for elements (numbers, for this load only): the same element keeps its id in
// every snapshot. Held weakly, so an id never keeps a removed element alive.

const ids = new WeakMap<Element, number>();
const elements = new Map<number, WeakRef<Element>>();
let next = 1;
let sweepAt = 4096;

export function idOf(el: Element): number {
  let id = ids.get(el);
  if (id === undefined) {
    id = next++;
    ids.set(el, id);
    elements.set(id, new WeakRef(el));
    if (elements.size > sweepAt) sweep();
  }
  return id;
}

/** The element an id names, if it is still alive (it may have left the document: check isConnected). */
export function elementOf(id: number): Element | undefined {
  return elements.get(id)?.deref();
}

/** The id an element already has (removed elements keep theirs), without giving it one. */
export function knownId(el: Element): number | undefined {
  return ids.get(el);
}

function sweep(): void {
  for (const [id, ref] of elements) if (!ref.deref()) elements.delete(id);
  sweepAt = Math.max(4096, elements.size * 2);
}

// Open shadow roots the outline went through: mutation observers watch them too (a document's
// observer does not see inside them).
const shadows = new Set<WeakRef<ShadowRoot>>();
const seenShadows = new WeakSet<ShadowRoot>();

export function noteShadowRoot(root: ShadowRoot): void {
  if (seenShadows.has(root)) return;
  seenShadows.add(root);
  shadows.add(new WeakRef(root));
}

/** Observes `doc` and every shadow root of it an outline went through (and the root `el` is in). */
export function observeAll(
  observer: MutationObserver,
  doc: Document,
  options: MutationObserverInit,
  el?: Element,
): void {
  observer.observe(doc, options);
  const own = el?.getRootNode();
  if (own && own !== doc && (own as ShadowRoot).host) noteShadowRoot(own as ShadowRoot);
  for (const ref of shadows) {
    const root = ref.deref();
    if (!root) shadows.delete(ref);
    else if (root.host.isConnected && root.host.ownerDocument === doc) observer.observe(root, options);
  }
}
