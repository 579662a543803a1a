import type { HostPluginInstance } from '../../../shared/host-plugin.js';
import type { Batch, ConsoleProtocol } from '../protocol.js';
import type { ConsoleStore } from './store.js';

/** One per session: the app's console, kept after it disconnects until the session is cleared. */
export interface ConsoleHost extends HostPluginInstance<ConsoleProtocol> {
  readonly store: ConsoleStore;
  /** Takes a batch from the app, as its notification does. */
  ingest(batch: Batch): void;
  clear(): number;
}
