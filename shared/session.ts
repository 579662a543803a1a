import { z } from 'zod';
import { AppInfoSchema, DeviceInfoSchema, IncompatiblePluginSchema, PluginOfferSchema } from './protocol/messages.js';

export const ConnectionSecuritySchema = z.enum(['loopback', 'lan']);
export type ConnectionSecurity = z.infer<typeof ConnectionSecuritySchema>;

/** What the inspector knows about one debuggee session, as the UI and MCP tools see it. */
export const SessionInfoSchema = z.object({
  id: z.string(),
  app: AppInfoSchema,
  device: DeviceInfoSchema,
  active: z.boolean(),
  security: ConnectionSecuritySchema,
  remoteAddress: z.string(),
  plugins: z.object({
    accepted: z.array(PluginOfferSchema),
    incompatible: z.array(IncompatiblePluginSchema),
  }),
  firstConnectedAt: z.number(),
  lastConnectedAt: z.number(),
  disconnectedAt: z.number().optional(),
  connections: z.number().int(),
  protocolErrors: z.number().int(),
  droppedNotifications: z.number().int(),
  /**
   * The app's current run (page load or process start) and its number in this session: 1 for the
   * first, +1 for each reload or restart that resumed the session. Absent for agents that do not say.
   */
  load: z.object({ seq: z.number().int().positive(), id: z.string(), startedAt: z.number() }).optional(),
  /** A session with no app behind it: data read from a file (an imported HAR), never connected. */
  offline: z.object({ source: z.string().max(500) }).optional(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;
