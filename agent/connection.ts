import { OfflineBuffer } from './offline-buffer.js';
import { type Agent, type AgentStatus, type ConnectOptions, env } from './options.js';
import type { AgentPlugin } from './plugin.js';

export { type Agent, type AgentState, type AgentStatus, type ConnectOptions, DEFAULT_URL } from './options.js';

/** Connects this app to the inspector and keeps it connected: backoff with jitter, resume, offline buffering. */
export function connect(options: ConnectOptions): Agent {
  if (options.enabled === false || env('PORTHOLE') === 'off') return disabled(options.plugins ?? []);
  return new AgentConnection(options);
}

/** An agent that never connects: its plugins are disposed, so nothing of the app is touched. */
function disabled(plugins: AgentPlugin[]): Agent {
  for (const plugin of plugins) (plugin as { dispose?: () => void }).dispose?.();
  const status: AgentStatus = { state: 'stopped', attempt: 0, error: 'disabled' };
  return { status, onStatus: () => () => {}, disconnect: () => {} };
}

/**
 * What runs when the app calls connect(): the plugins' offline buffers and the agent's status. The
 * link itself (link.ts) is loaded at once, beside the app's startup rather than in its bundle's
 * first chunk; until it is here, plugins buffer as they do offline.
 */
class AgentConnection implements Agent {
  private readonly listeners = new Set<(status: AgentStatus) => void>();
  private current: AgentStatus = { state: 'connecting', attempt: 0 };
  private link: { disconnect(): void } | undefined;
  private stopped = false;

  constructor(options: ConnectOptions) {
    if (options.onStatus) this.listeners.add(options.onStatus);
    const plugins = new Map<string, AgentPlugin>();
    for (const plugin of options.plugins ?? []) {
      if (plugins.has(plugin.protocol.id)) throw new Error(`porthole: plugin "${plugin.protocol.id}" was given twice`);
      // What the plugin noted before connect() (e.g. the network plugin's first requests) is kept.
      const early = plugin.runtime.buffer;
      plugin.runtime.buffer = new OfflineBuffer(options.offlineBufferSize ?? 1000, options.offlineBufferBytes);
      plugin.runtime.buffer.restore(early.drain());
      plugin.runtime.buffer.dropped += early.dropped;
      plugins.set(plugin.protocol.id, plugin);
    }
    import('./link.js').then(
      ({ Link }) => {
        if (!this.stopped) this.link = new Link(options, plugins, this);
      },
      (e: unknown) => {
        const error = `porthole: the agent's link could not be loaded: ${e instanceof Error ? e.message : String(e)}`;
        console.error(`[porthole] ${error}`);
        this.setStatus({ state: 'stopped', attempt: 0, error });
      },
    );
  }

  get status(): AgentStatus {
    return this.current;
  }

  onStatus(listener: (status: AgentStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  disconnect(): void {
    this.stopped = true;
    if (this.link) this.link.disconnect();
    else this.setStatus({ state: 'stopped', attempt: 0 });
  }

  setStatus(status: AgentStatus): void {
    this.current = status;
    for (const listener of this.listeners) {
      try {
        listener(status);
      } catch (e) {
        console.error('[porthole] a status listener threw:', e);
      }
    }
  }
}
