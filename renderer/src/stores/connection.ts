import { create } from 'zustand';
import type { Snapshot } from '../../../shared/bridge.js';
import type { ConnectionState } from '../bridge/bridge-client.js';

export interface ConnectionStore {
  state: ConnectionState;
  /** Why the bridge is closed, in words a user can act on. */
  detail?: string;
  /** What the core is (from the last snapshot). */
  core?: Pick<Snapshot, 'version' | 'mode' | 'debuggeeUrl' | 'features'>;
  setState(state: ConnectionState, detail?: string): void;
  setCore(core: ConnectionStore['core']): void;
}

export const useConnection = create<ConnectionStore>()((set) => ({
  state: 'connecting',
  setState: (state, detail) => set({ state, detail }),
  setCore: (core) => set({ core }),
}));
