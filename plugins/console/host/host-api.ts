import type { HostPluginInstance } from '../../../shared/host-plugin.js';
import type { BatchWire, ConsoleProtocol } from '../protocol.js';
import type { ConsoleStore, Entry } from './store.js';

/** One per session: the app's console, kept after it disconnects until the session is cleared. */
export interface ConsoleHost extends HostPluginInstance<ConsoleProtocol> {
  readonly store: ConsoleStore;
  /** Takes a batch from the app, as its notification does. */
  ingest(batch: BatchWire): void;
  clear(): number;
  /** Waits, at most timeoutMs (default 3 s), for the source maps of these entries' frames. */
  settle(entries: Entry[], timeoutMs?: number): Promise<void>;
  /** The seq before the first message of load `sinceLoad` on (see shared/load-filter.ts); undefined: no bound. */
  sinceSeqOfLoad(sinceLoad: number | undefined): number | undefined;
}
