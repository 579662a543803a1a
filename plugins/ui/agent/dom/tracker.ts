import type { Change, UiNode } from '../../protocol.js';
import { contentText, cut, deepActiveElement, ownName, roleOf } from './aria.js';
import { knownId, observeAll } from './ids.js';
import { visibility, Walker } from './walk.js';

// What an action changed in the page, from the DOM's own mutation records: elements added (+),
// removed or hidden (-), and changed (~), each as its outline line. Only observes while an action
// is open, so an idle page pays nothing.

const MAX_CHANGES = 30;
/** Attributes whose change can show or hide an element's content. */
const REVEALING = new Set(['open', 'hidden', 'class', 'style', 'aria-hidden', 'aria-expanded']);
const ATTRIBUTES = [
  'aria-expanded',
  'aria-checked',
  'aria-selected',
  'aria-pressed',
  'aria-disabled',
  'aria-hidden',
  'aria-current',
  'aria-invalid',
  'aria-label',
  'hidden',
  'disabled',
  'open',
  'checked',
  'selected',
  'value',
  'href',
  'class',
  'style',
];

export class ChangeTracker {
  private readonly observer: MutationObserver;
  private readonly records: MutationRecord[] = [];

  constructor(
    private readonly doc: Document,
    private readonly overlay: Element | null,
    /** The element acted on: reported apart. */
    private readonly target: Element | undefined,
  ) {
    const View = doc.defaultView?.MutationObserver ?? MutationObserver;
    this.observer = new View((records) => {
      if (this.records.length < 5000) this.records.push(...records);
    });
    observeAll(
      this.observer,
      doc,
      { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ATTRIBUTES },
      target,
    );
  }

  stop(): void {
    this.observer.disconnect();
  }

  /** Whether the page changed since the last take. */
  changed(): boolean {
    this.records.push(...this.observer.takeRecords());
    return this.records.length > 0;
  }

  /** Resolves once no change came for `ms`, or after `max`. */
  async quiet(ms: number, max: number): Promise<void> {
    const end = Date.now() + max;
    let seen = -1;
    while (Date.now() < end) {
      this.records.push(...this.observer.takeRecords());
      if (this.records.length === seen) return;
      seen = this.records.length;
      await new Promise((r) => setTimeout(r, ms));
    }
  }

  /** The changes recorded since the last call. */
  take(): { changes: Change[]; more: number } {
    const records = this.records.splice(0);
    records.push(...this.observer.takeRecords());
    const added = new Set<Element>();
    const removed = new Set<Element>();
    const changed = new Set<Element>();
    const revealed = new Set<Element>();
    for (const r of records) {
      if (r.type === 'childList') {
        for (const n of r.addedNodes) {
          if (n.nodeType === 1) added.add(n as Element);
          else if (r.target.nodeType === 1) changed.add(r.target as Element);
        }
        for (const n of r.removedNodes) {
          if (n.nodeType === 1) {
            if (!added.delete(n as Element)) removed.add(n as Element);
          } else if (r.target.nodeType === 1) changed.add(r.target as Element);
        }
      } else {
        const el = r.target.nodeType === 1 ? (r.target as Element) : r.target.parentElement;
        if (el) changed.add(el);
        if (el && r.attributeName && REVEALING.has(r.attributeName)) revealed.add(el);
      }
    }
    const changes: Change[] = [];
    let more = 0;
    const targetId = this.target && knownId(this.target);
    const shown = new Set<number>();
    const add = (lines: UiNode[], op: Change['op']) => {
      const fresh = lines.filter((l) => l.id === undefined || (l.id !== targetId && !shown.has(l.id)));
      if (fresh.length === 0) return;
      if (changes.length >= MAX_CHANGES) {
        more++;
        return;
      }
      for (const line of fresh) {
        if (line.id !== undefined && line.role !== 'text') shown.add(line.id);
        changes.push({ ...line, op });
      }
    };
    const focused = deepActiveElement(this.doc);
    const inside = (el: Element, set: Set<Element>) => {
      for (let p = el.parentElement; p; p = p.parentElement) if (set.has(p)) return true;
      return false;
    };
    for (const el of added) {
      if (!el.isConnected || inside(el, added) || el === this.overlay) continue;
      add(new Walker({ limit: 8, maxChars: 1200, depth: 2, focused }).root(el).nodes, '+');
    }
    for (const el of removed) {
      if (el.isConnected || inside(el, removed) || el === this.overlay) continue;
      add(removedLine(el), '-');
    }
    for (const el of changed) {
      if (!el.isConnected || el === this.target || added.has(el) || inside(el, added) || el === this.overlay) continue;
      if (visibility(el) === false) {
        const id = knownId(el);
        if (id !== undefined) add(removedLine(el), '-');
        continue;
      }
      // A change that can show or hide what it holds (open, hidden, class, …): its content too.
      const opened = revealed.has(el);
      const lines = new Walker({ limit: opened ? 6 : 1, maxChars: 1200, depth: opened ? 2 : 0, focused }).root(
        el,
      ).nodes;
      for (const l of lines) delete l.hidden;
      add(lines, '~');
    }
    return { changes, more };
  }
}

/** A removed element as it was: its role and name (or text), and the id it had if a snapshot showed it. */
function removedLine(el: Element): UiNode[] {
  const role = roleOf(el, el.tagName, false);
  const name = (role && ownName(el, el.tagName, role)) || contentText(el, 120);
  if (!role && !name) return [];
  const node: UiNode = { d: 0, role: role || 'text' };
  const id = knownId(el);
  if (id !== undefined) node.id = id;
  if (name) node.name = cut(name, 120);
  return [node];
}
