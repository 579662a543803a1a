import { create } from 'zustand';
import type { BridgeEvent, PluginSummary } from '../../../shared/bridge.js';
import type { SessionInfo } from '../../../shared/session.js';
import { inertSession, inertText } from '../inert-text.js';

export interface Notice {
  id: number;
  kind: 'connected' | 'disconnected' | 'error' | 'info';
  text: string;
  at: number;
}

export interface AppGroup {
  app: SessionInfo['app'];
  sessions: SessionInfo[];
}

export interface DeviceGroup {
  device: SessionInfo['device'];
  apps: AppGroup[];
}

export interface SessionsStore {
  sessions: Record<string, SessionInfo>;
  plugins: PluginSummary[];
  notices: Notice[];
  load(sessions: SessionInfo[], plugins: PluginSummary[]): void;
  apply(event: BridgeEvent): void;
  notify(kind: Notice['kind'], text: string): void;
  dismiss(id: number): void;
}

const MAX_NOTICES = 5;
let nextNotice = 1;

export const useSessions = create<SessionsStore>()((set, get) => ({
  sessions: {},
  plugins: [],
  notices: [],
  load: (sessions, plugins) =>
    set({ sessions: Object.fromEntries(sessions.map((s) => [s.id, inertSession(s)])), plugins }),
  apply(event) {
    switch (event.event) {
      case 'session:connected': {
        const { resumed } = event.data;
        const session = inertSession(event.data.session);
        set((s) => ({ sessions: { ...s.sessions, [session.id]: session } }));
        get().notify('connected', `${resumed ? 'Reconnected' : 'Connected'}: ${describeSession(session)}`);
        break;
      }
      case 'session:disconnected': {
        const session = inertSession(event.data.session);
        const reason = inertText(event.data.reason);
        set((s) => ({ sessions: { ...s.sessions, [session.id]: session } }));
        get().notify('disconnected', `Disconnected: ${describeSession(session)}${reason ? ` (${reason})` : ''}`);
        break;
      }
      case 'session:updated':
        set((s) => ({ sessions: { ...s.sessions, [event.data.session.id]: inertSession(event.data.session) } }));
        break;
      case 'session:removed':
        set((s) => {
          const { [event.data.sessionId]: _removed, ...rest } = s.sessions;
          return { sessions: rest };
        });
        break;
    }
  },
  notify: (kind, text) =>
    set((s) => ({ notices: [...s.notices, { id: nextNotice++, kind, text, at: Date.now() }].slice(-MAX_NOTICES) })),
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
}));

function describeSession(session: SessionInfo): string {
  return `${session.app.name} on ${session.device.name} (${session.security === 'lan' ? 'LAN' : 'this machine'})`;
}

/**
 * Sessions as the sidebar lists them: by device, then app, each in the order first seen, so the
 * list does not reshuffle as apps connect and disconnect (the active dot says which are live).
 */
export function groupSessions(sessions: Record<string, SessionInfo>): DeviceGroup[] {
  const devices = new Map<string, { device: SessionInfo['device']; apps: Map<string, SessionInfo[]> }>();
  const ordered = Object.values(sessions).sort(
    (a, b) => a.firstConnectedAt - b.firstConnectedAt || a.id.localeCompare(b.id),
  );
  for (const session of ordered) {
    let entry = devices.get(session.device.id);
    if (!entry) devices.set(session.device.id, (entry = { device: session.device, apps: new Map() }));
    const list = entry.apps.get(session.app.id) ?? [];
    list.push(session);
    entry.apps.set(session.app.id, list);
  }
  return [...devices.values()].map(({ device, apps }) => ({
    device,
    apps: [...apps.values()].map((list) => ({ app: list[0]!.app, sessions: list })),
  }));
}
