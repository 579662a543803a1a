import { z } from 'zod';
import { describeIssues } from '../zod-issues.js';
import { ATTACHMENT_KINDS, attachedText, HEADER_LENGTH_BYTES, placeAttached } from './attachment.js';
import { validateMessage } from './codec.js';
import { boundMessage, type Decoded, decodeFrame } from './frame.js';
import type { ProtocolError } from './messages.js';

// The inspector's reading of a binary frame (docs/protocol.md, "binary notification"): as strict as
// a text frame's, the same budget, parse and schema checks on its JSON header, then the attachment's.

/** `attachment` in a binary frame's header. */
export const AttachmentSpecSchema = z.strictObject({
  path: z.array(z.string().min(1).max(100)).min(1).max(8),
  as: z.enum(ATTACHMENT_KINDS),
});

// A BOM is kept, so a header that starts with one is not JSON, as a text frame that does is not.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Parses a binary frame into the notification it stands for, its bytes put in place; never throws. */
export function decodeBinaryFrame(data: Uint8Array): Decoded {
  if (data.byteLength < HEADER_LENGTH_BYTES) return fail('a binary frame starts with its 4-byte header length');
  const headerBytes = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(0);
  const bytesAt = HEADER_LENGTH_BYTES + headerBytes;
  if (bytesAt > data.byteLength) {
    return fail(`the binary frame's header length (${headerBytes}) runs past its end (${data.byteLength} bytes)`);
  }
  let header: string;
  try {
    header = utf8.decode(data.subarray(HEADER_LENGTH_BYTES, bytesAt));
  } catch {
    return fail("the binary frame's header is not UTF-8");
  }
  let spec: z.infer<typeof AttachmentSpecSchema> | undefined;
  const decoded = decodeFrame(
    header,
    (record) => {
      const parsed = AttachmentSpecSchema.safeParse(record.attachment);
      if (!parsed.success) return { ok: false, issue: `attachment: ${describeIssues(parsed.error)}` };
      spec = parsed.data;
      const { attachment: _, ...frame } = record;
      return validateMessage(frame);
    },
    { accept: ['notification'] },
  );
  if (!decoded.ok || !spec || decoded.message.type !== 'notification') return decoded;
  const message = decoded.message;
  const text = attachedText(data.subarray(bytesAt), spec.as);
  if (!placeAttached(message.params, spec.path, text)) {
    return fail('invalid binary notification: attachment.path must lead through objects in params to an empty string');
  }
  return decoded;
}

function fail(message: string): Decoded {
  const error: ProtocolError = { type: 'protocol-error', code: 'invalid-message', message: boundMessage(message) };
  return { ok: false, error, answer: true };
}
