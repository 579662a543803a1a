import type { Fiber, FiberRoot } from './fiber.js';

/**
 * React roots mounted in the page, found by the marks react-dom leaves on container elements
 * (`__reactContainer$…` from createRoot, `_reactRootContainer` from the legacy render): how a React
 * that loaded before the hook is still read. Looks at up to `max` elements; [] without a DOM.
 */
export function pageRoots(max = 5000): FiberRoot[] {
  const doc = (globalThis as { document?: Document }).document;
  if (!doc?.body) return [];
  const found = new Set<FiberRoot>();
  const elements = doc.body.getElementsByTagName('*');
  const n = Math.min(elements.length, max);
  for (let i = -1; i < n; i++) {
    const el = (i < 0 ? doc.body : elements[i]) as unknown as Record<string, unknown>;
    for (const key of Object.keys(el)) {
      const mark = el[key] as (Fiber & { _internalRoot?: FiberRoot }) | null;
      if (!mark) continue;
      if (key.startsWith('__reactContainer$') && mark.stateNode?.current) found.add(mark.stateNode);
      else if (key === '_reactRootContainer' && mark._internalRoot?.current) found.add(mark._internalRoot);
    }
  }
  return [...found];
}
