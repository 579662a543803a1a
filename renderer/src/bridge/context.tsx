import { createContext, type ReactNode, useContext } from 'react';
import type { BridgeClient } from './bridge-client.js';
import type { PluginEventHub } from './plugin-events.js';

interface BridgeContextValue {
  client: BridgeClient;
  hub: PluginEventHub;
}

const BridgeContext = createContext<BridgeContextValue | undefined>(undefined);

export function BridgeProvider({ value, children }: { value: BridgeContextValue; children: ReactNode }) {
  return <BridgeContext.Provider value={value}>{children}</BridgeContext.Provider>;
}

export function useBridge(): BridgeContextValue {
  const value = useContext(BridgeContext);
  if (!value) throw new Error('useBridge needs a <BridgeProvider> above it');
  return value;
}
