import { z } from 'zod';

import type { MESSAGE_TYPES, RETRYABLE_REJECT_REASONS, SESSION_FRAME_TYPES } from './frame-types.js';
import { Limits } from './limits.js';

export {
  MESSAGE_TYPES,
  PROTOCOL_VERSION,
  RETRYABLE_REJECT_REASONS,
  SESSION_FRAME_TYPES,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './frame-types.js';

const id = z.string().min(1).max(200);
const pluginId = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'plugin ids are lowercase letters, digits and dashes');
const version = z.string().min(1).max(64);

export const PluginOfferSchema = z.object({ id: pluginId, version });
export type PluginOffer = z.infer<typeof PluginOfferSchema>;

export const PlatformSchema = z.enum(['browser', 'node', 'react-native', 'electron', 'other']);
export type Platform = z.infer<typeof PlatformSchema>;

export const AppInfoSchema = z.object({
  id,
  name: z.string().min(1).max(200),
  version: version.optional(),
  /** A small icon as a data: URL (PNG/SVG), shown in the sessions list. */
  icon: z
    .string()
    .max(64 * 1024)
    .optional(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

export const DeviceInfoSchema = z.object({
  id,
  name: z.string().min(1).max(200),
  platform: PlatformSchema,
  /** Free-form runtime description, e.g. a user agent or "node v22.1.0 linux". */
  runtime: z.string().max(500).optional(),
  /** Browser debuggees: the page this session runs in, so two tabs of one app can be told apart. */
  page: z.object({ title: z.string().max(300).optional(), url: z.string().max(2048).optional() }).optional(),
  /** Node and Electron debuggees: the process id, so two processes of one app can be told apart. */
  pid: z.number().int().nonnegative().optional(),
  /**
   * The dev server that serves the app's scripts (Metro, a Vite server behind a Node app), as
   * `http(s)://host:port`: an app on this machine that is not a browser page may have its scripts'
   * source maps fetched from there.
   */
  devServer: z.string().max(2048).optional(),
});
export type DeviceInfo = z.infer<typeof DeviceInfoSchema>;

export const LoadSchema = z.object({
  id: z.string().min(1).max(64),
  /** When the run began (a page's navigation start, a process's start), ms since the epoch. */
  startedAt: z.number(),
});

export const HelloSchema = z.object({
  type: z.literal('hello'),
  protocolVersion: z.number().int(),
  app: AppInfoSchema,
  device: DeviceInfoSchema,
  plugins: z.array(PluginOfferSchema).max(64),
  /**
   * This run of the app: a page load or a process start. Same id on every reconnect of one run, a
   * new id after a reload or restart, so the inspector can mark loads as boundaries.
   */
  load: LoadSchema.optional(),
  /** Present on reconnect: the session to resume and the secret the welcome handed out. */
  resume: z.object({ sessionId: id, secret: z.string().min(1).max(200) }).optional(),
  /** Notifications dropped from the offline buffer since the last connection, per plugin id. */
  dropped: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** Required when the inspector accepts LAN connections and this peer is not on loopback. */
  pairingToken: z.string().max(200).optional(),
});
export type Hello = z.infer<typeof HelloSchema>;

export const IncompatiblePluginSchema = PluginOfferSchema.extend({ reason: z.string() });
/**
 * A plugin the inspector runs for this session: the agent's offer, and the version the inspector
 * speaks (inspectors before it said none), so that an agent sends what a newer minor added only to
 * an inspector that reads it.
 */
export const AcceptedPluginSchema = PluginOfferSchema.extend({ host: version.optional() });

export const WelcomeSchema = z.object({
  type: z.literal('welcome'),
  protocolVersion: z.number().int(),
  sessionId: id,
  resumeSecret: z.string(),
  resumed: z.boolean(),
  plugins: z.object({
    accepted: z.array(AcceptedPluginSchema),
    incompatible: z.array(IncompatiblePluginSchema),
  }),
  heartbeatIntervalMs: z.number().int().positive(),
  maxFrameBytes: z.number().int().positive(),
  /** The host accepts `batch` frames; an agent sends them only when this is true. */
  batches: z.boolean().optional(),
  /** The host accepts binary notifications (notifications with bytes attached); an agent sends them only when this is true. */
  binaryNotifications: z.boolean().optional(),
});
export type Welcome = z.infer<typeof WelcomeSchema>;

export const RejectReasonSchema = z.enum([
  'unsupported-version',
  'invalid-hello',
  'pairing-required',
  'shutting-down',
  'too-many-sessions',
]);
export type RejectReason = z.infer<typeof RejectReasonSchema>;

export const RejectSchema = z.object({
  type: z.literal('reject'),
  reason: RejectReasonSchema,
  message: z.string(),
  supportedVersions: z.array(z.number().int()),
});
export type Reject = z.infer<typeof RejectSchema>;

export const NotificationSchema = z.object({
  type: z.literal('notification'),
  plugin: pluginId,
  method: z.string().min(1).max(100),
  params: z.unknown().optional(),
});
export type Notification = z.infer<typeof NotificationSchema>;

/** Notifications made close together, in the order they were made: one frame, one socket write. */
export const BatchSchema = z.object({
  type: z.literal('batch'),
  frames: z.array(NotificationSchema).min(1).max(Limits.maxBatchFrames),
});
export type Batch = z.infer<typeof BatchSchema>;

export const RequestSchema = z.object({
  type: z.literal('request'),
  id,
  plugin: pluginId,
  method: z.string().min(1).max(100),
  params: z.unknown().optional(),
  /** How long the sender will wait; the handler may give up after it. */
  timeoutMs: z.number().int().positive().optional(),
});
export type Request = z.infer<typeof RequestSchema>;

export const ReplyOkSchema = z.object({
  type: z.literal('reply-ok'),
  id,
  result: z.unknown().optional(),
});
export type ReplyOk = z.infer<typeof ReplyOkSchema>;

/** Why a request failed. The first four are raised by the messenger itself, never by a handler. */
export const RequestErrorCodeSchema = z.enum([
  'peer-gone',
  'plugin-not-active',
  'no-handler',
  'timeout',
  'too-many-requests',
  'invalid-params',
  'handler-error',
  'cancelled',
  'frame-too-large',
]);
export type RequestErrorCode = z.infer<typeof RequestErrorCodeSchema>;

export const ReplyErrorSchema = z.object({
  type: z.literal('reply-error'),
  id,
  error: z.object({
    code: RequestErrorCodeSchema,
    message: z.string(),
    data: z.unknown().optional(),
  }),
});
export type ReplyError = z.infer<typeof ReplyErrorSchema>;

export const CancelSchema = z.object({ type: z.literal('cancel'), id });
export type Cancel = z.infer<typeof CancelSchema>;

export const HeartbeatSchema = z.object({ type: z.literal('heartbeat'), t: z.number() });
export type Heartbeat = z.infer<typeof HeartbeatSchema>;

export const ProtocolErrorCodeSchema = z.enum([
  'malformed-json',
  'invalid-message',
  'unknown-type',
  'unknown-correlation-id',
  'unexpected-message',
]);
export type ProtocolErrorCode = z.infer<typeof ProtocolErrorCodeSchema>;

export const ProtocolErrorSchema = z.object({
  type: z.literal('protocol-error'),
  code: ProtocolErrorCodeSchema,
  message: z.string(),
  /** The correlation id the offending frame carried, when it had one. */
  id: z.string().optional(),
});
export type ProtocolError = z.infer<typeof ProtocolErrorSchema>;

export const MessageSchema = z.discriminatedUnion('type', [
  HelloSchema,
  WelcomeSchema,
  RejectSchema,
  NotificationSchema,
  BatchSchema,
  RequestSchema,
  ReplyOkSchema,
  ReplyErrorSchema,
  CancelSchema,
  HeartbeatSchema,
  ProtocolErrorSchema,
]);
export type Message = z.infer<typeof MessageSchema>;
export type MessageType = Message['type'];

/** Frames exchanged after the handshake, in either direction. */
export type SessionFrame = Notification | Batch | Request | ReplyOk | ReplyError | Cancel | Heartbeat | ProtocolError;

// frame-types.ts lists the types without zod; a type missing there, or one too many, fails here.
type Listed = (typeof MESSAGE_TYPES)[number];
type SessionListed = (typeof SESSION_FRAME_TYPES)[number];
const exact = <A, B>(ok: [A] extends [B] ? ([B] extends [A] ? true : false) : false) => ok;
exact<Listed, MessageType>(true);
exact<SessionListed, SessionFrame['type']>(true);
exact<(typeof RETRYABLE_REJECT_REASONS)[number] extends RejectReason ? true : false, true>(true);
