/** A plugin event from the core, as its panel receives it (still unvalidated here). */
export interface RawPluginEvent {
  event: string;
  data: unknown;
}

type Listener = (events: RawPluginEvent[]) => void;
type SessionListener = (events: (RawPluginEvent & { plugin: string })[]) => void;

/** Routes `plugin:event`s to the panels of (session, plugin), a batch at a time. */
export class PluginEventHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly sessionListeners = new Map<string, Set<SessionListener>>();

  subscribe(sessionId: string, plugin: string, listener: Listener): () => void {
    const key = `${sessionId}\u0000${plugin}`;
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(key);
    };
  }

  /** Every plugin's events of one session, a batch at a time (the session's timeline follows them). */
  subscribeSession(sessionId: string, listener: SessionListener): () => void {
    let set = this.sessionListeners.get(sessionId);
    if (!set) this.sessionListeners.set(sessionId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.sessionListeners.delete(sessionId);
    };
  }

  /** Delivers one batch; events of one (session, plugin) stay together and in order. */
  deliver(events: { sessionId: string; plugin: string; event: string; data: unknown }[]): void {
    if (this.sessionListeners.size > 0) this.deliverBySession(events);
    const grouped = new Map<string, RawPluginEvent[]>();
    for (const { sessionId, plugin, event, data } of events) {
      const key = `${sessionId}\u0000${plugin}`;
      if (!this.listeners.has(key)) continue;
      let list = grouped.get(key);
      if (!list) grouped.set(key, (list = []));
      list.push({ event, data });
    }
    for (const [key, list] of grouped) {
      for (const listener of this.listeners.get(key) ?? []) {
        try {
          listener(list);
        } catch (e) {
          console.error('[porthole] a panel failed on its plugin events:', e);
        }
      }
    }
  }

  private deliverBySession(events: { sessionId: string; plugin: string; event: string; data: unknown }[]): void {
    const grouped = new Map<string, (RawPluginEvent & { plugin: string })[]>();
    for (const { sessionId, plugin, event, data } of events) {
      if (!this.sessionListeners.has(sessionId)) continue;
      let list = grouped.get(sessionId);
      if (!list) grouped.set(sessionId, (list = []));
      list.push({ plugin, event, data });
    }
    for (const [sessionId, list] of grouped) {
      for (const listener of this.sessionListeners.get(sessionId) ?? []) {
        try {
          listener(list);
        } catch (e) {
          console.error('[porthole] a view failed on its session events:', e);
        }
      }
    }
  }
}
