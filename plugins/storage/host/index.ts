import { definePlugin, type HostPluginContext } from '../../../shared/host-plugin.js';
import { executeTool, parseToolArguments } from '../../../shared/tool-runner.js';
import type { StorageProtocol } from '../protocol.js';
import { storageProtocol } from '../protocol.js';
import type { StorageHost } from './host-api.js';
import { getValue, storageTools } from './tools.js';
import { viewOf } from './view.js';

/** How long the app may take to answer (a page of a large IndexedDB store, every database listed). */
const APP_TIMEOUT_MS = 20_000;
/** Characters of a value the panel gets at once. */
export const PANEL_CHARS = 200_000;

export function createStorageHost(ctx: HostPluginContext<StorageProtocol>): StorageHost {
  const options = (signal?: AbortSignal) => ({ signal, timeoutMs: APP_TIMEOUT_MS });
  const host: StorageHost = {
    notifications: {
      changed: (changes) => ctx.emit('changed', changes),
    },
    panel: {
      areas: async (_params, signal) => ({ areas: await host.areas(signal) }),
      keys: (params, signal) => host.keys(params, signal),
      get: async ({ area, key }, signal) => {
        const { entries } = await host.get({ area, key, maxChars: PANEL_CHARS }, signal);
        return viewOf(area, entries[0] ?? { key, found: false });
      },
      agentView: (args, signal) => agentView(host, ctx, args, signal),
      set: ({ area, key, value }, signal) => host.set({ area, key, value, maxChars: PANEL_CHARS }, signal),
      remove: ({ area, key, clear }, signal) => host.remove({ area, key, clear, maxChars: PANEL_CHARS }, signal),
    },
    areas: async (signal) => (await ctx.request('areas', {}, options(signal))).areas,
    keys: (params, signal) => ctx.request('keys', params, options(signal)),
    get: (params, signal) => ctx.request('get', params, options(signal)),
    set: (params, signal) => ctx.request('set', params, options(signal)),
    remove: (params, signal) => ctx.request('remove', params, options(signal)),
    saveExport: (fileName, text) => ctx.saveExport(fileName, text),
  };
  return host;
}

/** storage_get's structuredContent for an MCP client: the tool itself, run as MCP runs it. */
async function agentView(
  host: StorageHost,
  ctx: HostPluginContext<StorageProtocol>,
  args: { area: string; key: string },
  signal: AbortSignal,
): Promise<{ answer: Record<string, unknown> }> {
  const parsed = parseToolArguments(getValue.name, getValue.input, args);
  if (!parsed.ok) throw new Error(parsed.message);
  const call = { surface: 'mcp-http' as const, signal, instance: host, session: ctx.session() };
  const outcome = await executeTool(getValue, parsed.args, call);
  const answer = outcome.result.structuredContent;
  if (!answer) throw new Error(`storage_get did not answer: ${outcome.result.textContent}`);
  return { answer };
}

export default definePlugin({
  protocol: storageProtocol,
  title: 'Storage',
  create: createStorageHost,
  tools: storageTools,
});
