import { z } from 'zod';
import { definePlugin, type HostPluginContext, type HostPluginInstance } from '../../../shared/host-plugin.js';
import { imageMismatch } from '../../../shared/image-bytes.js';
import { RequestError } from '../../../shared/protocol/messenger.js';
import { definePluginTool, ToolError } from '../../../shared/tool.js';
import { describeRequestError } from '../../../shared/tool-runner.js';
import { exampleProtocol, type LogEntry, type Screenshot } from '../protocol.js';

const LOG_CAPACITY = 1000;
const LOG_BYTES = 8 * 1024 * 1024;

/** One per session: asks the app's example plugin, and keeps the log entries it sends. */
export interface ExampleHost extends HostPluginInstance<typeof exampleProtocol> {
  ping(signal?: AbortSignal): Promise<{ roundTripMs: number; agentTime: number }>;
  echo(text: string, signal?: AbortSignal): Promise<string>;
  captureScreenshot(signal?: AbortSignal): Promise<Screenshot>;
  /** The log the app sent, oldest first: the newest 1000 entries within 8 MiB and the memory budget. */
  log(): LogEntry[];
  /** Entries dropped as the oldest since the session began. */
  dropped(): { count: number; bytes: number };
}

export function createExampleHost(ctx: HostPluginContext<typeof exampleProtocol>): ExampleHost {
  const entries = ctx.records.open<LogEntry>('log', { maxCount: LOG_CAPACITY, maxBytes: LOG_BYTES, persist: true });
  let seq = 0;
  for (const [key] of entries.entries()) seq = Math.max(seq, Number(key) + 1 || 0);
  const ping = async (signal?: AbortSignal) => {
    const started = performance.now();
    const { agentTime } = await ctx.request('ping', { sentAt: Date.now() }, { signal });
    return { roundTripMs: Math.round((performance.now() - started) * 100) / 100, agentTime };
  };
  const captureScreenshot = async (signal?: AbortSignal) => {
    const shot = await ctx.request('captureScreenshot', {}, { signal, timeoutMs: 20_000 });
    // A label the bytes do not bear out would be shown (and handed to an agent) as what it is not.
    const mismatch = imageMismatch(shot.base64, shot.mimeType);
    if (mismatch) {
      throw new Error(
        `the app's screenshot was refused: ${mismatch}; its captureScreenshot hook must return the image's own mimeType (image/png, image/jpeg or image/webp)`,
      );
    }
    return shot;
  };
  return {
    notifications: {
      log(entry) {
        entries.set(String(seq++), entry);
        ctx.emit('log', entry);
      },
    },
    panel: {
      ping: (_params, signal) => ping(signal),
      log: () => ({ entries: [...entries.values()] }),
      captureScreenshot: (_params, signal) => captureScreenshot(signal),
    },
    ping,
    captureScreenshot,
    echo: async (text, signal) => (await ctx.request('echo', { text }, { signal })).text,
    log: () => [...entries.values()],
    dropped: () => ({ ...entries.dropped }),
  };
}

const tool = definePluginTool<ExampleHost>();

/** Awaits a request to the app; its failure becomes a ToolError saying what failed. A cancellation stays one. */
async function fromApp<T>(what: string, request: Promise<T>, sessionId: string): Promise<T> {
  try {
    return await request;
  } catch (e) {
    if (e instanceof RequestError && e.code === 'cancelled') throw e;
    throw new ToolError(
      `${what}: ${e instanceof RequestError ? describeRequestError(e, sessionId) : (e as Error).message}`,
    );
  }
}

const sendPing = tool({
  name: 'example_send_ping',
  title: 'Ping the app',
  description: 'Pings the app and measures the round trip: checks that it is connected and answering.',
  input: z.object({}),
  output: z.object({
    roundTripMs: z.number().describe('Time from sending the ping to receiving the answer, in milliseconds.'),
    agentTime: z.number().describe("The app's clock when it answered, in ms since the epoch."),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  summarize: ({ roundTripMs }) => `The app answered the ping in ${roundTripMs.toFixed(1)} ms.`,
  handler: (_args, { instance, signal, session }) =>
    fromApp('the debuggee did not answer ping', instance.ping(signal), session.id),
});

const echo = tool({
  name: 'example_echo',
  title: 'Echo text through the app',
  description: 'Sends text to the app, which sends it straight back. Answers with the text the app returned.',
  input: z.object({ text: z.string().max(100_000).describe('The text to send.') }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: ({ text }, { instance, signal, session }) =>
    fromApp('the debuggee did not echo the text', instance.echo(text, signal), session.id),
});

export const exampleTools = [sendPing, echo];

export default definePlugin({
  protocol: exampleProtocol,
  title: 'Example',
  create: createExampleHost,
  tools: exampleTools,
});
