import type { DeviceInfo, Platform } from '../shared/protocol/messages.js';

interface Globals {
  navigator?: { userAgent?: string; product?: string };
  process?: {
    versions?: { node?: string; electron?: string };
    platform?: string;
    env?: Record<string, string | undefined>;
    pid?: number;
  };
  localStorage?: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  document?: { title?: string };
  location?: { href?: string; hash?: string };
}

const g = globalThis as Globals;

export function detectPlatform(): Platform {
  if (g.navigator?.product === 'ReactNative') return 'react-native';
  if (g.process?.versions?.electron) return 'electron';
  if (g.document !== undefined && g.navigator) return 'browser';
  if (g.process?.versions?.node) return 'node';
  return 'other';
}

/** This device as the inspector lists it; the id is stable across restarts where the platform allows. */
export function detectDevice(override: Partial<DeviceInfo> = {}): DeviceInfo {
  const platform = override.platform ?? detectPlatform();
  const runtime = describeRuntime(platform);
  const page = override.page ?? (platform === 'browser' ? currentPage() : undefined);
  const env = g.process?.env ?? {};
  const pid = override.pid ?? (platform === 'node' || platform === 'electron' ? g.process?.pid : undefined);
  return {
    // Set by a test that starts the app (porthole/node's startService), to find this process's session.
    id: override.id ?? env.PORTHOLE_DEVICE_ID ?? stableDeviceId(platform),
    name: override.name ?? env.PORTHOLE_DEVICE_NAME ?? defaultName(platform),
    platform,
    runtime: override.runtime ?? runtime,
    ...(page ? { page } : {}),
    ...(typeof pid === 'number' ? { pid } : {}),
    ...(override.devServer ? { devServer: override.devServer } : {}),
  };
}

/** The page's title and URL (without the fragment) at connect time. */
function currentPage(): DeviceInfo['page'] {
  const href = g.location?.href;
  const title = g.document?.title?.trim();
  if (!href && !title) return undefined;
  return {
    ...(title ? { title: title.slice(0, 300) } : {}),
    ...(href ? { url: href.split('#')[0]!.slice(0, 2048) } : {}),
  };
}

function describeRuntime(platform: Platform): string | undefined {
  if (platform === 'browser' || platform === 'react-native') return g.navigator?.userAgent?.slice(0, 500);
  const node = g.process?.versions?.node;
  return node ? `node v${node} ${g.process?.platform ?? ''}`.trim() : undefined;
}

function defaultName(platform: Platform): string {
  if (platform === 'browser') {
    const ua = g.navigator?.userAgent ?? '';
    const browser = /Edg\//.test(ua)
      ? 'Edge'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : 'Browser';
    const os = /Windows/.test(ua)
      ? 'Windows'
      : /Mac OS X/.test(ua)
        ? 'macOS'
        : /Android/.test(ua)
          ? 'Android'
          : /iPhone|iPad/.test(ua)
            ? 'iOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : '';
    return os ? `${browser} on ${os}` : browser;
  }
  const env = g.process?.env ?? {};
  const host = env.HOSTNAME ?? env.COMPUTERNAME ?? env.HOST;
  if (platform === 'node' || platform === 'electron')
    return host ? `${host} (${platform})` : `${platform} on ${g.process?.platform ?? 'unknown'}`;
  return platform;
}

function stableDeviceId(platform: Platform): string {
  const key = 'porthole.deviceId';
  try {
    const stored = g.localStorage?.getItem(key);
    if (stored) return stored;
    if (g.localStorage) {
      const id = randomId();
      g.localStorage.setItem(key, id);
      return id;
    }
  } catch {
    // storage can be blocked (private mode, sandboxed iframes)
  }
  const env = g.process?.env ?? {};
  const host = env.HOSTNAME ?? env.COMPUTERNAME ?? env.HOST;
  return host ? `${platform}:${host}` : `${platform}:${g.process?.platform ?? 'unknown'}`;
}

export function randomId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  return c?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
