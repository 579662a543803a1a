import { currentFiber, type Fiber, Tag } from '../../../../agent/react/fiber.js';
import type { UiNode } from '../../protocol.js';

// React Native's UI as the outline sees it, read from React's host components (the fibers of
// View, Text, TextInput, Switch … as the renderer mounted them): roles and names from the
// accessibility props (`role`, `accessibilityRole`, `aria-label`, `accessibilityLabel`, `testID`),
// states from `accessibilityState` and `aria-*`, text from the raw text under a Text, values from
// TextInput and Switch props. A View with nothing to say is left out and its children move up.

/** Fibers looked at per outline at most, so no screen holds up the app for long. */
const MAX_FIBERS = 100_000;

/** Ids stable per element for the app's run: a WeakMap on the fiber and its alternate. */
export class HostIds {
  private seq = 0;
  private readonly byFiber = new WeakMap<Fiber, number>();
  private readonly byId = new Map<number, { deref(): Fiber | undefined }>();

  id(f: Fiber): number {
    let n = this.byFiber.get(f) ?? (f.alternate ? this.byFiber.get(f.alternate) : undefined);
    if (n === undefined) {
      n = ++this.seq;
      const Weak = (globalThis as { WeakRef?: new (f: Fiber) => { deref(): Fiber | undefined } }).WeakRef;
      this.byId.set(n, Weak ? new Weak(f) : { deref: () => f });
      if (this.byId.size > 8192) this.prune();
    }
    this.byFiber.set(f, n);
    return n;
  }

  /** The mounted fiber of an id, or undefined (unmounted, never seen). */
  fiber(id: number): Fiber | undefined {
    const f = this.byId.get(id)?.deref();
    return (f && currentFiber(f)) || undefined;
  }

  private prune(): void {
    for (const [n, ref] of this.byId) {
      const f = ref.deref();
      if (!f || !currentFiber(f)) this.byId.delete(n);
    }
  }
}

const TEXT = /^(RCTText|RCTVirtualText)$/;
const INPUT = /TextInput/;
const SWITCH = /Switch$/;
const IMAGE = /^RCTImageView$|Image$/;
const SCROLL = /ScrollView$/;

/** A host element's own props, read safely. */
// biome-ignore lint/suspicious/noExplicitAny: the app's props
const propsOf = (f: Fiber): Record<string, any> =>
  f.memoizedProps && typeof f.memoizedProps === 'object' ? f.memoizedProps : {};

/** The composite props between a host fiber and its host parent (Pressable, TextInput, Switch): where onPress and onChangeText live. */
export function ownerProp(
  f: Fiber,
  name: string,
  far = false,
): { fiber: Fiber; fn: (...args: unknown[]) => unknown } | undefined {
  for (let at: Fiber | null = f; at; at = at.return) {
    if (at !== f && !far && (at.tag === Tag.Host || at.tag === Tag.HostRoot)) return undefined;
    const fn = propsOf(at)[name];
    if (typeof fn === 'function') return { fiber: at, fn };
  }
  return undefined;
}

/** All the text under a fiber (raw text of Text components), to `max` characters. */
export function textOf(f: Fiber, max = 600): string {
  let out = '';
  const visit = (x: Fiber, depth: number): void => {
    if (out.length >= max || depth > 200) return;
    if (x.tag === Tag.Text) {
      const t = x.memoizedProps;
      if (typeof t === 'string' || typeof t === 'number') out += String(t);
      return;
    }
    for (let c = x.child; c; c = c.sibling) visit(c, depth + 1);
  };
  visit(f, 0);
  return out.replace(/\s+/g, ' ').trim().slice(0, max);
}

const str = (v: unknown, max: number): string | undefined =>
  typeof v === 'string' && v !== '' ? v.slice(0, max) : typeof v === 'number' ? String(v) : undefined;

/** One host element as an outline node (without depth), or undefined when it says nothing of its own. */
export function hostNode(f: Fiber, ids: HostIds): Omit<UiNode, 'd'> | undefined {
  const type = typeof f.type === 'string' ? f.type : '';
  const p = propsOf(f);
  const a11y = (p.accessibilityState ?? {}) as Record<string, unknown>;
  const pressable =
    ownerProp(f, 'onPress') ?? (typeof p.onClick === 'function' ? { fiber: f, fn: p.onClick } : undefined);
  const given = str(p.role, 40) ?? str(p.accessibilityRole, 40);
  const label = str(p['aria-label'], 600) ?? str(p.accessibilityLabel, 600);
  const testId = str(p.testID, 200) ?? str(p.nativeID, 200);
  let role = given;
  let value: string | undefined;
  const states: string[] = [];
  let text: string | undefined;
  if (INPUT.test(type)) {
    role ??= 'textbox';
    value = str(p.value, 1200) ?? str(p.text, 1200) ?? str(p.defaultValue, 1200) ?? '';
    if (p.editable === false) states.push('readonly');
    if (p.secureTextEntry) value = value ? '•'.repeat(Math.min(value.length, 40)) : value;
  } else if (SWITCH.test(type)) {
    role ??= 'switch';
    states.push(p.value || p.on ? 'checked' : 'unchecked');
  } else if (TEXT.test(type)) {
    role ??= pressable ? 'link' : 'text';
    text = textOf(f) || undefined;
  } else if (IMAGE.test(type)) {
    role ??= label ? 'image' : undefined;
  } else if (SCROLL.test(type)) {
    role ??= 'scrollview';
  }
  if (!role && pressable) role = 'button';
  if (!role && (label || testId || p.accessible === true)) role = 'group';
  if (!role) return undefined;
  const flag = (state: string, v: unknown) => {
    if (v === true || v === 'true') states.push(state);
  };
  flag('disabled', a11y.disabled ?? p['aria-disabled'] ?? p.disabled);
  flag('selected', a11y.selected ?? p['aria-selected']);
  flag('busy', a11y.busy ?? p['aria-busy']);
  const checked = a11y.checked ?? p['aria-checked'];
  if (checked === true) states.push('checked');
  else if (checked === 'mixed') states.push('mixed');
  else if (checked === false && !states.includes('unchecked')) states.push('unchecked');
  const expanded = a11y.expanded ?? p['aria-expanded'];
  if (expanded !== undefined) states.push(expanded ? 'expanded' : 'collapsed');
  const node: Omit<UiNode, 'd'> = { id: ids.id(f), role };
  // A container is named by its label only (its text is in the lines below it).
  const named = role !== 'group' && role !== 'scrollview';
  const name =
    label ?? (role === 'textbox' ? str(p.placeholder, 600) : named ? (text ?? (textOf(f) || undefined)) : undefined);
  if (name) node.name = name;
  if (text && text !== name) node.text = text;
  if (value !== undefined) node.value = value;
  if (testId) node.testId = testId;
  if (states.length) node.states = [...new Set(states)].slice(0, 16);
  return node;
}

/** The whole outline under `starts`, depth-first, with the fiber of each node. */
export function outline(starts: Fiber[], ids: HostIds): { nodes: UiNode[]; fibers: Fiber[]; truncated: boolean } {
  const nodes: UiNode[] = [];
  const fibers: Fiber[] = [];
  let visited = 0;
  const visit = (x: Fiber, d: number): void => {
    if (++visited > MAX_FIBERS) return;
    // the hidden content of a suspended boundary
    if (x.tag === Tag.Offscreen && x.memoizedState != null) return;
    let below = d;
    if (x.tag === Tag.Host) {
      const node = hostNode(x, ids);
      if (node) {
        nodes.push({ d, ...node });
        fibers.push(x);
        below = d + 1;
        // a Text's text is in its node; an input's children are its own
        if (node.role === 'text' || node.role === 'link' || node.role === 'textbox') return;
      }
    } else if (x.tag === Tag.Text && x.return?.tag === Tag.HostRoot) {
      return;
    }
    for (let c = x.child; c; c = c.sibling) visit(c, below);
  };
  for (const start of starts) visit(start, 0);
  return { nodes, fibers, truncated: visited > MAX_FIBERS };
}
