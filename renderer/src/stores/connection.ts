import { create } from 'zustand';
import type { Snapshot } from '../../../shared/bridge.js';
import type { LinkStatus } from '../../../shared/link-status.js';
import type { StorageStatus } from '../../../shared/storage-status.js';
import type { ConnectionState } from '../bridge/bridge-client.js';

export interface ConnectionStore {
  state: ConnectionState;
  /** Raised on every (re)connect: panels remount and reload what they missed. */
  epoch: number;
  /** Why the bridge is closed, in words a user can act on. */
  detail?: string;
  /** What the core is (from the last snapshot). */
  core?: Pick<Snapshot, 'version' | 'mode' | 'debuggeeUrl'>;
  /** Whether the core can write its data dir (a full disk, a file replaced by a folder). */
  storage?: StorageStatus;
  /** The debuggee link's refusals and cut-offs (`pairing` when apps may connect from the LAN). */
  link?: LinkStatus;
  setState(state: ConnectionState, detail?: string): void;
  setCore(core: ConnectionStore['core']): void;
  setLink(link: LinkStatus | undefined): void;
  setStorage(storage: StorageStatus | undefined): void;
}

export const useConnection = create<ConnectionStore>()((set) => ({
  state: 'connecting',
  epoch: 0,
  setState: (state, detail) => set((s) => ({ state, detail, epoch: state === 'open' ? s.epoch + 1 : s.epoch })),
  setCore: (core) => set({ core }),
  setLink: (link) => set({ link }),
  setStorage: (storage) => set({ storage }),
}));
