import type { SessionInfo } from '../../shared/session.js';
import { formatTimeOfDay } from './time.js';

/** One way sessions of an app can differ, as a short text (undefined: this session does not say). */
type Trait = (session: SessionInfo) => string | undefined;

function pageUrl(session: SessionInfo): URL | undefined {
  const url = session.device.page?.url;
  if (!url) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** What can tell two processes of one app apart, the most telling first. */
const TRAITS: Trait[] = [
  (s) => s.offline?.source,
  (s) => s.device.page?.title,
  (s) => {
    const url = pageUrl(s);
    return url?.port ? `port ${url.port}` : url?.host;
  },
  (s) => {
    const url = pageUrl(s);
    return url ? `${url.pathname}${url.search}` : undefined;
  },
  (s) => (s.device.pid !== undefined ? `pid ${s.device.pid}` : undefined),
  (s) => s.device.name,
  (s) => (s.load ? `run ${s.load.seq}` : undefined),
];

/**
 * For each session, the words that tell it apart from the other sessions of the same app (on any
 * device): the first trait (tab title, port, page, pid, device, run) whose values differ among them,
 * joined with the next differing one when the first leaves two sessions alike. A session alone
 * (its app has no other) gets what best describes it, or nothing.
 */
export function sessionDistinctions(sessions: readonly SessionInfo[]): Map<string, string> {
  const byApp = new Map<string, SessionInfo[]>();
  for (const s of sessions) {
    const list = byApp.get(s.app.id) ?? [];
    list.push(s);
    byApp.set(s.app.id, list);
  }
  const out = new Map<string, string>();
  for (const list of byApp.values()) {
    if (list.length === 1) {
      const only = list[0]!;
      const best = TRAITS.slice(0, 5)
        .map((t) => t(only))
        .find(Boolean);
      if (best) out.set(only.id, best);
      continue;
    }
    const parts = new Map<string, string[]>(list.map((s) => [s.id, []]));
    for (const trait of TRAITS) {
      const values = list.map(trait);
      if (new Set(values).size <= 1) continue;
      list.forEach((s, i) => {
        if (values[i]) parts.get(s.id)!.push(values[i]!);
      });
      const keys = list.map((s) => parts.get(s.id)!.join(' · '));
      if (new Set(keys).size === list.length) break;
    }
    for (const s of list) {
      const words = parts.get(s.id)!;
      // Nothing they say tells them apart: the time each connected first does.
      out.set(s.id, words.length ? words.join(' · ') : `since ${formatTimeOfDay(s.firstConnectedAt)}`);
    }
  }
  return out;
}

/** "Acme Shop (port 5174) on Chrome on Linux": what a screen reader and a prompt say for a session. */
export function sessionName(session: SessionInfo, distinction?: string): string {
  const app = distinction ? `${session.app.name} (${distinction})` : session.app.name;
  return session.offline ? app : `${app} on ${session.device.name}`;
}

export type CallTarget =
  | { kind: 'session'; session: SessionInfo }
  | { kind: 'none'; text: string }
  | { kind: 'inspector' };

/**
 * The session an agent's call will act on, by the core's rule (electron/host/tools/session-routing.ts):
 * the one its `sessionId` names, else the only active session with the tool's plugin.
 */
export function callTarget(
  sessions: Record<string, SessionInfo>,
  plugin: string | undefined,
  args: unknown,
): CallTarget {
  const sessionId = typeof args === 'object' && args !== null ? (args as { sessionId?: unknown }).sessionId : undefined;
  if (typeof sessionId === 'string') {
    const session = Object.hasOwn(sessions, sessionId) ? sessions[sessionId] : undefined;
    return session
      ? { kind: 'session', session }
      : { kind: 'none', text: 'a session this window does not know (the call will fail)' };
  }
  if (!plugin) return { kind: 'inspector' };
  const candidates = Object.values(sessions).filter((s) => s.active && s.plugins.accepted.some((p) => p.id === plugin));
  if (candidates.length === 1) return { kind: 'session', session: candidates[0]! };
  return {
    kind: 'none',
    text:
      candidates.length === 0
        ? `no connected app has the ${plugin} plugin (the call will fail)`
        : `${candidates.length} apps have the ${plugin} plugin and the call names none (it will fail)`,
  };
}
