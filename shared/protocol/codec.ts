import { describeIssues } from '../zod-issues.js';
import { type Decoded, type DecodeOptions, decodeFrame, type Validate } from './frame.js';
import { MessageSchema } from './messages.js';

export * from './frame.js';

/** The inspector's check of a frame: the protocol's zod schemas. */
export const validateMessage: Validate = (value) => {
  const parsed = MessageSchema.safeParse(value);
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false, issue: describeIssues(parsed.error) };
};

/** Parses and validates one frame against the full schemas (see decodeFrame). */
export function decode(text: string, options: DecodeOptions = {}): Decoded {
  return decodeFrame(text, validateMessage, options);
}
