import type { HostPluginInstance } from '../../../shared/host-plugin.js';
import type {
  Area,
  Change,
  Entries,
  GetParams,
  KeyPage,
  KeysParams,
  Removed,
  RemoveParams,
  SetParams,
  StorageProtocol,
} from '../protocol.js';

/** One per session: asks the app's storage plugin; keeps nothing of the app's data. */
export interface StorageHost extends HostPluginInstance<StorageProtocol> {
  areas(signal?: AbortSignal): Promise<Area[]>;
  keys(params: KeysParams, signal?: AbortSignal): Promise<KeyPage>;
  get(params: GetParams, signal?: AbortSignal): Promise<Entries>;
  set(params: SetParams, signal?: AbortSignal): Promise<Change>;
  remove(params: RemoveParams, signal?: AbortSignal): Promise<Removed>;
  /** Writes a value too large for an answer to `<data-dir>/exports/`. */
  saveExport(fileName: string, text: string): { path: string; bytes: number };
}
