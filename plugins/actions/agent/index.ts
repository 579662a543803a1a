import { defineAgentPlugin, type ProtocolRef } from '../../../agent/plugin.js';
import { RequestError } from '../../../shared/protocol/request-error.js';
import { ACTIONS_PROTOCOL_ID, ACTIONS_PROTOCOL_VERSION } from '../constants.js';
import type { ActionInfo, ActionsProtocol } from '../protocol.js';

const protocol: ProtocolRef<ActionsProtocol> = { id: ACTIONS_PROTOCOL_ID, version: ACTIONS_PROTOCOL_VERSION };

/** A debug action of the app's, run from the inspector's window or by an AI agent (actions_run). */
export interface DebugAction {
  /** What it does, for the person and the agent choosing it. */
  description: string;
  /** JSON Schema of its arguments object (checked by the inspector before the app sees them). */
  params?: Record<string, unknown>;
  /** It deletes or overwrites something: an agent's call asks the person first. */
  destructive?: boolean;
  /** Runs it; what it returns (or resolves to) comes back to the caller, typed. */
  run(args: Record<string, unknown>): unknown;
}

const SERIALIZE = { depth: 8, maxString: 10_000, maxItems: 200, maxBytes: 20_000 };

/**
 * The actions plugin's agent part: `actions({ resetCart: { description, run } })` declares the
 * app's debug actions; `set` and `remove` change them later.
 */
export function actions(declared: Record<string, DebugAction> = {}) {
  return defineAgentPlugin(protocol, (ctx) => {
    const defs = new Map(Object.entries(declared));
    const info = (): ActionInfo[] =>
      [...defs].map(([name, a]) => ({
        name,
        description: String(a.description ?? ''),
        ...(a.params ? { params: a.params as ActionInfo['params'] } : {}),
        destructive: a.destructive === true,
      }));
    const announce = () => {
      if (ctx.connected) ctx.notify('declared', () => ({ actions: info() }));
    };
    ctx.onConnectionChange((connected) => {
      if (connected) announce();
    });
    ctx.handle('run', async ({ name, args }) => {
      const action = defs.get(name);
      if (!action) {
        throw new RequestError(
          'handler-error',
          `the app has no action "${name}"; its actions: ${[...defs.keys()].join(', ') || 'none'}`,
        );
      }
      const { Serializer } = await import('../../../agent/serialize.js');
      const started = Date.now();
      try {
        const value = await action.run(args);
        return { value: new Serializer(SERIALIZE).value(value), ms: Date.now() - started };
      } catch (e) {
        return { thrown: new Serializer(SERIALIZE).value(e), ms: Date.now() - started };
      }
    });
    return {
      /** Adds or replaces an action. */
      set(name: string, action: DebugAction): void {
        defs.set(name, action);
        announce();
      },
      /** Removes an action. */
      remove(name: string): void {
        if (defs.delete(name)) announce();
      },
    };
  });
}
