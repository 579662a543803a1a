import type { WaitParams, WaitResult } from '../../protocol.js';
import { cut, deepActiveElement } from './aria.js';
import { elementOf, observeAll } from './ids.js';
import { visibility, Walker } from './walk.js';

// ui_wait_for's page side: a text or an element appearing or going, checked when the page changes
// (a mutation observer, throttled) and every quarter second (styles, values), until the timeout.

const CHECK_EVERY_MS = 250;
const THROTTLE_MS = 50;

export function waitFor(
  doc: Document,
  params: WaitParams,
  signal: AbortSignal,
  overlay: Element | null,
): Promise<WaitResult> {
  const started = performance.now();
  const check = (): WaitResult | undefined => {
    const found = params.text !== undefined ? findText(doc, params.text, overlay) : findElement(params.target?.id);
    const met = params.gone ? !found : !!found;
    if (!met) return undefined;
    const result: WaitResult = { met: true, ms: performance.now() - started };
    if (typeof found === 'object') result.node = found;
    return result;
  };
  const first = check();
  if (first) return Promise.resolve(first);
  return new Promise((resolve) => {
    let pending: ReturnType<typeof setTimeout> | undefined;
    const finish = (result: WaitResult) => {
      observer.disconnect();
      clearInterval(ticker);
      clearTimeout(timeout);
      clearTimeout(pending);
      signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const attempt = () => {
      pending = undefined;
      const result = check();
      if (result) finish(result);
    };
    const observer = new MutationObserver(() => {
      pending ??= setTimeout(attempt, THROTTLE_MS);
    });
    observeAll(observer, doc, { subtree: true, childList: true, characterData: true, attributes: true });
    const ticker = setInterval(attempt, CHECK_EVERY_MS);
    const timeout = setTimeout(
      () => finish({ met: false, ms: performance.now() - started, seen: seen(doc, overlay) }),
      params.timeoutMs,
    );
    const onAbort = () => finish({ met: false, ms: performance.now() - started });
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function findText(doc: Document, text: string, overlay: Element | null) {
  const needle = text.toLowerCase();
  const nodes = new Walker({
    limit: 50_000,
    maxChars: Number.POSITIVE_INFINITY,
    depth: 1000,
    focused: deepActiveElement(doc),
    skip: overlay,
  }).root(doc.body ?? doc.documentElement).nodes;
  return nodes.find((n) => `${n.name ?? ''}\n${n.value ?? ''}\n${n.text ?? ''}`.toLowerCase().includes(needle));
}

function findElement(id: number | undefined) {
  const el = id === undefined ? undefined : elementOf(id);
  if (!el?.isConnected || visibility(el) !== true) return undefined;
  return new Walker({ limit: 1, maxChars: 1e6, depth: 0, focused: null }).root(el).nodes[0] ?? true;
}

/** What the page shows, in short: the first lines of its outline as text. */
function seen(doc: Document, overlay: Element | null): string {
  const nodes = new Walker({ limit: 60, maxChars: 3000, depth: 1000, focused: null, skip: overlay }).root(
    doc.body ?? doc.documentElement,
  ).nodes;
  return cut(
    nodes
      .map((n) => [n.role === 'text' ? '' : n.role, n.name && JSON.stringify(n.name), n.text].filter(Boolean).join(' '))
      .filter(Boolean)
      .join(' · '),
    3000,
  );
}
