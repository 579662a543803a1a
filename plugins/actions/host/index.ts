import { z } from 'zod';
import { definePlugin, type HostPluginContext, type HostPluginInstance } from '../../../shared/host-plugin.js';
import { RequestError } from '../../../shared/protocol/messenger.js';
import { plainSerialized, type SerializedValue } from '../../../shared/serialized-value.js';
import { definePluginTool, ToolArgumentError, ToolError } from '../../../shared/tool.js';
import { ToolResult } from '../../../shared/tool-result.js';
import { describeRequestError } from '../../../shared/tool-runner.js';
import { describeIssues } from '../../../shared/zod-issues.js';
import { type ActionInfo, type ActionsProtocol, type ActionView, actionsProtocol } from '../protocol.js';

const RUN_TIMEOUT_MS = 30_000;

/** One per session: the actions the app declared, with their argument checks. */
export interface ActionsHost extends HostPluginInstance<ActionsProtocol> {
  list(): ActionView[];
  get(name: string): ActionInfo | undefined;
  /** Why `args` cannot go to the action (unknown action, arguments its schema refuses), or undefined. */
  refusal(name: string, args: Record<string, unknown>): ToolError | undefined;
  /** Checks `args` against the action's schema, runs it in the app; its value as plain JSON where it is plain. */
  run(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<{ value: unknown; ms: number }>;
}

interface Declared {
  info: ActionInfo;
  /** The arguments' schema, or why it cannot be checked. */
  check: z.ZodType | string;
}

export function createActionsHost(ctx: HostPluginContext<ActionsProtocol>): ActionsHost {
  let actions = new Map<string, Declared>();
  const view = (d: Declared): ActionView => (typeof d.check === 'string' ? { ...d.info, problem: d.check } : d.info);
  const list = () => [...actions.values()].map(view);

  const checked = (name: string, args: Record<string, unknown>): ToolError | { args: Record<string, never> } => {
    const action = actions.get(name);
    if (!action) {
      return new ToolArgumentError(
        `the app has no action "${name}"; ${actions.size ? `its actions: ${[...actions.keys()].join(', ')}` : 'it declares none'} (actions_list)`,
      );
    }
    if (typeof action.check === 'string') return new ToolError(`the action "${name}" cannot run: ${action.check}`);
    const parsed = action.check.safeParse(args);
    if (!parsed.success) {
      return new ToolArgumentError(
        `invalid args for the action "${name}": ${describeIssues(parsed.error)}. Its params schema is in actions_list`,
      );
    }
    return { args: parsed.data as Record<string, never> };
  };

  const run = async (name: string, args: Record<string, unknown>, signal?: AbortSignal) => {
    const ok = checked(name, args);
    if (ok instanceof ToolError) throw ok;
    let result: Awaited<ReturnType<typeof ctx.request<'run'>>>;
    try {
      result = await ctx.request('run', { name, args: ok.args }, { signal, timeoutMs: RUN_TIMEOUT_MS });
    } catch (e) {
      if (e instanceof RequestError && e.code === 'cancelled') throw e;
      throw new ToolError(
        `the action "${name}" did not run: ${e instanceof RequestError ? describeRequestError(e, ctx.sessionId) : (e as Error).message}`,
      );
    }
    if (result.thrown !== undefined) {
      const thrown = result.thrown as SerializedValue;
      const text =
        thrown && typeof thrown === 'object' && '$' in thrown && thrown.$ === 'error'
          ? `${thrown.name}: ${thrown.message}`
          : JSON.stringify(plainSerialized(thrown));
      throw new ToolError(`the action "${name}" failed in the app: ${text}`);
    }
    return { value: plainSerialized((result.value ?? { $: 'undefined' }) as SerializedValue), ms: result.ms };
  };

  return {
    notifications: {
      declared({ actions: declared }) {
        actions = new Map(declared.map((info) => [info.name, { info, check: argsSchema(info) }]));
        ctx.emit('declared', { actions: list() });
      },
    },
    panel: {
      list: () => ({ actions: list() }),
      run: async ({ name, args }, signal) => {
        try {
          return await run(name, args, signal);
        } catch (e) {
          return { error: (e as Error).message, ms: 0 };
        }
      },
    },
    list,
    get: (name) => actions.get(name)?.info,
    refusal: (name, args) => {
      const ok = checked(name, args);
      return ok instanceof ToolError ? ok : undefined;
    },
    run,
  };
}

/** The check for an action's arguments: its JSON Schema as zod, or why the schema cannot be used. */
function argsSchema(info: ActionInfo): z.ZodType | string {
  if (!info.params) return z.object({}).strict();
  try {
    return z.fromJSONSchema(info.params as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (e) {
    return `its params JSON Schema cannot be checked (${(e as Error).message}); fix it in the app's actions({ ... })`;
  }
}

const tool = definePluginTool<ActionsHost>();

const actionsList = tool({
  name: 'actions_list',
  title: "List the app's debug actions",
  description: 'The debug actions the app declares: name, description, params (JSON Schema), destructive.',
  input: z.object({}),
  output: z.object({
    actions: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        params: z.record(z.string(), z.unknown()).optional(),
        destructive: z.boolean(),
        problem: z.string().optional(),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  worksWhenDisconnected: true,
  handler: (_args, { instance }) => ({ actions: instance.list() }),
});

const actionsRun = tool({
  name: 'actions_run',
  title: 'Run a debug action',
  description:
    "Runs one of the app's debug actions with args checked against its params; answers its value. Destructive ones ask the user.",
  input: z.object({
    name: z.string().min(1).max(100).describe('From actions_list.'),
    args: z.record(z.string(), z.unknown()).default({}).describe('As its params schema says.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  describeChange: ({ name, args }) => `Run the app's action "${name}" with ${JSON.stringify(args).slice(0, 500)}`,
  askWhen: {
    what: 'actions the app marks destructive',
    check: ({ name, args }, { instance }) => {
      // A call the inspector refuses anyway (unknown action, bad arguments) asks nobody.
      const info = instance.get(name);
      if (!info?.destructive || instance.refusal(name, args)) return undefined;
      return `Run the app's action "${name}" with ${JSON.stringify(args).slice(0, 500)}: the app marks it destructive (${info.description.slice(0, 300)})`;
    },
  },
  handler: async ({ name, args }, { instance, signal }) => ToolResult.json(await instance.run(name, args, signal)),
});

export const actionsTools = [actionsList, actionsRun];

export default definePlugin({
  protocol: actionsProtocol,
  title: 'Actions',
  create: createActionsHost,
  tools: actionsTools,
});
