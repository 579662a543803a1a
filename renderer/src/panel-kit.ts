import { useEffect, useMemo, useRef } from 'react';
import type { PluginSummary } from '../../shared/bridge.js';
import type {
  PanelEventData,
  PanelEventName,
  PanelMethod,
  PanelParams,
  PanelResult,
  PluginProtocol,
} from '../../shared/plugin-protocol.js';
import type { SessionInfo } from '../../shared/session.js';
import { describeIssues } from '../../shared/zod-issues.js';
import { BridgeRequestError } from './bridge/bridge-client.js';
import { useBridge } from './bridge/context.js';

/** What the window gives a plugin's panel. */
export interface PanelProps {
  session: SessionInfo;
  plugin: PluginSummary;
}

export type PanelEvent<P extends PluginProtocol> = {
  [E in PanelEventName<P>]: { event: E; data: PanelEventData<P, E> };
}[PanelEventName<P>];

export interface PanelClient<P extends PluginProtocol> {
  /** Asks the plugin's host instance (not an MCP call; not in the call history). The answer is validated. */
  call<M extends PanelMethod<P>>(method: M, params: PanelParams<P, M>): Promise<PanelResult<P, M>>;
}

/** Typed calls from a panel to its plugin's host instance in `sessionId`. */
export function usePanelClient<P extends PluginProtocol>(protocol: P, sessionId: string): PanelClient<P> {
  const { client } = useBridge();
  return useMemo(
    () => ({
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
    }),
    [client, protocol, sessionId],
  );
}

/**
 * Receives the plugin's events for `sessionId` in batches (as they arrive from the core), each
 * validated against the protocol's `panel.events`; invalid ones are dropped with a console error.
 */
export function usePluginEvents<P extends PluginProtocol>(
  protocol: P,
  sessionId: string,
  onEvents: (events: PanelEvent<P>[]) => void,
): void {
  const { hub } = useBridge();
  const latest = useRef(onEvents);
  latest.current = onEvents;
  useEffect(
    () =>
      hub.subscribe(sessionId, protocol.id, (raw) => {
        const schemas = protocol.panel?.events ?? {};
        const events: PanelEvent<P>[] = [];
        for (const { event, data } of raw) {
          const schema = Object.hasOwn(schemas, event) ? schemas[event] : undefined;
          if (!schema) continue;
          const parsed = schema.safeParse(data);
          if (parsed.success) events.push({ event, data: parsed.data } as PanelEvent<P>);
          else
            console.error(`[porthole] dropped an invalid ${protocol.id} ${event} event:`, describeIssues(parsed.error));
        }
        if (events.length > 0) latest.current(events);
      }),
    [hub, protocol, sessionId],
  );
}
