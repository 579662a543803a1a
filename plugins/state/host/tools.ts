import { z } from 'zod';
import { definePluginTool, ToolArgumentError } from '../../../shared/tool.js';
import { ToolResult } from '../../../shared/tool-result.js';
import { plain } from '../plain.js';
import type { ActionView, ReadResult, StoreView } from '../protocol.js';
import type { StateHost } from './host-api.js';
import { type CompiledRules, redactAt, shown } from './values.js';

// The state_* tools. What an agent reads is plain JSON (values the app could not send as JSON keep a
// `{ $: kind }` tag) after the redaction rules; the window's tool runner gets the same.

const tool = definePluginTool<StateHost>();
// idempotentHint and destructiveHint mean something only for tools that change things (MCP's annotations).
const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
const store = z.string().optional().describe('Optional with one store');
const path = z.string().optional().describe('e.g. todos[0].title');
const offset = z.number().int().min(0).optional().describe('Skip items');
const MAX_CHARS = 20_000;

/** A store as a tool lists it: what is true, nothing empty. */
function storeLine(s: StoreView) {
  const can = Object.entries(s.can)
    .filter(([, yes]) => yes)
    .map(([k]) => k);
  return {
    name: s.name,
    id: s.id,
    library: s.library,
    active: s.active,
    actions: s.actions,
    latest: s.latest,
    ...(s.size !== undefined ? { bytes: s.size, ...(s.sizeAtLeast ? { bytesAtLeast: true } : {}) } : {}),
    can,
    ...(s.dropped ? { dropped: s.dropped } : {}),
    ...(s.creators ? { creators: s.creators } : {}),
    ...(s.closed ? { closed: true } : {}),
    ...(s.early ? { early: 'created before connect(): kept since its creation (up to maxAge)' } : {}),
    ...(s.note ? { note: s.note } : {}),
  };
}

/** An action as an agent reads it: its payload (the action without its type) and changes, redacted. */
export function actionLine(a: ActionView, rules: CompiledRules) {
  const action = plain(a.action) as Record<string, unknown> | undefined;
  const payload = action && typeof action === 'object' ? { ...action } : undefined;
  if (payload) delete payload.type;
  return {
    seq: a.seq,
    time: a.time,
    type: a.type,
    ...(a.kind !== 'action' ? { kind: a.kind } : {}),
    ...(payload && Object.keys(payload).length ? { payload: redactAt(payload, [], rules) } : {}),
    diff: a.diff.map((c) => ({
      path: c.path,
      ...('before' in c ? { before: redactAt(plain(c.before), c.path, rules) } : {}),
      ...('after' in c ? { after: redactAt(plain(c.after), c.path, rules) } : {}),
    })),
    ...(a.more ? { more: a.more } : {}),
    ...(a.cut ? { cut: true } : {}),
    ...(a.error ? { error: a.error } : {}),
  };
}

/** A read value for an agent: plain, redacted at its path, with how to page what was left out. */
function valueAnswer(read: ReadResult, rules: CompiledRules, retry: string) {
  const value = redactAt(plain(read.value), read.path, rules);
  const start = read.offset ?? 0;
  const left = read.size === undefined ? 0 : read.size - start - shown(read.value);
  return {
    path: read.path,
    value,
    ...(read.size !== undefined ? { size: read.size } : {}),
    ...(left > 0 ? { next: `${left} more: ${retry} with offset ${start + shown(read.value)}` } : {}),
  };
}

const QUERY_STATUSES = ['pending', 'error', 'success'] as const;

export const listStores = tool({
  name: 'state_list_stores',
  worksWhenDisconnected: true,
  title: 'List stores and queries',
  description:
    'Stores (Redux, Zustand, DevTools API): name, library, actions, size, abilities; or TanStack queries: key, status, age, error, observers.',
  input: z.object({
    queries: z.boolean().optional().describe('List the TanStack queries instead.'),
    key: z.string().optional().describe('queries: key JSON contains'),
    status: z.enum(QUERY_STATUSES).optional().describe('queries: only this status'),
    limit: z.number().int().min(1).max(500).default(50).describe('queries: most listed'),
  }),
  output: z.object({
    stores: z.array(z.unknown()).optional(),
    queryCount: z.number().optional().describe('TanStack queries the app has; queries: true lists them.'),
    queries: z.array(z.unknown()).optional(),
    total: z.number().optional(),
    hint: z.string().optional(),
    next: z.string().optional(),
  }),
  annotations: readOnly,
  handler: ({ queries, key, status, limit }, { instance }) => {
    if (queries || key !== undefined || status !== undefined) return listQueries(instance, { key, status, limit });
    const hint = instance.hint();
    return {
      stores: instance.stores().map(storeLine),
      queryCount: instance.data.queries.size,
      ...(hint ? { hint } : {}),
    };
  },
});

export const getState = tool({
  name: 'state_get',
  title: 'Read state',
  description: "A store's state now, or with query a TanStack query's state and data; or the part at a path.",
  input: z.object({
    store,
    query: z.unknown().optional().describe('A query key instead of a store, e.g. ["todos",1] (state_list_stores)'),
    path,
    offset,
  }),
  annotations: readOnly,
  async handler({ store: name, query, path: at = '', offset: skip = 0 }, { instance }) {
    if (query !== undefined) {
      if (name !== undefined) throw new ToolArgumentError('pass store or query, not both');
      if (!instance.active) throw new ToolArgumentError(`the app is not connected: ${instance.hint()}`);
      const read = await instance.read({ query, path: at, offset: skip, maxBytes: MAX_CHARS });
      return ToolResult.json({
        query: plain(read.query),
        ...valueAnswer(read, instance.compiledRules(), 'call again'),
      });
    }
    const s = instance.resolve(name);
    if (!s.active)
      throw new ToolArgumentError(
        `store "${s.name}" is gone from the app (${instance.hint() ?? 'it reloaded'}); list the live ones with state_list_stores`,
      );
    const read = await instance.read({ store: s.id, path: at, offset: skip, maxBytes: MAX_CHARS });
    return ToolResult.json({ store: s.name, ...valueAnswer(read, instance.compiledRules(), 'call again') });
  },
});

export const listActions = tool({
  name: 'state_list_actions',
  worksWhenDisconnected: true,
  title: 'List actions',
  description: "A store's actions: type, payload, diff (path, before, after). Default: newest 20.",
  input: z.object({
    store,
    since: z.number().int().optional().describe('After this seq'),
    before: z.number().int().optional().describe('Before this seq'),
    type: z.string().optional().describe('Type contains'),
    limit: z.number().int().min(1).max(200).default(20).describe('Per page.'),
  }),
  output: z.object({
    actions: z.array(z.unknown()),
    latest: z.number(),
    remaining: z.number(),
    next: z.string().optional(),
  }),
  annotations: readOnly,
  handler({ store: name, since, before, type, limit }, { instance }) {
    const s = instance.resolve(name);
    const needle = type?.toLowerCase();
    const all = instance.data
      .timeline(s.id)
      .filter(
        (a) =>
          (since === undefined || a.seq > since) &&
          (before === undefined || a.seq < before) &&
          (!needle || a.type.toLowerCase().includes(needle)),
      );
    const page = since === undefined ? all.slice(-limit) : all.slice(0, limit);
    const remaining = all.length - page.length;
    const rules = instance.compiledRules();
    const next =
      remaining === 0
        ? undefined
        : since === undefined
          ? `${remaining} earlier: call again with before ${page[0]!.seq}`
          : `${remaining} more: call again with since ${page.at(-1)!.seq}`;
    return {
      actions: page.map((a) => actionLine(a, rules)),
      latest: s.latest,
      remaining,
      ...(next ? { next } : {}),
    };
  },
});

const MODES = ['dispatch', 'set', 'jump', 'invalidate', 'refetch'] as const;

function describeDispatch({
  store: name,
  mode = 'dispatch',
  action,
}: {
  store?: string;
  mode?: string;
  action?: unknown;
}) {
  const target = name ? `store "${name}"` : 'the store';
  const json = JSON.stringify(action)?.slice(0, 300) ?? '';
  switch (mode) {
    case 'set':
      return `Sets ${json} in the state of ${target} in the app.`;
    case 'jump':
      return `Puts ${target} back to its state after action #${json} (time travel) in the app.`;
    case 'invalidate':
    case 'refetch':
      return `${mode === 'invalidate' ? 'Invalidates' : 'Refetches'} the TanStack queries ${action === undefined ? '(all of them)' : `under key ${json}`} in the app.`;
    default:
      return `Dispatches ${json} to ${target} in the app.`;
  }
}

export const dispatch = tool({
  name: 'state_dispatch',
  title: 'Change state',
  description: 'Dispatch an action, set top-level keys, jump back to an action, invalidate/refetch queries.',
  input: z.object({
    store,
    mode: z.enum(MODES).default('dispatch').describe('How to apply action.'),
    action: z
      .unknown()
      .optional()
      .describe('dispatch: {type,…}; set: {key: value}; jump: seq; invalidate/refetch: key prefix'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  defaultPermission: 'ask',
  describeChange: describeDispatch,
  async handler({ store: name, mode, action }, { instance, signal }) {
    const queries = mode === 'invalidate' || mode === 'refetch';
    if (!queries && action === undefined)
      throw new ToolArgumentError(`mode ${mode} needs action: ${describeDispatch({ mode, action: '…' })}`);
    if (mode === 'jump' && !Number.isInteger(action))
      throw new ToolArgumentError('jump takes the seq of an action (state_list_actions)');
    const s = queries ? undefined : instance.resolve(name);
    if (s && !s.active)
      throw new ToolArgumentError(`store "${s.name}" is gone from the app; list the live ones with state_list_stores`);
    const result = await instance.change({ store: s?.id, mode, value: action }, signal);
    const rules = instance.compiledRules();
    return ToolResult.json({
      ...(s ? { store: s.name } : {}),
      mode,
      actions: result.actions.map((a) => actionLine(a, rules)),
      ...(result.queries !== undefined ? { queries: result.queries } : {}),
      ...(result.note ? { note: result.note } : {}),
    });
  },
});

/** The TanStack queries, newest first, as state_list_stores { queries: true } lists them. */
function listQueries(
  instance: StateHost,
  { key, status, limit }: { key?: string; status?: (typeof QUERY_STATUSES)[number]; limit: number },
) {
  const now = Date.now();
  const all = [...instance.data.queries.values()]
    .filter((q) => (!key || q.hash.includes(key)) && (!status || q.status === status))
    .sort((a, b) => b.dataUpdatedAt - a.dataUpdatedAt);
  const page = all.slice(0, limit);
  const left = all.length - page.length;
  return {
    queries: page.map((q) => ({
      key: plain(q.key),
      status: q.status,
      fetchStatus: q.fetchStatus,
      ...(q.dataUpdatedAt ? { ageMs: Math.max(0, now - q.dataUpdatedAt) } : {}),
      ...(q.error ? { error: q.error } : {}),
      observers: q.observers,
      stale: q.stale,
      ...(q.invalidated ? { invalidated: true } : {}),
      ...(q.failures ? { failures: q.failures } : {}),
    })),
    total: all.length,
    ...(left > 0 ? { next: `${left} more: filter by key or status, or raise limit` } : {}),
  };
}

export const stateTools = [listStores, getState, listActions, dispatch];
