/** A plugin event from the core, as its panel receives it (still unvalidated here). */
export interface RawPluginEvent {
  event: string;
  data: unknown;
}

type Listener = (events: RawPluginEvent[]) => void;

/** Routes `plugin:event`s to the panels of (session, plugin), a batch at a time. */
export class PluginEventHub {
  private readonly listeners = new Map<string, Set<Listener>>();

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

  /** Delivers one batch; events of one (session, plugin) stay together and in order. */
  deliver(events: { sessionId: string; plugin: string; event: string; data: unknown }[]): void {
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
}
