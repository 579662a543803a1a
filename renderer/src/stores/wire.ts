import type { BridgeEvent } from '../../../shared/bridge.js';
import type { BridgeClient } from '../bridge/bridge-client.js';
import type { PluginEventHub } from '../bridge/plugin-events.js';
import { useConnection } from './connection.js';
import { useHistory } from './history.js';
import { useMcp } from './mcp.js';
import { useNav } from './nav.js';
import { usePermissions } from './permissions.js';
import { useSessions } from './sessions.js';

/** Feeds the stores from the bridge: a fresh snapshot on every (re)connect, then the core's events. */
export function wireStores(client: BridgeClient, hub: PluginEventHub): () => void {
  const offState = client.onState((state, detail) => {
    useConnection.getState().setState(state, detail);
    if (state === 'open') void load(client);
  });
  const offEvents = client.onEvents((events) => applyEvents(events, hub, client));
  return () => {
    offState();
    offEvents();
  };
}

export async function load(client: BridgeClient): Promise<void> {
  try {
    const snapshot = await client.request('app.snapshot', {});
    const { version, mode, debuggeeUrl } = snapshot;
    useConnection.getState().setCore({ version, mode, debuggeeUrl });
    useConnection.getState().setLink(snapshot.link);
    useConnection.getState().setStorage(snapshot.storage);
    useSessions.getState().load(snapshot.sessions, snapshot.plugins);
    useMcp.getState().setStatus(snapshot.mcp);
    selectDefaultSession();
    await Promise.all([
      client.request('tools.list', {}).then(({ tools }) => useMcp.getState().setTools(tools)),
      client.request('history.list', {}).then(({ calls, capacity }) => useHistory.getState().load(calls, capacity)),
      loadPermissions(client),
    ]);
  } catch (e) {
    useSessions.getState().notify('error', `Could not load the inspector's state: ${(e as Error).message}`);
  }
}

export function applyEvents(events: BridgeEvent[], hub: PluginEventHub, client?: BridgeClient): void {
  const pluginEvents: Extract<BridgeEvent, { event: 'plugin:event' }>['data'][] = [];
  for (const e of events) {
    switch (e.event) {
      case 'plugin:event':
        pluginEvents.push(e.data);
        break;
      case 'session:connected':
      case 'session:disconnected':
      case 'session:updated':
      case 'session:removed':
        useSessions.getState().apply(e);
        if (e.event === 'session:connected') selectDefaultSession();
        if (e.event === 'session:removed' && useNav.getState().sessionId === e.data.sessionId) {
          useNav.getState().selectSession(undefined);
        }
        break;
      case 'call:started':
        useHistory.getState().started(e.data.call);
        follow(e.data.call);
        break;
      case 'call:finished':
        useHistory.getState().finished(e.data.call);
        break;
      case 'mcp:status':
        useMcp.getState().setStatus(e.data.status);
        break;
      case 'link:stats':
        useConnection.getState().setLink(e.data);
        break;
      case 'storage:changed':
        useConnection.getState().setStorage(e.data.storage);
        break;
      case 'tools:changed':
        void client
          ?.request('tools.list', {})
          .then(({ tools }) => useMcp.getState().setTools(tools))
          .catch(() => {});
        if (client) void loadPermissions(client).catch(() => {});
        break;
      case 'permissions:changed':
        if (client) void loadPermissions(client).catch(() => {});
        break;
      case 'permission:ask':
        usePermissions.getState().asked(e.data.ask);
        break;
      case 'permission:settled':
        usePermissions.getState().settled(e.data.askId);
        break;
    }
  }
  if (pluginEvents.length > 0) hub.deliver(pluginEvents);
}

function loadPermissions(client: BridgeClient): Promise<void> {
  return client.request('permissions.get', {}).then((view) => usePermissions.getState().setView(view));
}

/** Follow mode: show the session and plugin an agent's call operates on. */
function follow(call: { surface: string; sessionId?: string; plugin?: string }): void {
  const nav = useNav.getState();
  if (!nav.follow || call.surface === 'ui' || !call.sessionId) return;
  if (!useSessions.getState().sessions[call.sessionId]) return;
  nav.selectSession(call.sessionId, call.plugin);
}

/** With nothing selected, pick the newest active session so a newcomer sees their app at once. */
function selectDefaultSession(): void {
  const nav = useNav.getState();
  const sessions = useSessions.getState().sessions;
  if (nav.sessionId && sessions[nav.sessionId]) return;
  const newest = Object.values(sessions)
    .filter((s) => s.active)
    .sort((a, b) => b.lastConnectedAt - a.lastConnectedAt)[0];
  if (newest) useNav.setState({ sessionId: newest.id });
}
