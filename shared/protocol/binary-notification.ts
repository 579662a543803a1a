import { type Attached, type AttachmentSpec, HEADER_LENGTH_BYTES } from './attachment.js';
import { encodeTallied, FrameTooLargeError } from './frame.js';
import type { Notification } from './messages.js';

const encoder = new TextEncoder();

/**
 * The binary frame for a notification with bytes, in parts: the header (its length, then its JSON),
 * then the attached bytes as they are. Joined, they are the frame; a sender that can write a message
 * in fragments writes them without joining. Throws a FrameLimitError as encode() does.
 */
export function binaryNotificationParts(frame: Notification, attached: Attached, maxBytes: number): Uint8Array[] {
  const spec: AttachmentSpec = { path: attached.path, as: attached.as };
  const { text } = encodeTallied({ ...frame, attachment: spec } as Notification, maxBytes);
  const json = encoder.encode(text);
  const total = HEADER_LENGTH_BYTES + json.byteLength + attached.size;
  if (total > maxBytes) throw new FrameTooLargeError(total, maxBytes);
  const header = new Uint8Array(HEADER_LENGTH_BYTES + json.byteLength);
  new DataView(header.buffer).setUint32(0, json.byteLength);
  header.set(json, HEADER_LENGTH_BYTES);
  return [header, ...attached.chunks];
}
