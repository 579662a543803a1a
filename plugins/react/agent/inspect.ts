import { currentFiber, type Fiber, fiberName, isComponent, isHost, isShown, Tag } from '../../../agent/react/fiber.js';
import {
  contextsOf,
  fiberBadge,
  hooksOf,
  hostNodes,
  ownersOf,
  type SourcePlace,
  sourceOf,
} from '../../../agent/react/fiber-details.js';
import { Serializer } from '../../../agent/serialize.js';
import { RequestError } from '../../../shared/protocol/request-error.js';
import type { SerializedValue } from '../../../shared/serialized-value.js';
import type { InspectParams, InspectResult } from '../protocol.js';
import { highlight } from './highlight.js';
import type { FiberIds } from './ids.js';

const KINDS: Record<number, string> = {
  [Tag.Function]: 'function',
  [Tag.Class]: 'class',
  [Tag.ForwardRef]: 'forwardRef',
  [Tag.SimpleMemo]: 'memo',
  [Tag.Memo]: 'memo',
  [Tag.Provider]: 'context provider',
  [Tag.Consumer]: 'context consumer',
  [Tag.Suspense]: 'suspense',
  [Tag.HostRoot]: 'root',
  [Tag.Profiler]: 'profiler',
};

// Each part of the answer gets its own byte budget, so a huge prop leaves room for the hooks.
const limits = (maxBytes: number) => ({ depth: 6, maxString: 2000, maxItems: 100, maxBytes });

/** React elements inside values are shown as `<Name key="…">`, not as their (fiber-laden) objects. */
function element(x: object): SerializedValue | undefined {
  const el = x as { $$typeof?: unknown; type?: unknown; key?: unknown };
  if (typeof el.$$typeof !== 'symbol' || !('props' in x)) return undefined;
  const name = fiberName({ tag: -1, type: el.type } as Fiber);
  return { $: 'node', v: `<${name}${el.key != null ? ` key="${String(el.key)}"` : ''}>`, nodeType: 0 };
}

const place = (p: SourcePlace) => `${p.file}:${p.line}:${p.column}`;

/** One component in full: props, state, hooks, contexts, owners, source; found by id or name. */
export function inspect(starts: Fiber[], ids: FiberIds, p: InspectParams, notes: string[]): InspectResult {
  let f: Fiber;
  let others: { id: string; name: string }[] | undefined;
  if (p.id) f = ids.resolve(p.id);
  else if (p.name) {
    const found = findByName(starts, p.name, 21);
    if (!found.length) {
      throw new RequestError('handler-error', `no mounted component is named "${p.name}": list them with react_tree`);
    }
    f = found[0]!;
    if (found.length > 1) others = found.slice(1).map((o) => ({ id: ids.id(o), name: p.name! }));
  } else throw new RequestError('handler-error', 'give the id (from react_tree) or the name of a component');

  const info = ids.info(f);
  const values = new Serializer(limits(10_000), element);
  const out: InspectResult = {
    id: ids.format(info),
    name: info.name,
    kind: KINDS[f.tag] ?? (isHost(f) ? 'host' : `tag ${f.tag}`),
    renders: info.renders,
    props:
      f.memoizedProps && typeof f.memoizedProps === 'object' && f.tag !== Tag.HostRoot
        ? members(f.memoizedProps, values)
        : {},
    owners: ownersOf(f).map((o) => {
      const owner = 'tag' in o ? currentFiber(o as Fiber) : null;
      return owner
        ? { id: ids.id(owner), name: fiberName(owner) }
        : { name: String((o as { name?: unknown }).name ?? '?') };
    }),
  };
  if (f.key != null) out.key = String(f.key);
  const badge = fiberBadge(f);
  if (badge === 'suspended') notes.push('suspended: showing its fallback');
  const state = new Serializer(limits(10_000), element);
  if (f.tag === Tag.Class) {
    const s = f.memoizedState;
    out.state = s && typeof s === 'object' && !Array.isArray(s) ? members(s, state) : state.value(s);
  }
  if (isComponent(f)) {
    out.hooks = hooksOf(f).map((h) => {
      const hook: NonNullable<InspectResult['hooks']>[number] = { kind: h.kind };
      if ('value' in h) hook.value = state.value(h.value);
      if (h.deps !== undefined) hook.deps = state.value(h.deps);
      return hook;
    });
    if (!out.hooks.length) delete out.hooks;
  }
  const contexts = new Serializer(limits(4_000), element);
  const ctx = contextsOf(f).map(({ name, value }) => ({ name, value: contexts.value(value) }));
  if (ctx.length) out.contexts = ctx;
  const source = sourceOf(f);
  if (source) {
    out.source = place(source.at);
    if (source.stack) out.stack = source.stack.map((s) => (s.fn ? `${s.fn} (${place(s)})` : place(s)));
  }
  const hosts = hostNodes(f, 20);
  const shown = hosts.map(describeHost).filter((s): s is string => !!s);
  if (shown.length) out.hosts = shown.slice(0, 5);
  if (p.highlight) out.highlighted = highlight(hosts, info.name);
  if (others) out.others = others;
  if (notes.length) out.notes = notes;
  return out;
}

/** An object's members as a record (not a tagged object): props, a class's state. */
function members(x: object, values: Serializer): Record<string, SerializedValue> {
  const v = values.value(x);
  if (typeof v !== 'object' || v === null || !('$' in v) || v.$ !== 'object') return { value: v };
  return v.more ? { ...v.props, '…': `${v.more} more` } : v.props;
}

function findByName(starts: Fiber[], name: string, max: number): Fiber[] {
  const found: Fiber[] = [];
  const stack = [...starts].reverse();
  for (let n = 0; stack.length && found.length < max && n < 250_000; n++) {
    const f = stack.pop()!;
    if (!(f.tag === Tag.Offscreen && f.memoizedState != null)) {
      if (isShown(f, true) && fiberName(f) === name) found.push(f);
      const kids: Fiber[] = [];
      for (let c = f.child; c; c = c.sibling) kids.push(c);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
  }
  return found;
}

/** A host instance in a line: `<button id="buy">` for DOM nodes, the view's name for native ones. */
function describeHost(x: unknown): string | undefined {
  const el = x as { nodeType?: number; localName?: string; id?: string; className?: unknown; data?: string };
  if (el?.nodeType === 1 && el.localName) {
    const cls = typeof el.className === 'string' && el.className ? ` class="${el.className.slice(0, 80)}"` : '';
    return `<${el.localName}${el.id ? ` id="${el.id.slice(0, 80)}"` : ''}${cls}>`;
  }
  if (el?.nodeType === 3) return `"${String(el.data).slice(0, 80)}"`;
  return undefined;
}
