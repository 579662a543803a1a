import { z } from 'zod';
import { definePluginProtocol } from '../../shared/plugin-protocol.js';

export const LogLevelSchema = z.enum(['debug', 'info', 'warn', 'error']);

export const LogEntrySchema = z.object({
  level: LogLevelSchema,
  message: z.string().max(10_000),
  data: z.unknown().optional(),
  /** The app's clock, ms since the epoch. */
  time: z.number(),
});
export type LogEntry = z.infer<typeof LogEntrySchema>;

export const ScreenshotSchema = z.object({
  base64: z.string().min(1),
  mimeType: z.enum(['image/png', 'image/jpeg', 'image/webp']),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
});
export type Screenshot = z.infer<typeof ScreenshotSchema>;

export const exampleProtocol = definePluginProtocol({
  id: 'example',
  version: '1.0.0',
  toAgent: {
    requests: {
      ping: { params: z.object({ sentAt: z.number() }), result: z.object({ agentTime: z.number() }) },
      echo: { params: z.object({ text: z.string() }), result: z.object({ text: z.string() }) },
      captureScreenshot: { params: z.object({}), result: ScreenshotSchema },
    },
  },
  toHost: {
    notifications: { log: LogEntrySchema },
  },
  panel: {
    requests: {
      ping: { params: z.object({}), result: z.object({ roundTripMs: z.number(), agentTime: z.number() }) },
      log: { params: z.object({}), result: z.object({ entries: z.array(LogEntrySchema) }) },
      captureScreenshot: { params: z.object({}), result: ScreenshotSchema },
    },
    events: { log: LogEntrySchema },
  },
});
