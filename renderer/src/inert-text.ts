import type { McpStatus } from '../../shared/bridge.js';
import type { SessionInfo } from '../../shared/session.js';

/** Unicode's bidirectional controls, each with its short name. */
const BIDI_CONTROLS: Record<string, string> = {
  '\u061C': 'ALM',
  '\u200E': 'LRM',
  '\u200F': 'RLM',
  '\u202A': 'LRE',
  '\u202B': 'RLE',
  '\u202C': 'PDF',
  '\u202D': 'LRO',
  '\u202E': 'RLO',
  '\u2066': 'LRI',
  '\u2067': 'RLI',
  '\u2068': 'FSI',
  '\u2069': 'PDI',
};
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * Text an app or a client named itself with, made inert for display: a bidi control (an RLO that
 * would show `evil\u202Etxt.exe` as `evilexe.txt`) is shown as its name in brackets, `[RLO]`.
 */
export function inertText(text: string): string;
export function inertText(text: string | undefined): string | undefined;
export function inertText(text: string | undefined): string | undefined {
  return text?.replace(BIDI, (c) => `[${BIDI_CONTROLS[c]}]`);
}

/** A session with every name the app chose (app, device, page, plugin versions) made inert. */
export function inertSession(session: SessionInfo): SessionInfo {
  const { app, device, plugins } = session;
  return {
    ...session,
    app: { ...app, name: inertText(app.name), version: inertText(app.version) },
    device: {
      ...device,
      name: inertText(device.name),
      runtime: inertText(device.runtime),
      page: device.page && { title: inertText(device.page.title), url: inertText(device.page.url) },
    },
    plugins: {
      accepted: plugins.accepted.map((p) => ({ ...p, version: inertText(p.version) })),
      incompatible: plugins.incompatible.map((p) => ({
        ...p,
        version: inertText(p.version),
        reason: inertText(p.reason),
      })),
    },
    ...(session.offline && { offline: { source: inertText(session.offline.source) } }),
  };
}

/** The MCP status with its clients' names and versions (from their initialize) made inert. */
export function inertMcpStatus(status: McpStatus): McpStatus {
  return {
    ...status,
    clients: status.clients.map((c) => ({ ...c, name: inertText(c.name), version: inertText(c.version) })),
  };
}
