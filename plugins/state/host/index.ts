import { definePlugin, type HostPluginContext } from '../../../shared/host-plugin.js';
import { type TimelineEntry, timelinePage, timelineSummary } from '../../../shared/timeline.js';
import { ToolArgumentError } from '../../../shared/tool.js';
import { executeTool, parseToolArguments } from '../../../shared/tool-runner.js';
import { describeIssues } from '../../../shared/zod-issues.js';
import {
  type ActionView,
  type Batch,
  type ChangeRequest,
  DEFAULT_RULES,
  type Read,
  type RedactionRules,
  RedactionRulesSchema,
  type StateProtocol,
  stateProtocol,
} from '../protocol.js';
import { StateData } from './data.js';
import type { StateHost } from './host-api.js';
import { getState, stateTools } from './tools.js';
import { type CompiledRules, compileRules } from './values.js';

export type { StateHost } from './host-api.js';

const RULES_KEY = 'redaction-rules';
/** How long a change waits for the actions it made to arrive from the app. */
const SETTLE_MS = 2000;

export const NO_STORES_HINT =
  'No store has connected. A store shows up when it is created after the state plugin loaded: import ' +
  "@porthole/agent/state (or the file that calls connect()) before the module that creates your store — Redux Toolkit reads the devtools API when it loads, so import it before @reduxjs/toolkit too. A store created earlier cannot be seen: move the import and reload the app. Stores must use Redux DevTools: Redux Toolkit's configureStore (devTools left on), Zustand's devtools() middleware, or the extension API's connect().";

export function createStateHost(ctx: HostPluginContext<StateProtocol>): StateHost {
  const data = new StateData(ctx.records);
  let rules: RedactionRules | undefined;
  let compiled: CompiledRules | undefined;
  const waiters = new Set<() => void>();

  const readRules = (): RedactionRules => {
    if (rules) return rules;
    const stored = ctx.store.read<unknown>(RULES_KEY);
    const parsed = stored === undefined ? undefined : RedactionRulesSchema.safeParse(stored);
    if (parsed && !parsed.success) {
      const backup = ctx.store.backup(RULES_KEY, 'invalid');
      console.warn(
        `[porthole] state: the redaction rules were invalid (${describeIssues(parsed.error)}); the defaults apply${backup ? `, the bad file is kept at ${backup}` : ''}`,
      );
    }
    rules = parsed?.success ? parsed.data : DEFAULT_RULES;
    return rules;
  };

  const emitStores = () => ctx.emit('stores', { stores: host.stores() });

  const ingest = (batch: Batch) => {
    const changed = data.ingest(batch);
    if (changed.stores) emitStores();
    if (changed.actions.length) ctx.emit('actions', { actions: changed.actions });
    if (changed.queries.length || changed.removed.length) {
      ctx.emit('queries', { queries: changed.queries, removed: changed.removed });
    }
    for (const wake of waiters) wake();
  };

  /** Resolves when `done()` holds, or after `ms`. */
  const settle = (done: () => boolean, ms: number) =>
    new Promise<void>((resolve) => {
      if (done()) return resolve();
      const timer = setTimeout(finish, ms);
      function finish() {
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      }
      function check() {
        if (done()) finish();
      }
      waiters.add(check);
    });

  const host: StateHost = {
    data,
    get active() {
      return ctx.active;
    },
    stores: () => data.stores(ctx.active),
    resolve(name) {
      const all = host.stores();
      const live = all.filter((s) => s.active);
      const names = () =>
        all.length ? all.map((s) => `"${s.name}"${s.active ? '' : ' (gone)'}`).join(', ') : 'none has connected';
      if (name === undefined) {
        const only = live.length === 1 ? live[0] : live.length === 0 && all.length === 1 ? all[0] : undefined;
        if (only) return only;
        throw new ToolArgumentError(
          all.length ? `name the store: the app has ${names()}` : `no store to read: ${host.hint()}`,
        );
      }
      const found =
        all.find((s) => s.id === name) ??
        live.find((s) => s.name === name) ??
        all.find((s) => s.name === name) ??
        live.find((s) => s.name.toLowerCase() === name.toLowerCase());
      if (!found)
        throw new ToolArgumentError(`no store "${name}": the app has ${names()}; list them with state_list_stores`);
      return found;
    },
    hint() {
      if (!ctx.active)
        return 'The app is not connected: what it sent before is listed; reading and changing state need it connected.';
      return host.stores().some((s) => s.active) ? undefined : NO_STORES_HINT;
    },
    rules: readRules,
    compiledRules: () => (compiled ??= compileRules(readRules())),
    setRules(next) {
      const parsed = RedactionRulesSchema.safeParse(next);
      if (!parsed.success) throw new ToolArgumentError(`invalid redaction rules: ${describeIssues(parsed.error)}`);
      ctx.store.write(RULES_KEY, parsed.data);
      rules = parsed.data;
      compiled = undefined;
      ctx.emit('rules', parsed.data);
      return parsed.data;
    },
    read: (params: Read, signal?: AbortSignal) => ctx.request('read', params, { signal, timeoutMs: 10_000 }),
    async change(request: ChangeRequest, signal?: AbortSignal) {
      const result = await ctx.request('change', request, { signal });
      const { from, to } = result;
      let actions: ActionView[] = [];
      if (request.store && from !== undefined && to !== undefined) {
        const store = request.store;
        const arrived = () => data.actions.has(`${store}\n${to}`);
        await settle(arrived, SETTLE_MS);
        actions = data.timeline(store).filter((a) => a.seq >= from && a.seq <= to);
      }
      return { ...result, actions };
    },
    notifications: { batch: ingest },
    timeline: (query) => {
      const names = new Map(host.stores().map((store) => [store.id, store.name]));
      return timelinePage(
        [...data.actions.values()],
        (a) => a.time,
        (a) => actionEntry(a, names),
        query,
      );
    },
    onConnect: () => emitStores(),
    onDisconnect: () => emitStores(),
    panel: {
      stores: () => ({ stores: host.stores(), queries: data.queries.size, hint: host.hint() }),
      actions: ({ store, afterSeq, limit }) => {
        const all = data.timeline(store).filter((a) => afterSeq === undefined || a.seq > afterSeq);
        return { actions: all.slice(-limit), hasMore: all.length > limit };
      },
      read: (params, signal) => host.read(params, signal),
      change: async (params, signal) => {
        const { actions: _actions, ...result } = await host.change(params, signal);
        return result;
      },
      queries: () => ({ queries: [...data.queries.values()] }),
      agentView: async (params, signal) => {
        const tool = getState;
        const args =
          params.query !== undefined
            ? { query: params.query, path: params.path || undefined }
            : { store: params.store, path: params.path || undefined };
        const parsed = parseToolArguments(tool.name, tool.input, args);
        if (!parsed.ok) throw new Error(parsed.message);
        const outcome = await executeTool(tool, parsed.args, {
          surface: 'mcp-http',
          signal,
          instance: host,
          session: ctx.session(),
        });
        const result = outcome.result.structuredContent;
        if (!result) throw new Error(`${tool.name} did not answer: ${outcome.result.textContent}`);
        return { rules: readRules(), result };
      },
      rules: () => readRules(),
      setRules: (next) => host.setRules(next),
    },
  };
  return host;
}

export default definePlugin({
  protocol: stateProtocol,
  title: 'State',
  create: createStateHost,
  tools: stateTools,
});

/** A store's action on the session's timeline: `state_list_actions` finds it by store and seq (`ref` is `store:seq`). */
function actionEntry(a: ActionView, names: ReadonlyMap<string, string>): TimelineEntry | undefined {
  if (a.kind === 'init') return undefined;
  const changed = a.diff.length + (a.more ?? 0);
  const what = a.error ? `threw: ${a.error}` : `${changed} change${changed === 1 ? '' : 's'}`;
  return {
    time: a.time,
    plugin: 'state',
    kind: a.kind,
    level: a.error ? 'error' : 'info',
    ref: `${a.store}:${a.seq}`,
    summary: timelineSummary(`${names.get(a.store) ?? a.store}: ${a.type} (${what})`),
  };
}
