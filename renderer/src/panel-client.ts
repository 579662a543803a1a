import type {
  PanelEventData,
  PanelEventName,
  PanelMethod,
  PanelParams,
  PanelResult,
  PluginProtocol,
} from '../../shared/plugin-protocol.js';
import { describeIssues } from '../../shared/zod-issues.js';
import { type BridgeClient, BridgeRequestError } from './bridge/bridge-client.js';
import type { RawPluginEvent } from './bridge/plugin-events.js';

// What a panel does with the bridge, without React: panel-kit.ts wraps it in hooks for panels, and
// the plugin test kit (electron/host/plugin-testing.ts) runs the very same code in Node.

export type PanelEvent<P extends PluginProtocol> = {
  [E in PanelEventName<P>]: { event: E; data: PanelEventData<P, E> };
}[PanelEventName<P>];

export interface PanelClient<P extends PluginProtocol> {
  /** Asks the plugin's host instance (not an MCP call; not in the call history). The answer is validated. */
  call<M extends PanelMethod<P>>(method: M, params: PanelParams<P, M>): Promise<PanelResult<P, M>>;
}

/** Typed `panel.call`s to the plugin's host instance in `sessionId`, answers checked against the protocol. */
export function createPanelClient<P extends PluginProtocol>(
  client: Pick<BridgeClient, 'request'>,
  protocol: P,
  sessionId: string,
): PanelClient<P> {
  return {
    async call(method, params) {
      const spec = protocol.panel?.requests?.[method];
      if (!spec) throw new Error(`the ${protocol.id} protocol declares no panel method "${method}"`);
      const raw = await client.request('panel.call', { sessionId, plugin: protocol.id, method, params });
      const parsed = spec.result.safeParse(raw);
      if (!parsed.success) {
        throw new BridgeRequestError('invalid-reply', `invalid answer to ${method}: ${describeIssues(parsed.error)}`);
      }
      return parsed.data as never;
    },
  };
}

/**
 * The events a panel accepts from a batch: those its protocol declares in `panel.events`, parsed.
 * Undeclared ones are skipped; declared ones that do not match go to `onInvalid` and are dropped.
 */
export function acceptPanelEvents<P extends PluginProtocol>(
  protocol: P,
  raw: readonly RawPluginEvent[],
  onInvalid: (event: string, issues: string) => void,
): PanelEvent<P>[] {
  const schemas = protocol.panel?.events ?? {};
  const events: PanelEvent<P>[] = [];
  for (const { event, data } of raw) {
    const schema = Object.hasOwn(schemas, event) ? schemas[event] : undefined;
    if (!schema) continue;
    const parsed = schema.safeParse(data);
    if (parsed.success) events.push({ event, data: parsed.data } as PanelEvent<P>);
    else onInvalid(event, describeIssues(parsed.error));
  }
  return events;
}
