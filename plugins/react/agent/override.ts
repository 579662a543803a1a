import type { Fiber } from '../../../agent/react/fiber.js';
import { Tag } from '../../../agent/react/fiber.js';
import { hooksOf } from '../../../agent/react/fiber-details.js';
import type { ReactHookState, ReactRenderer } from '../../../agent/react/hook.js';
import { RequestError } from '../../../shared/protocol/request-error.js';
import type { InspectParams } from '../protocol.js';

type Path = string[];

/** What React's development renderers offer React DevTools for editing (null in production builds). */
interface Overrides extends ReactRenderer {
  overrideProps?: ((fiber: Fiber, path: Path, value: unknown) => void) | null;
  overrideHookState?: ((fiber: Fiber, id: number, path: Path, value: unknown) => void) | null;
}

/** Hook kinds React DevTools lets one edit: the ones holding state. */
const EDITABLE_HOOKS = new Set(['state', 'reducer']);

const refuse = (message: string) => new RequestError('handler-error', message);

/**
 * Writes a prop, a class component's state or a state hook the way React DevTools does, through
 * the renderer that owns the component (`overrideProps`, `overrideHookState`; `setState` for a
 * class), so React re-renders it as after any update. Development builds only.
 */
export function override(hook: ReactHookState, f: Fiber, set: NonNullable<InspectParams['set']>): void {
  const [where, ...path] = set.path;
  if (where === 'state' && f.tag === Tag.Class) {
    const instance = f.stateNode as { setState?(u: (prev: unknown) => unknown): void } | null;
    const [key, ...inner] = path;
    if (typeof instance?.setState !== 'function' || key === undefined) {
      throw refuse('give the state key to write: path ["state", "<key>", …]');
    }
    instance.setState((prev) => ({ [key]: copyWithSet((prev as Record<string, unknown>)?.[key], inner, set.value) }));
    return;
  }
  const renderer = rendererOf(hook, f);
  if (where === 'props') {
    if (!path.length) throw refuse('give the prop to write: path ["props", "<name>", …]');
    if (typeof renderer.overrideProps !== 'function') throw refuse(NO_OVERRIDES);
    renderer.overrideProps(f, path, set.value);
    return;
  }
  if (where === 'hooks') {
    const [index, ...inner] = path;
    const hooks = hooksOf(f);
    const target = index !== undefined && /^\d+$/.test(index) ? hooks[Number(index)] : undefined;
    if (!target || target.at === undefined) {
      throw refuse(`no hook #${String(index)}: the component has ${hooks.length} (react_inspect lists them)`);
    }
    if (!EDITABLE_HOOKS.has(target.kind)) {
      throw refuse(`hook #${index} is a ${target.kind} hook: only state and reducer hooks can be written`);
    }
    if (typeof renderer.overrideHookState !== 'function') throw refuse(NO_OVERRIDES);
    renderer.overrideHookState(f, target.at, inner, set.value);
    return;
  }
  throw refuse(
    where === 'state'
      ? 'only a class component has state of its own: a function component\'s is in its hooks, path ["hooks", i, …]'
      : 'the path starts with "props", "state" or "hooks"',
  );
}

const NO_OVERRIDES =
  "this React offers no overrides (a production build): run the app's development build to write props and state";

/** The renderer whose root holds the fiber (React DevTools keeps one per root too). */
function rendererOf(hook: ReactHookState, f: Fiber): Overrides {
  let top = f;
  for (let i = 0; top.return && i < 10_000; i++) top = top.return;
  const id = top.tag === Tag.HostRoot ? hook.roots.get(top.stateNode) : undefined;
  const renderer = id
    ? hook.renderers.get(id)
    : hook.renderers.size === 1
      ? [...hook.renderers.values()][0]
      : undefined;
  if (!renderer) {
    throw refuse(
      "React did not register with Porthole's hook (it loaded first), so it cannot be asked to re-render: import '@porthole/agent/react/register' first, then reload",
    );
  }
  return renderer as Overrides;
}

/** A copy of `obj` with the value at `path` replaced (arrays stay arrays), as React DevTools' copyWithSet. */
function copyWithSet(obj: unknown, path: Path, value: unknown): unknown {
  if (!path.length) return value;
  const [key, ...rest] = path;
  const copy = (Array.isArray(obj) ? [...obj] : { ...(obj as object) }) as Record<string, unknown>;
  copy[key!] = copyWithSet((obj as Record<string, unknown> | null)?.[key!], rest, value);
  return copy;
}
