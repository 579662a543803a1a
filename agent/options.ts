import type { AppInfo, DeviceInfo, Welcome } from '../shared/protocol/messages.js';
import type { AgentPlugin } from './plugin.js';
import type { WebSocketConstructor } from './websocket.js';

export const DEFAULT_URL = 'ws://127.0.0.1:7360';

export interface ConnectOptions {
  app: AppInfo;
  plugins?: AgentPlugin[];
  /** The inspector's debuggee link. Default: $PORTHOLE_URL in Node, else ws://127.0.0.1:7360. */
  url?: string;
  device?: Partial<DeviceInfo>;
  /** Needed only when the inspector accepts LAN connections and this app is not on the same machine. */
  pairingToken?: string;
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number };
  /** Notifications kept per plugin while offline; the oldest are dropped beyond it. Default 1000. */
  offlineBufferSize?: number;
  /** Estimated bytes of notifications kept per plugin while offline; the oldest are dropped beyond it. Default 8 MiB. */
  offlineBufferBytes?: number;
  /** A WebSocket implementation, where the platform has none and `ws` cannot be imported. */
  WebSocket?: WebSocketConstructor;
  onStatus?: (status: AgentStatus) => void;
  /**
   * false: no connection, no capture; the plugins given are disposed. Also off when the environment
   * has PORTHOLE=off. To keep the agent out of a production bundle altogether, import it in a branch
   * the bundler drops (README, "Keep it out of production").
   */
  enabled?: boolean;
}

export type AgentState = 'connecting' | 'connected' | 'waiting' | 'stopped';

export interface AgentStatus {
  state: AgentState;
  sessionId?: string;
  /** Connection attempts since the last success. */
  attempt: number;
  /** When waiting: how long until the next attempt. */
  retryInMs?: number;
  /** What went wrong last, if anything. */
  error?: string;
  /** Plugins the inspector refused, with its reasons. */
  incompatiblePlugins?: Welcome['plugins']['incompatible'];
}

export interface Agent {
  readonly status: AgentStatus;
  /** Subscribes to status changes; returns the unsubscribe function. */
  onStatus(listener: (status: AgentStatus) => void): () => void;
  /** Closes the connection and stops reconnecting. */
  disconnect(): void;
}

export function env(name: string): string | undefined {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
}
