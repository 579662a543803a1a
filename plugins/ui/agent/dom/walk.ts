import type { UiNode } from '../../protocol.js';
import {
  contentText,
  cut,
  fieldValue,
  frameDocument,
  LEAVES,
  levelOf,
  linkTarget,
  nameFromContent,
  ownName,
  roleOf,
  SECTIONING,
  showsWithoutName,
  squash,
  statesOf,
} from './aria.js';
import { idOf, noteShadowRoot } from './ids.js';

// The outline of what the page shows: one depth-first pass over the flat tree (open shadow roots,
// slots, same-origin frames), elements without a role of their own (div, span) folded away, runs of
// text merged into one line. It stops as soon as it has `limit` nodes or `maxChars` of outline.

export interface WalkOptions {
  limit: number;
  maxChars: number;
  /** Levels shown below the start. */
  depth: number;
  focused: Element | null;
  /** The highlight overlay: never part of the outline. */
  skip?: Element | null;
}

const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'LINK', 'META', 'TITLE', 'DATALIST']);
/** Tags that do not break a run of text. */
const INLINE = new Set([
  'SPAN',
  'B',
  'I',
  'EM',
  'STRONG',
  'SMALL',
  'CODE',
  'ABBR',
  'MARK',
  'SUB',
  'SUP',
  'TIME',
  'KBD',
  'S',
  'U',
  'Q',
  'CITE',
  'VAR',
  'SAMP',
  'DATA',
  'FONT',
  'LABEL',
  'BDI',
  'BDO',
  'WBR',
  'INS',
  'DEL',
]);
const INTERACTIVE_INSIDE =
  'a[href],button,input,select,textarea,[tabindex],[role=button],[role=link],[role=checkbox],[role=tab],[role=menuitem],[contenteditable]';
const VISIBILITY = { visibilityProperty: true, checkVisibilityCSS: true };
const MAX_OPTIONS = 25;

export class Walker {
  readonly nodes: UiNode[] = [];
  /** Elements looked at. */
  visited = 0;
  full = false;
  private chars = 0;
  private text = '';
  private textOwner: Element | null = null;
  private textDepth = 0;

  constructor(private readonly options: WalkOptions) {}

  /** Walks `el` as the outline's root (depth 0). */
  root(el: Element): this {
    this.element(el, 0, false);
    this.flush();
    return this;
  }

  private push(node: UiNode): void {
    this.nodes.push(node);
    this.chars +=
      node.d * 2 +
      node.role.length +
      12 +
      (node.name?.length ?? 0) +
      (node.value?.length ?? 0) +
      (node.url?.length ?? 0) +
      (node.states ? node.states.length * 9 : 0);
    if (this.nodes.length >= this.options.limit || this.chars >= this.options.maxChars) this.full = true;
  }

  private element(el: Element, d: number, inSection: boolean): void {
    if (this.full) return;
    this.visited++;
    const tag = el.tagName;
    if (SKIPPED.has(tag) || el === this.options.skip || el.getAttribute('aria-hidden') === 'true') return;
    if (tag === 'SLOT') {
      this.slot(el as HTMLSlotElement, d, inSection);
      return;
    }
    const shown = visibility(el);
    if (shown === false) return;
    const role = shown === 'contents' ? '' : roleOf(el, tag, inSection);
    if (!role) {
      if (tag === 'svg' || tag === 'SVG' || tag === 'IMG') return;
      const breaks = !INLINE.has(tag);
      if (breaks) this.flush();
      // A label's text names its control; only what else it holds is shown. A control hidden behind
      // its label (a styled checkbox) is shown where the label is: clicking it goes to the label.
      const control = tag === 'LABEL' ? (el as HTMLLabelElement).control : null;
      if (control && visibility(control) === false) this.control(control, d);
      this.children(el, d, inSection, control !== null);
      if (breaks) this.flush();
      return;
    }
    this.flush();
    let name = ownName(el, tag, role);
    const fromContent = nameFromContent(role);
    const leaf = fromContent && !el.querySelector(INTERACTIVE_INSIDE);
    if (!name && leaf) name = contentText(el, 200);
    if (!name && !showsWithoutName(role)) {
      this.children(el, d, inSection, false);
      this.flush();
      return;
    }
    const node: UiNode = { d, id: idOf(el), role };
    if (name) node.name = cut(name, 300);
    const value = fieldValue(el, tag, role);
    if (value !== undefined) node.value = cut(value, 1000);
    if (role === 'link') {
      const url = linkTarget(el);
      if (url) node.url = url;
    }
    const states = statesOf(el, tag, role, this.options.focused);
    if (states) node.states = states;
    const level = levelOf(el, tag, role);
    if (level) node.level = level;
    this.push(node);
    if (tag === 'SELECT') {
      this.options_(el as HTMLSelectElement, d + 1);
      return;
    }
    if (role === 'iframe') {
      this.frame(el as HTMLIFrameElement, node, d + 1);
      return;
    }
    if (leaf || LEAVES.has(role) || tag === 'INPUT' || tag === 'TEXTAREA') return;
    if (d >= this.options.depth) {
      if (el.childElementCount > 0) node.hidden = el.childElementCount;
      return;
    }
    const before = this.nodes.length;
    this.children(el, d + 1, inSection || SECTIONING.has(tag), false);
    this.flush();
    // An element whose only content is a run of text shows it on its own line.
    const only = this.nodes.length === before + 1 ? this.nodes[before] : undefined;
    if (only?.role === 'text' && only.d === d + 1 && !node.name && !node.value) {
      this.nodes.pop();
      node.text = only.name;
    }
  }

  private control(control: Element, d: number): void {
    const role = roleOf(control, control.tagName, false);
    if (!role) return;
    const node: UiNode = { d, id: idOf(control), role };
    const name = ownName(control, control.tagName, role);
    if (name) node.name = cut(name, 300);
    const states = statesOf(control, control.tagName, role, this.options.focused);
    if (states) node.states = states;
    this.push(node);
  }

  private children(parent: Element, d: number, inSection: boolean, skipText: boolean): void {
    const shadow = parent.shadowRoot;
    if (shadow) noteShadowRoot(shadow);
    const from: ParentNode = shadow ?? parent;
    for (let c = from.firstChild; c && !this.full; c = c.nextSibling) this.child(c, parent, d, inSection, skipText);
  }

  private child(c: Node, parent: Element, d: number, inSection: boolean, skipText: boolean): void {
    if (c.nodeType === 1) this.element(c as Element, d, inSection);
    else if (c.nodeType === 3 && !skipText) this.addText((c as Text).data, c.parentElement ?? parent, d);
  }

  private slot(slot: HTMLSlotElement, d: number, inSection: boolean): void {
    const assigned = slot.assignedNodes({ flatten: true });
    if (assigned.length === 0) {
      this.children(slot, d, inSection, false);
      return;
    }
    for (const node of assigned) {
      if (this.full) return;
      this.child(node, slot, d, inSection, false);
    }
  }

  private addText(data: string, owner: Element, d: number): void {
    if (!this.text) {
      if (!data.trim()) return;
      this.textOwner = owner;
      this.textDepth = d;
    } else if (this.textOwner !== owner && this.textOwner) {
      let common: Element | null = this.textOwner;
      while (common && !common.contains(owner)) common = common.parentElement;
      this.textOwner = common ?? owner;
    }
    this.text += data;
  }

  private flush(): void {
    if (!this.text) return;
    const text = squash(this.text);
    this.text = '';
    if (!text || this.full) return;
    const node: UiNode = { d: this.textDepth, role: 'text', name: cut(text, 300) };
    if (this.textOwner) node.id = idOf(this.textOwner);
    this.push(node);
  }

  private options_(select: HTMLSelectElement, d: number): void {
    const options = select.options;
    const n = Math.min(options.length, MAX_OPTIONS);
    for (let i = 0; i < n && !this.full; i++) {
      const option = options[i]!;
      const node: UiNode = { d, id: idOf(option), role: 'option', name: cut(squash(option.text), 200) };
      const states = [option.selected && 'selected', option.disabled && 'disabled'].filter(Boolean) as string[];
      if (states.length) node.states = states;
      this.push(node);
    }
    if (options.length > n && !this.full) this.push({ d, role: 'text', name: `… ${options.length - n} more options` });
  }

  private frame(frame: HTMLIFrameElement, node: UiNode, d: number): void {
    const doc = frameDocument(frame);
    if (!doc?.body) {
      node.states = [...(node.states ?? []), doc ? 'empty' : 'cross-origin'];
      return;
    }
    if (d > this.options.depth) {
      node.hidden = doc.body.childElementCount;
      return;
    }
    this.children(doc.body, d, false, false);
    this.flush();
  }
}

/** true (rendered), false (not: display none, visibility hidden, not in a rendered subtree), or 'contents'. */
export function visibility(el: Element): boolean | 'contents' {
  const check = (el as { checkVisibility?: (o: object) => boolean }).checkVisibility;
  if (check?.call(el, VISIBILITY)) return true;
  const view = el.ownerDocument.defaultView;
  const style = view?.getComputedStyle(el);
  if (!style) return false;
  if (style.display === 'contents') return 'contents';
  if (check) return false;
  return style.display !== 'none' && style.visibility !== 'hidden' && style.visibility !== 'collapse';
}

/** The first visible element (from `start`) with this role and name, for replays after a reload. */
export function findByRole(start: Element, role: string, name: string | undefined, focused: Element | null) {
  const walker = new Walker({ limit: 50_000, maxChars: Number.POSITIVE_INFINITY, depth: 1000, focused }).root(start);
  return walker.nodes.find((n) => n.role === role && (name === undefined || n.name === name));
}
