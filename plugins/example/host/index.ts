import { definePlugin, type HostPluginContext, type HostPluginInstance } from '../../../shared/host-plugin.js';
import { exampleProtocol, type LogEntry, type Screenshot } from '../protocol.js';
import { exampleTools } from './tools.js';

const LOG_CAPACITY = 1000;

export interface ExampleHost extends HostPluginInstance<typeof exampleProtocol> {
  ping(signal?: AbortSignal): Promise<{ roundTripMs: number; agentTime: number }>;
  echo(text: string, signal?: AbortSignal): Promise<string>;
  captureScreenshot(signal?: AbortSignal): Promise<Screenshot>;
  /** The event log the app sent, oldest first; bounded, the oldest entries go first. */
  log(): LogEntry[];
}

export function createExampleHost(ctx: HostPluginContext<typeof exampleProtocol>): ExampleHost {
  const entries: LogEntry[] = [];
  const host: ExampleHost = {
    notifications: {
      log(entry) {
        entries.push(entry);
        if (entries.length > LOG_CAPACITY) entries.shift();
        ctx.emit('log', entry);
      },
    },
    async ping(signal) {
      const started = performance.now();
      const { agentTime } = await ctx.request('ping', { sentAt: Date.now() }, { signal });
      return { roundTripMs: Math.round((performance.now() - started) * 100) / 100, agentTime };
    },
    async echo(text, signal) {
      return (await ctx.request('echo', { text }, { signal })).text;
    },
    captureScreenshot: (signal) => ctx.request('captureScreenshot', {}, { signal, timeoutMs: 20_000 }),
    log: () => [...entries],
    panel: {
      ping: (_params, signal) => host.ping(signal),
      log: () => ({ entries: host.log() }),
      captureScreenshot: (_params, signal) => host.captureScreenshot(signal),
    },
  };
  return host;
}

export default definePlugin<typeof exampleProtocol, ExampleHost>({
  protocol: exampleProtocol,
  title: 'Example',
  create: createExampleHost,
  tools: exampleTools,
});
