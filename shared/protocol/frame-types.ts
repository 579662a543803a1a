// The protocol's constants without its schemas, so the agent can use them without bundling zod.
// messages.ts checks them against the schemas.

/** The wire protocol version this build speaks. A peer with another major version is rejected. */
export const PROTOCOL_VERSION = 1;
export const SUPPORTED_PROTOCOL_VERSIONS = [PROTOCOL_VERSION] as const;

/** Frames exchanged after the handshake, in either direction. */
export const SESSION_FRAME_TYPES = [
  'notification',
  'batch',
  'request',
  'reply-ok',
  'reply-error',
  'cancel',
  'heartbeat',
  'protocol-error',
] as const;

/** Every message type: the handshake's, then the session's. */
export const MESSAGE_TYPES = ['hello', 'welcome', 'reject', ...SESSION_FRAME_TYPES] as const;

/** Rejects after which an agent keeps retrying (with its backoff): the refusal is about now, not the app. */
export const RETRYABLE_REJECT_REASONS = ['shutting-down', 'too-many-sessions'] as const;
