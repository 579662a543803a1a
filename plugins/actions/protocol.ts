import { z } from 'zod';
import { definePluginProtocol } from '../../shared/plugin-protocol.js';
import { ACTIONS_PROTOCOL_ID, ACTIONS_PROTOCOL_VERSION } from './constants.js';

// Debug actions an app declares (`actions({ resetCart: { description, params, destructive, run } })`):
// the app tells the inspector what it has; the inspector checks arguments against each action's
// JSON Schema, then asks the app to run it and gets its value back serialized (agent/serialize.ts).

export const ActionInfoSchema = z.object({
  name: z.string().min(1).max(100),
  description: z.string().max(2000),
  /** A JSON Schema for the arguments object; absent: the action takes none. */
  params: z.record(z.string(), z.json()).optional(),
  destructive: z.boolean(),
});
export type ActionInfo = z.infer<typeof ActionInfoSchema>;

export const RunResultSchema = z.object({
  /** The value the action returned (or resolved to), serialized. */
  value: z.json().optional(),
  /** What it threw (or rejected with), serialized. */
  thrown: z.json().optional(),
  ms: z.number().min(0),
});
export type RunResult = z.infer<typeof RunResultSchema>;

const Args = z.record(z.string(), z.json());

/** An action as the window and the tools show it: what the app declared, and why it cannot run if so. */
export const ActionViewSchema = ActionInfoSchema.extend({ problem: z.string().optional() });
export type ActionView = z.infer<typeof ActionViewSchema>;

export const actionsProtocol = definePluginProtocol({
  id: ACTIONS_PROTOCOL_ID,
  version: ACTIONS_PROTOCOL_VERSION,
  toAgent: {
    requests: {
      run: { params: z.object({ name: z.string().max(100), args: Args }), result: RunResultSchema },
    },
  },
  toHost: {
    notifications: {
      /** Every action the app has, sent on each connection and when the app adds or removes one. */
      declared: z.object({ actions: z.array(ActionInfoSchema).max(500) }),
    },
  },
  panel: {
    requests: {
      list: { params: z.object({}), result: z.object({ actions: z.array(ActionViewSchema) }) },
      run: {
        params: z.object({ name: z.string().max(100), args: Args }),
        result: z.object({ value: z.unknown().optional(), error: z.string().optional(), ms: z.number() }),
      },
    },
    events: {
      declared: z.object({ actions: z.array(ActionViewSchema) }),
    },
  },
});
export type ActionsProtocol = typeof actionsProtocol;
