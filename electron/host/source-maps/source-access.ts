import type { SessionInfo } from '../../../shared/session.js';
import type { SourceAccess } from './source-mapper.js';

/**
 * What the inspector may fetch and read to map one session's stack frames (docs/plugins.md,
 * "Source maps"), from how the app connected, never from what its frames name:
 *
 * - an app on the LAN: nothing is fetched or read; only the user's folders are searched;
 * - a browser page on this machine (its WebSocket carried an `Origin`): scripts and maps from that
 *   origin only — the page's own, as the browser stated it;
 * - another app on this machine (Node, Electron, React Native through a simulator): the origins it
 *   declared in its hello (its page URL, its `devServer`), and, unless it runs in a browser or on a
 *   phone, its files on this disk; a React Native app's maps (Metro's) name its files by their
 *   absolute paths on this machine, and its frames are mapped to those paths;
 * - anything else only from maps in the folders the user pointed at (`--source-maps <dir>`).
 */
export function sourceAccessFor(
  info: Pick<SessionInfo, 'security' | 'device'>,
  /** The `Origin` header of the app's WebSocket upgrade (browsers always send one). */
  connectionOrigin: string | undefined,
  folders: readonly string[],
): SourceAccess {
  if (info.security !== 'loopback') return { origins: [], disk: false, folders };
  if (connectionOrigin !== undefined) {
    const origin = httpOrigin(connectionOrigin);
    return { origins: origin ? [origin] : [], disk: false, folders };
  }
  const { device } = info;
  const declared = [device.page?.url, device.devServer].map(httpOrigin).filter((o): o is string => !!o);
  const onThisDisk = device.platform !== 'browser' && device.platform !== 'react-native';
  const metro = device.platform === 'react-native';
  return {
    origins: [...new Set(declared)],
    disk: onThisDisk,
    folders,
    ...(metro ? { absoluteSourcesAreFiles: true } : {}),
  };
}

/** `scheme://host:port` of an http(s) URL, or undefined for anything else (`null`, `file:`, garbage). */
function httpOrigin(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}
