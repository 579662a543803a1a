import { z } from 'zod';
import { RequestError } from '../../../shared/protocol/messenger.js';
import { definePluginTool, ToolError } from '../../../shared/tool.js';
import { ToolResult } from '../../../shared/tool-result.js';
import type { Screenshot } from '../protocol.js';

/** What the example tools use of the example plugin's host instance (ExampleHost in index.ts). */
export interface ExampleToolTarget {
  ping(signal?: AbortSignal): Promise<{ roundTripMs: number; agentTime: number }>;
  echo(text: string, signal?: AbortSignal): Promise<string>;
  captureScreenshot(signal?: AbortSignal): Promise<Screenshot>;
}

const tool = definePluginTool<ExampleToolTarget>();

/** A failed debuggee request as a ToolError saying what failed; a cancellation stays a cancellation. */
function debuggeeFailure(what: string, error: unknown): unknown {
  if (error instanceof RequestError && error.code === 'cancelled') return error;
  return new ToolError(`${what}: ${error instanceof Error ? error.message : String(error)}`);
}

export const sendPing = tool({
  name: 'example_send_ping',
  title: 'Ping the app',
  description:
    'Sends a ping to the app through the example plugin and measures the round trip. Use it to check that the app is connected and responsive.',
  input: z.object({}),
  output: z.object({
    roundTripMs: z.number().describe('Time from sending the ping to receiving the answer, in milliseconds.'),
    agentTime: z.number().describe("The app's clock when it answered, in ms since the epoch."),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (_args, { instance, signal }) => {
    try {
      return await instance.ping(signal);
    } catch (e) {
      throw debuggeeFailure('the debuggee did not answer ping', e);
    }
  },
});

export const echo = tool({
  name: 'example_echo',
  title: 'Echo text through the app',
  description: 'Sends text to the app, which sends it straight back. Answers with the text the app returned.',
  input: z.object({ text: z.string().max(100_000).describe('The text to send.') }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async ({ text }, { instance, signal }) => {
    try {
      return ToolResult.text(await instance.echo(text, signal));
    } catch (e) {
      throw debuggeeFailure('the debuggee did not echo the text', e);
    }
  },
});

export const captureScreenshot = tool({
  name: 'example_capture_screenshot',
  title: 'Capture a screenshot of the app',
  description:
    "Captures the app's screen as an image: a web page renders its DOM; other apps answer through the captureScreenshot hook they pass to example(). Apps without either answer with a failure that says so.",
  input: z.object({}),
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: async (_args, { instance, signal, session }) => {
    let shot: Screenshot;
    try {
      shot = await instance.captureScreenshot(signal);
    } catch (e) {
      throw debuggeeFailure('the debuggee could not capture a screenshot', e);
    }
    const size = shot.width && shot.height ? ` (${shot.width}×${shot.height})` : '';
    return ToolResult.image(shot.base64, shot.mimeType, `Screenshot of ${session.app.name}${size}`);
  },
});

export const exampleTools = [sendPing, echo, captureScreenshot];
