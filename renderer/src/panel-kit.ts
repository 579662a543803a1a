import { useEffect, useMemo, useRef } from 'react';
import type { PluginSummary, ToolRunResult } from '../../shared/bridge.js';
import type { PluginProtocol } from '../../shared/plugin-protocol.js';
import type { SessionInfo } from '../../shared/session.js';
import { useBridge } from './bridge/context.js';
import { acceptPanelEvents, createPanelClient, type PanelClient, type PanelEvent } from './panel-client.js';
import { useNav } from './stores/nav.js';

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
 * Runs an MCP tool as the person at the window (the tools browser's `tools.run`): recorded in the
 * call history with surface `ui`, never asked about (the person is trusted). A panel uses it for a
 * tool of another plugin, e.g. the console's input runs `ui_evaluate`.
 */
export function useRunTool(): (name: string, args: Record<string, unknown>) => Promise<ToolRunResult> {
  const { client } = useBridge();
  return useMemo(() => async (name, args) => (await client.request('tools.run', { name, args })).result, [client]);
}

/**
 * Opens data read from a file as its own offline session: the core makes a session running this
 * plugin, `fill` loads it through the plugin's panel methods, and the window shows it. If `fill`
 * fails the session is removed again and the error is thrown.
 */
export function useOpenOffline<P extends PluginProtocol>(protocol: P) {
  const { client } = useBridge();
  return async (source: string, fill: (api: PanelClient<P>) => Promise<void>): Promise<SessionInfo> => {
    const { session } = await client.request('sessions.openOffline', { plugin: protocol.id, source });
    try {
      await fill(createPanelClient(client, protocol, session.id));
    } catch (e) {
      await client.request('sessions.remove', { sessionId: session.id }).catch(() => {});
      throw e;
    }
    useNav.getState().selectSession(session.id, protocol.id);
    return session;
  };
}

/**
 * Shows an item another view asked for (a timeline row opened in this plugin): `show(ref)` gets
 * the plugin's own id for it (the `ref` its timeline entries carry) and returns true once it
 * selected it or said why it cannot, false while the panel is not ready (still loading); it is
 * asked again on the panel's next render until then.
 */
export function useReveal(
  protocol: Pick<PluginProtocol, 'id'>,
  sessionId: string,
  show: (ref: string) => boolean,
): void {
  const reveal = useNav((s) => s.reveal);
  // No dependency list: asked on every render until the panel is ready, then cleared.
  useEffect(() => {
    if (!reveal || reveal.sessionId !== sessionId || reveal.plugin !== protocol.id) return;
    if (show(reveal.ref) && useNav.getState().reveal === reveal) useNav.setState({ reveal: undefined });
  });
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
