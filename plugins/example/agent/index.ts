import { defineAgentPlugin, type ProtocolRef } from '../../../agent/plugin.js';
import { RequestError } from '../../../shared/protocol/request-error.js';
import type { exampleProtocol, LogEntry, Screenshot } from '../protocol.js';

const protocol: ProtocolRef<typeof exampleProtocol> = { id: 'example', version: '1.0.0' };

export interface ExampleOptions {
  /** Captures the app's screen; defaults to rendering the page's DOM where there is one. */
  captureScreenshot?: () => Promise<Screenshot> | Screenshot;
}

/** The example plugin: answers ping and echo, captures screenshots, and sends log entries to the inspector. */
export function example(options: ExampleOptions = {}) {
  return defineAgentPlugin(protocol, (ctx) => {
    ctx.handle('ping', () => ({ agentTime: Date.now() }));
    ctx.handle('echo', ({ text }) => ({ text }));
    ctx.handle('captureScreenshot', async () =>
      options.captureScreenshot ? await options.captureScreenshot() : await captureDom(),
    );
    return {
      /** Adds an entry to the inspector's event log for this app; kept while offline. */
      log(level: LogEntry['level'], message: string, data?: unknown): void {
        ctx.notify('log', { level, message, data, time: Date.now() });
      },
    };
  });
}

async function captureDom(): Promise<Screenshot> {
  const doc = (globalThis as { document?: Document }).document;
  if (!doc?.documentElement) {
    throw new RequestError(
      'handler-error',
      'this app cannot capture screenshots: it has no DOM; give example({ captureScreenshot }) a function that returns { base64, mimeType }',
    );
  }
  const { domToPng } = await import('modern-screenshot');
  const root = doc.documentElement;
  const width = Math.max(1, Math.min(root.scrollWidth, 4096));
  const height = Math.max(1, Math.min(root.clientHeight || root.scrollHeight, 4096));
  const dataUrl = await domToPng(root, { width, height, backgroundColor: '#ffffff' });
  return { base64: dataUrl.slice(dataUrl.indexOf(',') + 1), mimeType: 'image/png', width, height };
}
