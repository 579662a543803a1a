import { useEffect, useMemo, useRef } from 'react';
import type { PluginSummary } from '../../shared/bridge.js';
import type { PluginProtocol } from '../../shared/plugin-protocol.js';
import type { SessionInfo } from '../../shared/session.js';
import { useBridge } from './bridge/context.js';
import { acceptPanelEvents, createPanelClient, type PanelClient, type PanelEvent } from './panel-client.js';

export type { PanelClient, PanelEvent };

/** What the window gives a plugin's panel. */
export interface PanelProps {
  session: SessionInfo;
  plugin: PluginSummary;
}

/** Typed calls from a panel to its plugin's host instance in `sessionId`. */
export function usePanelClient<P extends PluginProtocol>(protocol: P, sessionId: string): PanelClient<P> {
  const { client } = useBridge();
  return useMemo(() => createPanelClient(client, protocol, sessionId), [client, protocol, sessionId]);
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
        const events = acceptPanelEvents(protocol, raw, (event, issues) =>
          console.error(`[porthole] dropped an invalid ${protocol.id} ${event} event:`, issues),
        );
        if (events.length > 0) latest.current(events);
      }),
    [hub, protocol, sessionId],
  );
}
