import { z } from 'zod';
import { buildDebugBundle, DebugBundleSchema, summarizeDebugBundle } from '../../../shared/debug-bundle.js';
import type { SessionInfo } from '../../../shared/session.js';
import { defineTool, ToolArgumentError, ToolError } from '../../../shared/tool.js';
import type { PluginHost } from '../plugin-host.js';
import type { SessionRegistry } from '../sessions.js';

const label = (s: SessionInfo) => `${s.id} (${s.app.name} on ${s.device.name})`;

/**
 * The session a bundle is about: the one named; else the only connected app; else, with none
 * connected, the one that left last (what it captured is still there).
 */
function pickSession(sessions: SessionRegistry, sessionId: string | undefined): SessionInfo {
  if (sessionId !== undefined) {
    const named = sessions.get(sessionId)?.info;
    if (!named) {
      throw new ToolArgumentError(
        `there is no session "${sessionId}"; call inspector_list_sessions to see them, or leave sessionId out`,
      );
    }
    return named;
  }
  const all = sessions.list();
  const active = all.filter((s) => s.active);
  if (active.length === 1) return active[0]!;
  if (active.length > 1) {
    throw new ToolArgumentError(
      `${active.length} apps are connected; pass sessionId to choose one of: ${active
        .slice(0, 10)
        .map(label)
        .join(', ')}${active.length > 10 ? ` and ${active.length - 10} more (inspector_list_sessions)` : ''}`,
    );
  }
  const latest = [...all].sort((a, b) => (b.disconnectedAt ?? 0) - (a.disconnectedAt ?? 0))[0];
  if (!latest) {
    throw new ToolError(
      'no app has connected to this inspector yet: start the app that embeds the Porthole agent (connect({ url, plugins })), reproduce the problem, and call inspector_debug_bundle again',
    );
  }
  return latest;
}

/** `inspector_debug_bundle`: the first call when something is wrong. */
export function createDebugBundleTool(deps: { sessions: SessionRegistry; plugins: PluginHost }) {
  return defineTool({
    name: 'inspector_debug_bundle',
    alwaysLoad: true,
    maxResultSizeChars: 30_000,
    title: 'Debug bundle: what went wrong',
    description:
      'Start here when the app is broken: recent errors grouped, each with the failed and slow requests and console lines around it in time; page loads; mock rules in force. At most 25 KB; each ref leads to its detail tool.',
    input: z.object({
      sessionId: z
        .string()
        .min(1)
        .max(200)
        .optional()
        .describe('The app; optional with one connected (else the one that left last).'),
      since: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe('Only what happened at or after this time (ms since the epoch).'),
    }),
    output: DebugBundleSchema,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    summarize: summarizeDebugBundle,
    async handler({ sessionId, since }) {
      const session = pickSession(deps.sessions, sessionId);
      const timeline = deps.plugins.timeline(session.id);
      return buildDebugBundle(
        { id: session.id, app: session.app.name, active: session.active },
        { since },
        {
          timeline: (query) => timeline.query(query),
          contributions: await deps.plugins.debugContributions(session.id, { since }),
        },
      );
    },
  });
}
