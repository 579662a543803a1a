// The network plugin's plain values, kept apart from protocol.ts so the agent part can import them
// without the schemas (the app's bundle carries no zod). protocol.ts re-exports every one.

export const NETWORK_PROTOCOL_ID = 'network';
export const NETWORK_PROTOCOL_VERSION = '1.1.0';

/** Header names the agent redacts unless told otherwise. */
export const DEFAULT_REDACTED_HEADERS = ['authorization', 'cookie', 'set-cookie', 'proxy-authorization'] as const;
/** What a redacted header value is replaced with. */
export const REDACTED = '[redacted]';
/** Default cap on each captured body, in bytes. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Largest cap an app may configure: a body must fit in one link frame (16 MiB) once base64-encoded. */
export const MAX_BODY_BYTES_LIMIT = 8 * 1024 * 1024;
/** Default cap on what is kept of each WebSocket message or event, in bytes (its size is always counted). */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024;
/** A body this large goes with its notification as bytes (a binary frame); smaller ones are encoded in the app. */
export const ATTACH_BYTES = 32 * 1024;

/** A MockConfig with no rules (typed structurally: this file imports nothing). */
export const EMPTY_MOCK_CONFIG: { revision: number; enabled: boolean; rules: never[] } = {
  revision: 0,
  enabled: true,
  rules: [],
};
