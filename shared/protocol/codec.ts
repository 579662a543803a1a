import { describeIssues } from '../zod-issues.js';
import { MESSAGE_TYPES, type Message, MessageSchema, type ProtocolError } from './messages.js';

export type Decoded = { ok: true; message: Message } | { ok: false; error: ProtocolError };

const encoder = new TextEncoder();

export function byteLength(text: string): number {
  return encoder.encode(text).length;
}

/** Serializes one message. Throws a FrameTooLargeError when the frame would exceed `maxBytes`. */
export function encode(message: Message, maxBytes = Number.POSITIVE_INFINITY): string {
  const text = JSON.stringify(message);
  // A UTF-16 unit is 1 to 3 bytes of UTF-8, so only frames near the limit are measured exactly.
  if (text.length > maxBytes || (text.length * 3 > maxBytes && byteLength(text) > maxBytes)) {
    throw new FrameTooLargeError(byteLength(text), maxBytes);
  }
  return text;
}

export class FrameTooLargeError extends Error {
  constructor(
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(`frame of ${bytes} bytes exceeds the ${maxBytes}-byte limit`);
    this.name = 'FrameTooLargeError';
  }
}

/** Parses and validates one frame. Never throws: a bad frame becomes the protocol error to answer with. */
export function decode(text: string): Decoded {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return fail('malformed-json', `frame is not JSON: ${(e as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('invalid-message', 'frame must be a JSON object with a "type" field');
  }
  const record = value as Record<string, unknown>;
  const correlationId = typeof record.id === 'string' ? record.id : undefined;
  if (typeof record.type !== 'string' || !(MESSAGE_TYPES as string[]).includes(record.type)) {
    return fail(
      'unknown-type',
      `unknown message type ${JSON.stringify(record.type)}; expected one of ${MESSAGE_TYPES.join(', ')}`,
      correlationId,
    );
  }
  const parsed = MessageSchema.safeParse(value);
  if (!parsed.success) {
    return fail('invalid-message', `invalid ${record.type} frame: ${describeIssues(parsed.error)}`, correlationId);
  }
  return { ok: true, message: parsed.data };
}

function fail(code: ProtocolError['code'], message: string, id?: string): Decoded {
  return { ok: false, error: { type: 'protocol-error', code, message, ...(id ? { id } : {}) } };
}
