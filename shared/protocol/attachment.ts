import { bytesToBase64, concatBytes } from '../bytes.js';

export { bytesToBase64 };

import type { Notification } from './messages.js';

// A notification with bytes attached (docs/protocol.md, "binary notification"): the bytes leave as
// they are in a binary WebSocket frame, and the host turns them into the string the notification's
// schema expects. What the app's thread would otherwise pay for a large body (base64 or text
// decoding, JSON.stringify and UTF-8 of megabytes) is done by the inspector, in its own process.
// No schemas here: the agent uses this file (and binary-notification.ts, which makes the binary
// frame); the host's checks are in binary-frame.ts.

/** How the host turns the attached bytes into the string at `path`. */
export const ATTACHMENT_KINDS = ['base64', 'utf8', 'utf8-prefix'] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];

/** Where the bytes go: the names of the objects from `params` down to the string, and how they become it. */
export interface AttachmentSpec {
  path: string[];
  as: AttachmentKind;
}

/** The header's length field, in bytes, before the header (binary-notification.ts). */
export const HEADER_LENGTH_BYTES = 4;

export interface Attached extends AttachmentSpec {
  /** The bytes, in pieces (as a body was read); `size` bytes in all. */
  chunks: readonly Uint8Array[];
  size: number;
  /** The same bytes as a Blob (a page's: the browser built it), for a page's socket to send as it is. */
  blob?: Blob;
  /** The bytes are this text's UTF-8, which `blob` holds (`chunks` is then empty). */
  text?: string;
}

/** The string the attached bytes stand for, as the host makes it (and the agent, without binary frames). */
export function attachedText(bytes: Uint8Array, as: AttachmentKind): string {
  if (as === 'base64') return bytesToBase64(bytes);
  // utf8-prefix: the bytes stop where more would follow, so a sequence cut at their end is dropped.
  return new TextDecoder('utf-8').decode(bytes, { stream: as === 'utf8-prefix' });
}

/**
 * Puts `value` at `path` in `params`, where the placeholder (an empty string) is; false when the
 * path does not lead through own properties of objects to an empty string.
 */
export function placeAttached(params: unknown, path: readonly string[], value: string): boolean {
  let at = params;
  for (let i = 0; i < path.length; i++) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return false;
    const name = path[i]!;
    if (!Object.hasOwn(at, name)) return false;
    const record = at as Record<string, unknown>;
    if (i === path.length - 1) {
      if (record[name] !== '') return false;
      Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
      return true;
    }
    at = record[name];
  }
  return false;
}

/** The notification as plain JSON, for a link without binary frames: its bytes encoded here. */
export function inlineAttached(frame: Notification, attached: Attached): Notification {
  const params = structuredPath(frame.params, attached.path);
  const text = attached.text ?? attachedText(concatBytes(attached.chunks, attached.size), attached.as);
  placeAttached(params, attached.path, text);
  return { ...frame, params };
}

/** A copy of `params` down `path` (the objects on the path copied, the rest shared), so the caller's stay as they were. */
function structuredPath(params: unknown, path: readonly string[]): unknown {
  if (typeof params !== 'object' || params === null) return params;
  const top = { ...(params as Record<string, unknown>) };
  let at = top;
  for (const name of path.slice(0, -1)) {
    const next = at[name];
    if (typeof next !== 'object' || next === null) break;
    at[name] = { ...(next as Record<string, unknown>) };
    at = at[name] as Record<string, unknown>;
  }
  return top;
}
