import { randomUUID } from 'node:crypto';
import type { Hello, PluginOffer } from '../../shared/protocol/messages.js';
import type { Messenger } from '../../shared/protocol/messenger.js';
import { estimateBytes, MemoryBudget, type RecordStore } from '../../shared/records.js';
import type { ConnectionSecurity, SessionInfo } from '../../shared/session.js';
import type { EventBus } from './event-bus.js';
import { newSecret, secretMatches } from './secrets.js';

/** The live half of a session: the current connection's messenger and a way to close it. */
export interface SessionLink {
  messenger: Messenger;
  close(code: number, reason: string): void;
}

export interface Session {
  info: SessionInfo;
  secret: string;
  link: SessionLink | undefined;
  /** The app's runs in this session, oldest first (the newest MAX_LOADS): the timeline's page loads. */
  loads: Load[];
  /** The `Origin` of the app's current connection (a browser page's own origin); undefined for other apps. */
  connectionOrigin?: string;
}

/** One run of the app: a page load or a process start. */
export interface Load {
  seq: number;
  id: string;
  startedAt: number;
  /** The page's address when the run began (browsers). */
  url?: string;
}

export const MAX_LOADS = 200;

export interface AttachInput {
  hello: Hello;
  accepted: PluginOffer[];
  incompatible: SessionInfo['plugins']['incompatible'];
  remoteAddress: string;
  security: ConnectionSecurity;
  link: SessionLink;
  /** The `Origin` header of the WebSocket upgrade, when there was one. */
  connectionOrigin?: string;
}

/**
 * Every session the inspector has seen. A session outlives its connection (listed as inactive)
 * and is resumed only by a hello carrying its id and secret; anything else starts a new one.
 */
export interface SessionLimits {
  /** Inactive sessions kept; beyond it the longest-disconnected is forgotten. Default 100. */
  maxInactive?: number;
  /** Bytes the inactive sessions' own records (app, device, icon) may hold. Default 16 MiB. */
  maxInactiveBytes?: number;
  /** Sessions connected at once. Default 256. */
  maxActive?: number;
  /** The global byte budget; inactive sessions are records in it, the oldest forgotten first. */
  budget?: MemoryBudget;
}

export const DEFAULT_MAX_ACTIVE_SESSIONS = 256;

export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();
  /** Inactive sessions, longest-disconnected first; a dropped one is forgotten with its data. */
  private readonly inactive: RecordStore<Session>;
  readonly maxActive: number;
  private activeCount = 0;

  constructor(
    private readonly bus: EventBus,
    limits: SessionLimits | number = {},
  ) {
    const l = typeof limits === 'number' ? { maxInactive: limits } : limits;
    this.maxActive = l.maxActive ?? DEFAULT_MAX_ACTIVE_SESSIONS;
    this.inactive = (l.budget ?? new MemoryBudget(Number.POSITIVE_INFINITY)).open<Session>('inactive-sessions', {
      maxCount: l.maxInactive ?? 100,
      maxBytes: l.maxInactiveBytes ?? 16 * 1024 * 1024,
      sizeOf: (s) => estimateBytes(s.info),
      onDrop: (dropped) => {
        for (const session of dropped) this.forget(session.info.id);
      },
    });
  }

  /** Sessions with a connection now. */
  get active(): number {
    return this.activeCount;
  }

  /** A new session (not a resume) would be past the cap of sessions connected at once. */
  full(hello: Hello): boolean {
    if (this.activeCount < this.maxActive) return false;
    const previous = hello.resume && this.sessions.get(hello.resume.sessionId);
    return !(previous && secretMatches(previous.secret, hello.resume?.secret ?? ''));
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  list(): SessionInfo[] {
    return [...this.sessions.values()].map((s) => s.info);
  }

  /** Binds a freshly handshaken connection to a session, resuming one when the secret matches. */
  attach(input: AttachInput): { session: Session; resumed: boolean } {
    const now = Date.now();
    const previous = input.hello.resume && this.sessions.get(input.hello.resume.sessionId);
    const resumable = previous && secretMatches(previous.secret, input.hello.resume?.secret ?? '');
    const dropped = Object.values(input.hello.dropped ?? {}).reduce((a, b) => a + b, 0);

    if (previous && resumable) {
      previous.link?.close(4003, 'replaced by a newer connection of the same session');
      const load = nextLoad(previous, input.hello);
      if (!previous.link) this.activeCount++;
      this.inactive.delete(previous.info.id);
      previous.link = input.link;
      previous.connectionOrigin = input.connectionOrigin;
      previous.info = {
        ...previous.info,
        app: input.hello.app,
        device: input.hello.device,
        active: true,
        security: input.security,
        remoteAddress: input.remoteAddress,
        plugins: { accepted: input.accepted, incompatible: input.incompatible },
        lastConnectedAt: now,
        disconnectedAt: undefined,
        connections: previous.info.connections + 1,
        droppedNotifications: previous.info.droppedNotifications + dropped,
        load: load ? { seq: load.seq, id: load.id, startedAt: load.startedAt } : previous.info.load,
      };
      return { session: previous, resumed: true };
    }

    const session: Session = {
      secret: newSecret(24),
      link: input.link,
      loads: [],
      connectionOrigin: input.connectionOrigin,
      info: {
        id: randomUUID(),
        app: input.hello.app,
        device: input.hello.device,
        active: true,
        security: input.security,
        remoteAddress: input.remoteAddress,
        plugins: { accepted: input.accepted, incompatible: input.incompatible },
        firstConnectedAt: now,
        lastConnectedAt: now,
        connections: 1,
        protocolErrors: 0,
        droppedNotifications: dropped,
      },
    };
    const load = nextLoad(session, input.hello);
    if (load) session.info.load = { seq: load.seq, id: load.id, startedAt: load.startedAt };
    this.sessions.set(session.info.id, session);
    this.activeCount++;
    return { session, resumed: false };
  }

  /**
   * A session with no app behind it, for data read from a file (an imported HAR): listed as
   * inactive and offline from the start, never resumable, removed like any inactive session.
   */
  openOffline(input: {
    app: SessionInfo['app'];
    device: SessionInfo['device'];
    plugins: PluginOffer[];
    source: string;
  }): Session {
    const now = Date.now();
    const session: Session = {
      secret: newSecret(24),
      link: undefined,
      loads: [],
      info: {
        id: randomUUID(),
        app: input.app,
        device: input.device,
        active: false,
        security: 'loopback',
        remoteAddress: 'file',
        plugins: { accepted: input.plugins, incompatible: [] },
        firstConnectedAt: now,
        lastConnectedAt: now,
        disconnectedAt: now,
        connections: 0,
        protocolErrors: 0,
        droppedNotifications: 0,
        offline: { source: input.source },
      },
    };
    this.sessions.set(session.info.id, session);
    this.bus.emit('session:updated', { session: session.info });
    this.inactive.set(session.info.id, session);
    return session;
  }

  /**
   * A session saved by an earlier run: listed as inactive, resumable with its secret. `open` loads
   * its plugins' saved records first, so that the session is newer in the global budget than its
   * own data, as in the run that saved it: a budget too small for it all drops its oldest records,
   * not the session they are loaded into.
   */
  restore(saved: { info: SessionInfo; secret: string }, open: (session: Session) => void): Session | undefined {
    if (this.sessions.has(saved.info.id)) return undefined;
    const load = saved.info.load;
    const session: Session = {
      secret: saved.secret,
      link: undefined,
      loads: load ? [{ ...load }] : [],
      info: { ...saved.info, active: false, disconnectedAt: saved.info.disconnectedAt ?? Date.now() },
    };
    this.sessions.set(session.info.id, session);
    open(session);
    this.inactive.set(session.info.id, session);
    return this.sessions.has(session.info.id) ? session : undefined;
  }

  /** What the sessions need to be resumed after a restart. */
  persisted(): { info: SessionInfo; secret: string }[] {
    return [...this.sessions.values()].map((s) => ({ info: s.info, secret: s.secret }));
  }

  /** The connection is gone; the session stays listed as inactive. Ignores links already replaced. */
  detach(session: Session, link: SessionLink): boolean {
    if (session.link !== link) return false;
    session.link = undefined;
    this.activeCount--;
    session.info = { ...session.info, active: false, disconnectedAt: Date.now() };
    this.inactive.set(session.info.id, session);
    return true;
  }

  countProtocolError(session: Session): void {
    session.info = { ...session.info, protocolErrors: session.info.protocolErrors + 1 };
    this.bus.emit('session:updated', { session: session.info });
  }

  /** Forgets an inactive session and its data. Active sessions cannot be removed. */
  remove(id: string): boolean {
    const session = this.sessions.get(id);
    if (!session || session.info.active) return false;
    this.inactive.delete(id);
    return this.forget(id);
  }

  private forget(id: string): boolean {
    if (!this.sessions.delete(id)) return false;
    this.bus.emit('session:removed', { sessionId: id });
    return true;
  }

  /** Sessions grouped as the window lists them: by device, then by app. */
  grouped(): { device: SessionInfo['device']; apps: { app: SessionInfo['app']; sessions: SessionInfo[] }[] }[] {
    const devices = new Map<string, { device: SessionInfo['device']; apps: Map<string, SessionInfo[]> }>();
    for (const info of this.list()) {
      let entry = devices.get(info.device.id);
      if (!entry) devices.set(info.device.id, (entry = { device: info.device, apps: new Map() }));
      const apps = entry.apps.get(info.app.id) ?? [];
      apps.push(info);
      entry.apps.set(info.app.id, apps);
    }
    return [...devices.values()].map(({ device, apps }) => ({
      device,
      apps: [...apps.values()].map((sessions) => ({ app: sessions[0]!.app, sessions })),
    }));
  }
}

/** The run a hello starts, recorded on the session; undefined when it continues the current run (or says nothing). */
function nextLoad(session: Session, hello: Hello): Load | undefined {
  if (!hello.load || hello.load.id === session.info.load?.id) return undefined;
  const load: Load = {
    seq: (session.info.load?.seq ?? 0) + 1,
    id: hello.load.id,
    startedAt: hello.load.startedAt,
    url: hello.device.page?.url,
  };
  session.loads.push(load);
  if (session.loads.length > MAX_LOADS) session.loads.shift();
  return load;
}
