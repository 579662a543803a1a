import { defineAgentPlugin, type ProtocolRef } from '../../../agent/plugin.js';
import type { exampleProtocol, LogEntry, Screenshot } from '../protocol.js';

const protocol: ProtocolRef<typeof exampleProtocol> = { id: 'example', version: '1.0.0' };

export interface ExampleOptions {
  /** Captures the app's screen; defaults to rendering the page's DOM where there is one. */
  captureScreenshot?: () => Promise<Screenshot> | Screenshot;
}

/**
 * The example plugin: answers ping and echo, captures screenshots, and sends log entries to the
 * inspector. `screen` captures when the app gives no captureScreenshot (the DOM, in index.ts).
 */
export function examplePlugin(options: ExampleOptions, screen: () => Promise<Screenshot>) {
  return defineAgentPlugin(protocol, (ctx) => {
    ctx.handle('ping', () => ({ agentTime: Date.now() }));
    ctx.handle('echo', ({ text }) => ({ text }));
    ctx.handle('captureScreenshot', async () =>
      options.captureScreenshot ? await options.captureScreenshot() : await screen(),
    );
    return {
      /** Adds an entry to the inspector's event log for this app; kept while offline. */
      log(level: LogEntry['level'], message: string, data?: unknown): void {
        ctx.notify('log', { level, message, data, time: Date.now() });
      },
    };
  });
}
