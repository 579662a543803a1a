import type { Fiber } from '../../../../agent/react/fiber.js';
import { installReactHook, type ReactHookListener } from '../../../../agent/react/hook.js';
import { RequestError } from '../../../../shared/protocol/request-error.js';
import type { ActParams, ActResult, Change, SnapshotParams, SnapshotResult, Target, UiNode } from '../../protocol.js';
import type { UiSource } from '../source.js';
import { HostIds, outline, ownerProp } from './host-tree.js';

// React Native's UI as the ui plugin's source, read from React's host components through the
// React DevTools hook (agent/react/hook.ts; the app loads `@porthole/agent/react/register` or the
// react plugin before React Native's renderer). Acting calls what a touch or the keyboard would
// reach: `onPress` of the nearest pressable, `onChangeText`/`onChange` of a TextInput, `onValueChange`
// of a Switch, `onSubmitEditing` on submit or Enter.

const MAX_CHANGES = 200;
/** How long an act waits for React to commit what its handler set off. */
const COMMIT_WAIT_MS = 500;

const stale = () =>
  new RequestError(
    'handler-error',
    'the element is no longer on screen (it unmounted or re-rendered): take a new snapshot',
  );

export function reactNativeSource(): UiSource {
  const hook = installReactHook();
  const ids = new HostIds();
  let last: UiNode[] = [];
  let commits = 0;
  let watcher: ReactHookListener | undefined;
  const counter: ReactHookListener = { commit: () => void commits++ };
  hook.listeners.add(counter);

  const roots = (): Fiber[] => {
    if (hook.roots.size === 0) {
      throw new RequestError(
        'handler-error',
        hook.renderers.size === 0
          ? "React Native's renderer has not reported to React DevTools' hook: import '@porthole/agent/react/register' before react-native loads (docs/react-native.md), then reload the app"
          : 'no React root is mounted yet (the app has not rendered): wait for it with ui_wait_for, then take a snapshot',
      );
    }
    return [...hook.roots.keys()].map((r) => r.current);
  };
  const all = () => outline(roots(), ids);
  const fiberOf = (target: Target | undefined): Fiber => {
    if (target?.id !== undefined) return ids.fiber(target.id) ?? throwStale();
    if (target?.role) {
      const { nodes, fibers } = all();
      const i = nodes.findIndex((n) => n.role === target.role && (target.name === undefined || n.name === target.name));
      if (i < 0) {
        throw new RequestError(
          'handler-error',
          `no ${target.role}${target.name !== undefined ? ` named ${JSON.stringify(target.name)}` : ''} on screen now: take a new snapshot`,
        );
      }
      return fibers[i]!;
    }
    throw new RequestError('handler-error', 'say which element: a ref from ui_snapshot');
  };

  /** Resolves after React committed (or after COMMIT_WAIT_MS when the act changed nothing). */
  const committed = async (since: number) => {
    const end = Date.now() + COMMIT_WAIT_MS;
    await tick();
    while (commits === since && Date.now() < end) await sleep(10);
    await tick();
  };

  const snapshot = (params: SnapshotParams): SnapshotResult => {
    const started = now();
    let { nodes } = all();
    if (params.root !== undefined) {
      const root = ids.fiber(params.root) ?? throwStale();
      const rootId = ids.id(root);
      const at = nodes.findIndex((n) => n.id === rootId);
      if (at < 0) nodes = outline([root], ids).nodes;
      else {
        const end = nodes.findIndex((n, i) => i > at && n.d <= nodes[at]!.d);
        const base = nodes[at]!.d;
        nodes = nodes.slice(at, end < 0 ? undefined : end).map((n) => ({ ...n, d: n.d - base }));
      }
    }
    let matches: number | undefined;
    if (params.text) {
      const needle = params.text.toLowerCase();
      const hit = (n: UiNode) => [n.name, n.value, n.text, n.testId].some((v) => v?.toLowerCase().includes(needle));
      const keep = new Set<number>();
      const path: number[] = [];
      matches = 0;
      let inside = -1;
      nodes.forEach((n, i) => {
        path.length = n.d;
        path[n.d] = i;
        if (inside >= 0 && n.d <= nodes[inside]!.d) inside = -1;
        if (inside >= 0) keep.add(i);
        else if (hit(n)) {
          matches!++;
          for (const p of path) keep.add(p);
          inside = i;
        }
      });
      nodes = nodes.filter((_, i) => keep.has(i));
    }
    const shown: UiNode[] = [];
    let chars = 0;
    let more = 0;
    for (const n of nodes) {
      if (params.depth !== undefined && n.d > params.depth) continue;
      const size = JSON.stringify(n).length;
      if (shown.length >= params.limit || chars + size > params.maxChars) {
        more++;
        continue;
      }
      chars += size;
      shown.push(n);
    }
    return { page: page(), nodes: shown, more, matches, ms: now() - started };
  };

  return {
    page,
    snapshot,
    async act(params: ActParams): Promise<ActResult> {
      const f = fiberOf(params.target);
      const before = all().nodes;
      const startedAt = Date.now();
      const started = now();
      const since = commits;
      let note: string | undefined;
      const refuse = (reason: string): ActResult => ({
        refused: { reason },
        startedAt,
        urlBefore: '',
        url: '',
        changes: [],
        moreChanges: 0,
        dialogs: [],
      });
      const call = (fn: (...args: unknown[]) => unknown, ...args: unknown[]) => {
        try {
          const r = fn(...args);
          if (r && typeof (r as Promise<unknown>).then === 'function')
            (r as Promise<unknown>).then(undefined, () => {});
        } catch (e) {
          note = `the app's handler threw: ${String((e as Error)?.message ?? e).slice(0, 400)}`;
        }
      };
      const event = (extra: Record<string, unknown> = {}) => pressEvent(f, extra);
      switch (params.action) {
        case 'click': {
          const press = ownerProp(f, 'onPress', true) ?? ownerProp(f, 'onClick', true);
          if (!press)
            return refuse('nothing here or above it handles a press (no onPress): pick a button from ui_snapshot');
          if (disabled(press.fiber) || disabled(f)) return refuse('the element is disabled');
          ownerProp(f, 'onPressIn', true)?.fn(event());
          call(press.fn, event());
          ownerProp(f, 'onPressOut', true)?.fn(event());
          break;
        }
        case 'fill': {
          if (typeof params.value !== 'string') return refuse('fill needs a text value');
          const change = ownerProp(f, 'onChangeText', true);
          const raw = ownerProp(f, 'onChange', true);
          if (!change && !raw)
            return refuse('not a text field (no onChangeText or onChange): pick a textbox from ui_snapshot');
          if (raw) call(raw.fn, event({ text: params.value, eventCount: 1 }));
          if (change) call(change.fn, params.value);
          if (params.submit) {
            const submit = ownerProp(f, 'onSubmitEditing', true);
            if (submit) call(submit.fn, event({ text: params.value }));
          }
          break;
        }
        case 'press': {
          const key = typeof params.value === 'string' ? params.value : 'Enter';
          const onKey = ownerProp(f, 'onKeyPress', true);
          if (onKey) call(onKey.fn, event({ key }));
          const submit = key === 'Enter' ? ownerProp(f, 'onSubmitEditing', true) : undefined;
          if (submit) call(submit.fn, event({ text: String(propsOf(f).value ?? '') }));
          if (!onKey && !submit)
            return refuse(`nothing here handles the key ${key} (no onKeyPress or onSubmitEditing)`);
          break;
        }
        case 'check':
        case 'uncheck': {
          const on = params.action === 'check';
          const toggle = ownerProp(f, 'onValueChange', true);
          if (toggle) call(toggle.fn, on);
          else {
            const press = ownerProp(f, 'onPress', true);
            if (!press) return refuse('not a switch or checkbox (no onValueChange or onPress)');
            call(press.fn, event());
          }
          break;
        }
        case 'focus': {
          const focus = ownerProp(f, 'onFocus', true);
          if (!focus) return refuse('nothing here handles focus (no onFocus)');
          call(focus.fn, event());
          break;
        }
        default:
          return refuse(
            `${params.action} is not available in React Native yet (click, fill, press, check, uncheck and focus are)`,
          );
      }
      await committed(since);
      const after = all();
      last = after.nodes;
      const { changes, more } = diff(before, after.nodes);
      const id = ids.id(f);
      const target = after.nodes.find((n) => n.id === id);
      return {
        startedAt,
        target,
        urlBefore: '',
        url: '',
        changes,
        moreChanges: more,
        dialogs: [],
        note,
        ms: now() - started,
      };
    },
    async settle() {
      const nodes = all().nodes;
      const { changes, more } = diff(last, nodes);
      last = nodes;
      return { changes, moreChanges: more, dialogs: [], url: '' };
    },
    hold() {},
    async waitFor(params, signal) {
      const started = now();
      const end = Date.now() + params.timeoutMs;
      for (;;) {
        let nodes: UiNode[] = [];
        try {
          nodes = all().nodes;
        } catch {
          // nothing rendered yet: nothing found
        }
        const needle = params.text?.toLowerCase();
        const node =
          params.target?.id !== undefined
            ? nodes.find((n) => n.id === params.target!.id)
            : needle
              ? nodes.find((n) => [n.name, n.value, n.text].some((v) => v?.toLowerCase().includes(needle)))
              : undefined;
        if (params.gone ? !node : node) return { met: true, ms: now() - started, node: params.gone ? undefined : node };
        if (Date.now() >= end || signal.aborted) {
          const seen = nodes
            .slice(0, 40)
            .map((n) => `${'  '.repeat(n.d)}${n.role}${n.name ? ` ${JSON.stringify(n.name)}` : ''}`)
            .join('\n');
          return { met: false, ms: now() - started, seen: seen.slice(0, 4000) };
        }
        await sleep(50);
      }
    },
    async screenshot() {
      throw new RequestError(
        'handler-error',
        "React Native draws no DOM to capture: give ui({ screenshot }) a function, e.g. react-native-view-shot's captureScreen (docs/react-native.md)",
      );
    },
    highlight() {},
    watch(changed) {
      if (watcher) hook.listeners.delete(watcher);
      watcher = undefined;
      if (!changed) return;
      let pending: ReturnType<typeof setTimeout> | undefined;
      watcher = {
        commit: () => {
          if (pending !== undefined) return;
          pending = setTimeout(() => {
            pending = undefined;
            changed();
          }, 300);
        },
      };
      hook.listeners.add(watcher);
    },
  };
}

function page() {
  return { url: '', title: '', readyState: 'complete' as const };
}

/** The lines added, removed and changed between two outlines (matched by id). */
function diff(before: UiNode[], after: UiNode[]): { changes: Change[]; more: number } {
  const old = new Map(before.map((n) => [n.id, n]));
  const seen = new Set<number | undefined>();
  const changes: Change[] = [];
  let more = 0;
  const push = (c: Change) => (changes.length < MAX_CHANGES ? changes.push(c) : more++);
  for (const n of after) {
    seen.add(n.id);
    const was = old.get(n.id);
    if (!was) push({ op: '+', ...n });
    else if (JSON.stringify({ ...was, d: 0 }) !== JSON.stringify({ ...n, d: 0 })) push({ op: '~', ...n });
  }
  for (const n of before) if (!seen.has(n.id)) push({ op: '-', ...n });
  return { changes, more };
}

// biome-ignore lint/suspicious/noExplicitAny: the app's props
const propsOf = (f: Fiber): Record<string, any> =>
  f.memoizedProps && typeof f.memoizedProps === 'object' ? f.memoizedProps : {};

function disabled(f: Fiber): boolean {
  const p = propsOf(f);
  return p.disabled === true || p.accessibilityState?.disabled === true || p['aria-disabled'] === true;
}

/** What a press or text event of React Native carries (the fields handlers read). */
function pressEvent(f: Fiber, extra: Record<string, unknown>) {
  const timestamp = Date.now();
  const nativeEvent = {
    target: f.stateNode?.canonical?.nativeTag ?? f.stateNode?._nativeTag,
    timestamp,
    pageX: 0,
    pageY: 0,
    locationX: 0,
    locationY: 0,
    identifier: 0,
    touches: [],
    changedTouches: [],
    ...extra,
  };
  let prevented = false;
  return {
    nativeEvent,
    type: 'press',
    timeStamp: timestamp,
    target: nativeEvent.target,
    currentTarget: nativeEvent.target,
    persist() {},
    preventDefault() {
      prevented = true;
    },
    isDefaultPrevented: () => prevented,
    stopPropagation() {},
    isPropagationStopped: () => false,
  };
}

function throwStale(): never {
  throw stale();
}

const now = () => (globalThis.performance?.now ? globalThis.performance.now() : Date.now());
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
