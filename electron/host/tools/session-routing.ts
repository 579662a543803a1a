import type { SessionInfo } from '../../../shared/session.js';
import type { SessionRegistry } from '../sessions.js';

export type Routing = { ok: true; session: SessionInfo } | { ok: false; message: string };

const label = (s: SessionInfo) => `${s.id} (${s.app.name} on ${s.device.name})`;
/** At most 10 sessions by name, so that a failure stays short with hundreds of apps. */
const labels = (list: SessionInfo[]) =>
  list.length <= 10
    ? list.map(label).join(', ')
    : `${list.slice(0, 10).map(label).join(', ')} and ${list.length - 10} more (inspector_list_sessions lists them)`;
const hasPlugin = (s: SessionInfo, plugin: string) => s.plugins.accepted.some((p) => p.id === plugin);

/**
 * Picks the session a plugin tool acts on (DESIGN.md, MCP): the one named by `sessionId`, which must
 * have the plugin and be active (unless the tool only reads stored data); without one, the only active
 * session that has the plugin. Any other case is a failure that names the choices.
 */
export function routeToSession(
  sessions: SessionRegistry,
  plugin: string,
  sessionId: string | undefined,
  worksWhenDisconnected = false,
): Routing {
  const all = () => sessions.list();
  const active = () => all().filter((s) => s.active && hasPlugin(s, plugin));
  // Made only for a failure: a call naming a good session does not walk every session.
  const choices = () => {
    const candidates = active();
    return candidates.length
      ? `active sessions with the ${plugin} plugin: ${labels(candidates)}`
      : `no active session has the ${plugin} plugin`;
  };

  if (sessionId !== undefined) {
    const session = sessions.get(sessionId)?.info;
    if (!session) {
      return {
        ok: false,
        message: `there is no session "${sessionId}"; ${choices()}. Call inspector_list_sessions to see them all.`,
      };
    }
    if (!session.active && !worksWhenDisconnected) {
      return {
        ok: false,
        message: `session ${label(session)} is inactive: its app disconnected; reconnect the app or pick an active session (${choices()})`,
      };
    }
    if (!hasPlugin(session, plugin)) {
      return {
        ok: false,
        message: `session ${label(session)} does not have the ${plugin} plugin: the app must pass it to connect({ plugins }); ${choices()}`,
      };
    }
    return { ok: true, session };
  }

  const candidates = active();
  if (candidates.length === 1) return { ok: true, session: candidates[0]! };
  if (candidates.length === 0) {
    const inactive = all()
      .filter((s) => !s.active && hasPlugin(s, plugin))
      .sort((a, b) => (b.disconnectedAt ?? 0) - (a.disconnectedAt ?? 0));
    const start = `no connected app has the ${plugin} plugin; start an app that embeds the Porthole agent with this plugin and try again`;
    if (!inactive.length) return { ok: false, message: start };
    const latest = inactive[0]!;
    const readable = worksWhenDisconnected
      ? `. To read what the last one captured, call again with sessionId "${latest.id}"`
      : `. Tools that only read what was captured still work on them: pass sessionId "${latest.id}"`;
    return {
      ok: false,
      message: `${start} (inactive sessions that had it, most recent first: ${inactive.slice(0, 5).map(label).join(', ')}${inactive.length > 5 ? `, and ${inactive.length - 5} more (inspector_list_sessions)` : ''})${readable}.`,
    };
  }
  return {
    ok: false,
    message: `${candidates.length} connected apps have the ${plugin} plugin; pass sessionId to choose one of: ${labels(candidates)}`,
  };
}
