import { NativeModules, Platform } from 'react-native';
import type { DeviceInfo } from '../shared/protocol/messages.js';
import { type Agent, type AgentStatus, type ConnectOptions, connect as connectAgent } from './connection.js';
import { randomId } from './device.js';

export { definePluginProtocol } from '../shared/plugin-protocol.js';
export { RequestError } from '../shared/protocol/request-error.js';
export { type Agent, type AgentState, type AgentStatus, DEFAULT_URL } from './connection.js';
export { type AgentPlugin, type AgentPluginContext, defineAgentPlugin } from './plugin.js';

// connect() in a React Native app (the package's `react-native` condition picks this file): the
// device is named from the platform's constants, its id is kept in the storage the app passes (an
// AsyncStorage fits) or lasts one run, the inspector is looked for on the machine that serves the
// bundle, and that dev server (Metro) is declared so the inspector may read its source maps.

/** Where the agent keeps this install's device id: AsyncStorage, MMKV, or anything with these two methods. */
export interface DeviceIdStorage {
  getItem(key: string): Promise<string | null | undefined> | string | null | undefined;
  setItem(key: string, value: string): Promise<unknown> | unknown;
}

export interface ReactNativeConnectOptions extends Omit<ConnectOptions, 'url'> {
  /**
   * The inspector's debuggee link. Default: port 7360 on the machine Metro serves the bundle from
   * (10.0.2.2 from an Android emulator, localhost from an iOS simulator or after `adb reverse`).
   */
  url?: string;
  /** Keeps the device id across launches (two simulators are two devices either way). Without it the id lasts one run. */
  storage?: DeviceIdStorage;
}

/** The oldest React Native the agent runs on: Hermes there has TextEncoder, which the agent's frames need. */
const MINIMUM = { major: 0, minor: 74 };
const ID_KEY = 'porthole.deviceId';

interface Constants {
  reactNativeVersion?: { major: number; minor: number; patch: number; prerelease?: string | null };
  Brand?: string;
  Model?: string;
  Release?: string;
  systemName?: string;
  osVersion?: string;
  interfaceIdiom?: string;
}

export function connect(options: ReactNativeConnectOptions): Agent {
  const problem = unsupported();
  if (problem) return refused(problem, options);
  const server = devServer();
  const device: Partial<DeviceInfo> = {
    ...platformDevice(),
    ...(server ? { devServer: server.origin } : {}),
    ...options.device,
  };
  const url = options.url ?? `ws://${server?.host ?? '127.0.0.1'}:7360`;
  const start = (id: string) => connectAgent({ ...options, url, device: { ...device, id } });
  if (options.device?.id || !options.storage) return start(options.device?.id ?? `rn-${randomId()}`);
  const storage = options.storage;
  return deferred(
    Promise.resolve()
      .then(() => storage.getItem(ID_KEY))
      .then(async (stored) => {
        if (stored) return stored;
        const id = `rn-${randomId()}`;
        await storage.setItem(ID_KEY, id);
        return id;
      })
      .catch(() => `rn-${randomId()}`)
      .then(start),
  );
}

function constants(): Constants {
  try {
    return (Platform.constants ?? {}) as Constants;
  } catch {
    return {};
  }
}

/** Why this runtime cannot run the agent, or undefined. */
function unsupported(): string | undefined {
  const v = constants().reactNativeVersion;
  if (v && (v.major < MINIMUM.major || (v.major === MINIMUM.major && v.minor < MINIMUM.minor))) {
    return `React Native ${v.major}.${v.minor}.${v.patch} is not supported: @porthole/agent needs React Native ${MINIMUM.major}.${MINIMUM.minor} or later (Hermes with TextEncoder); upgrade React Native or leave the agent out of this app`;
  }
  const missing = ['TextEncoder', 'WebSocket', 'Promise'].filter((name) => !(name in globalThis));
  if (missing.length)
    return `this runtime lacks ${missing.join(', ')}, which @porthole/agent needs (React Native 0.74 or later has them)`;
  return undefined;
}

/** An agent that never connects, saying why in its status and once in the console. */
function refused(error: string, options: ReactNativeConnectOptions): Agent {
  console.error(`[porthole] ${error}`);
  for (const plugin of options.plugins ?? []) (plugin as { dispose?: () => void }).dispose?.();
  const status: AgentStatus = { state: 'stopped', attempt: 0, error };
  options.onStatus?.(status);
  return { status, onStatus: () => () => {}, disconnect: () => {} };
}

function platformDevice(): Partial<DeviceInfo> {
  const c = constants();
  const v = c.reactNativeVersion;
  const engine = (globalThis as { HermesInternal?: unknown }).HermesInternal ? 'Hermes' : 'JSC';
  const name =
    Platform.OS === 'android'
      ? `${[c.Brand, c.Model].filter(Boolean).join(' ') || 'Android device'} (Android ${c.Release ?? Platform.Version})`
      : `${c.systemName ?? Platform.OS} ${c.osVersion ?? Platform.Version}${c.interfaceIdiom ? ` (${c.interfaceIdiom})` : ''}`;
  return {
    platform: 'react-native',
    name: name.slice(0, 200),
    runtime: `React Native ${v ? `${v.major}.${v.minor}.${v.patch}` : '?'} on ${Platform.OS} ${Platform.Version}, ${engine}`,
  };
}

/**
 * The machine that serves the bundle, from the bundle's own URL: its host for the inspector's
 * link, its origin for source maps (an Android emulator's 10.0.2.2 and Genymotion's 10.0.3.2 are the
 * computer's loopback, which is where the inspector reads Metro from).
 */
function devServer(): { host: string; origin: string } | undefined {
  try {
    const source = NativeModules.SourceCode as
      | { getConstants?(): { scriptURL?: string }; scriptURL?: string }
      | undefined;
    const script = source?.getConstants?.().scriptURL ?? source?.scriptURL;
    const m = script && /^(https?):\/\/([^/:]+|\[[^\]]+\])(?::(\d+))?\//.exec(script);
    if (!m) return undefined;
    const host = m[2]!;
    const local = host === '10.0.2.2' || host === '10.0.3.2' ? '127.0.0.1' : host;
    return { host, origin: `${m[1]}://${local}${m[3] ? `:${m[3]}` : ''}` };
  } catch {
    return undefined;
  }
}

/** An Agent whose connection starts once its device id is known (read from the app's storage). */
function deferred(started: Promise<Agent>): Agent {
  const listeners = new Set<(status: AgentStatus) => void>();
  let current: AgentStatus = { state: 'connecting', attempt: 0 };
  let real: Agent | undefined;
  let stopped = false;
  void started.then((agent) => {
    real = agent;
    if (stopped) return agent.disconnect();
    const forward = (status: AgentStatus) => {
      current = status;
      for (const listener of listeners) listener(status);
    };
    forward(agent.status);
    agent.onStatus(forward);
  });
  return {
    get status() {
      return current;
    },
    onStatus(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    disconnect() {
      stopped = true;
      real?.disconnect();
    },
  };
}
