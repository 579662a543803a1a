import { definePlugin, type HostPluginContext } from '../../../shared/host-plugin.js';
import { RequestError } from '../../../shared/protocol/messenger.js';
import { ToolArgumentError } from '../../../shared/tool.js';
import { reactProtocol, type Status } from '../protocol.js';
import type { ReactHost } from './host-api.js';
import { mapSources } from './sources.js';
import { reactTools } from './tools.js';

export type { ReactHost };

export function createReactHost(ctx: HostPluginContext<typeof reactProtocol>): ReactHost {
  let status: Status | undefined;
  const ask: ReactHost['ask'] = async (method, params, signal) => {
    try {
      return await ctx.request(method, params, { signal, timeoutMs: 15_000 });
    } catch (e) {
      // The app's refusal (an unmounted id, no such name) is the caller's to fix: say it as the app said it.
      if (e instanceof RequestError && e.code === 'handler-error') throw new ToolArgumentError(e.message);
      throw e;
    }
  };
  // The panel's inspections and the tool's alike: source places in the app's original files.
  const inspect: ReactHost['inspect'] = async (params, signal) =>
    mapSources(await ask('inspect', params, signal), (frame) => ctx.sourceMaps.map(frame));
  return {
    notifications: {
      status(s) {
        status = s;
        ctx.emit('status', s);
      },
      commits(c) {
        ctx.emit('commits', c);
      },
    },
    panel: {
      tree: (p, signal) => ask('tree', p, signal),
      inspect: (p, signal) => inspect(p, signal),
      renders: (p, signal) => ask('renders', p, signal),
      status: () => ({ status }),
    },
    ask,
    inspect,
    status: () => status,
  };
}

export default definePlugin({
  protocol: reactProtocol,
  title: 'React',
  create: createReactHost,
  tools: reactTools,
});
