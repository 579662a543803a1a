import { FrameLimitError } from './frame-limit-error.js';
import { MESSAGE_TYPES } from './frame-types.js';
import { type JsonTally, overJsonBudget } from './json-budget.js';
import { Limits } from './limits.js';
import type { Message, MessageType, ProtocolError } from './messages.js';

// Framing without schemas: JSON budget, parse, type and place checks, then a validator the caller
// picks (the inspector's zod schemas in codec.ts, the agent's cheap shape check in shape-check.ts).

export type Decoded =
  | { ok: true; message: Message }
  /** `answer` is false when the refused frame was itself a protocol-error: answering one could loop. */
  | { ok: false; error: ProtocolError; answer: boolean };

/** Checks a JSON object whose `type` is known; answers the message, or what is wrong with it in one line. */
export type Validate = (
  value: Record<string, unknown>,
) => { ok: true; message: Message } | { ok: false; issue: string };

export interface DecodeOptions {
  /** The frame types valid at this point of the link; any other is `unexpected-message`, before its schema runs. */
  accept?: readonly MessageType[];
}

export { FrameLimitError };

const FRAME_BUDGET = { maxDepth: Limits.maxDepth, maxValues: Limits.maxValues };
const encoder = new TextEncoder();

export function byteLength(text: string): number {
  return encoder.encode(text).length;
}

export class FrameTooLargeError extends FrameLimitError {
  constructor(
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(`frame of ${bytes} bytes exceeds the ${maxBytes}-byte limit`);
    this.name = 'FrameTooLargeError';
  }
}

/**
 * Serializes one message. Throws a FrameLimitError when the peer would refuse the frame (over
 * `maxBytes`, too deep, too many values) or when it cannot be JSON (a cycle, a BigInt).
 */
export function encode(message: Message, maxBytes = Number.POSITIVE_INFINITY): string {
  return encodeTallied(message, maxBytes).text;
}

/** encode(), also answering how many values and levels the text holds (see Outbox). */
export function encodeTallied(
  message: Message,
  maxBytes = Number.POSITIVE_INFINITY,
): { text: string; tally: JsonTally } {
  let text: string;
  try {
    text = JSON.stringify(message);
  } catch (e) {
    throw new FrameLimitError(`the frame cannot be serialized as JSON: ${(e as Error).message}`);
  }
  // A UTF-16 unit is 1 to 3 bytes of UTF-8, so only frames near the limit are measured exactly.
  if (text.length > maxBytes || (text.length * 3 > maxBytes && byteLength(text) > maxBytes)) {
    throw new FrameTooLargeError(byteLength(text), maxBytes);
  }
  const tally: JsonTally = { values: 0, depth: 0 };
  if (tallyValue(message, 1, tally)) return { text, tally };
  const over = overJsonBudget(text, FRAME_BUDGET, tally);
  if (over) throw new FrameLimitError(`the frame would be refused: ${over}`);
  return { text, tally };
}

/**
 * Tallies what JSON.stringify made of `value` from the value itself, skipping its strings (a text
 * walk pays for every escaped quote in them): at least as many values and levels as the text holds,
 * since only plain objects and arrays are walked and every own key counts (stringify leaves out the
 * undefined ones). False, with the tally unusable, when the value has anything else a text walk must
 * judge (toJSON, class instances) or goes past the budget: the caller then walks the text.
 */
function tallyValue(value: unknown, depth: number, tally: JsonTally): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depth > Limits.maxDepth || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (depth > tally.depth) tally.depth = depth;
  const proto = Object.getPrototypeOf(value);
  if (proto === Array.prototype) {
    const items = value as unknown[];
    if ((tally.values += items.length) > Limits.maxValues) return false;
    for (let i = 0; i < items.length; i++) if (!tallyValue(items[i], depth + 1, tally)) return false;
    return true;
  }
  if (proto !== Object.prototype && proto !== null) return false;
  const record = value as Record<string, unknown>;
  // for-in, not Object.keys(): no array made per object (an enumerable key a polluted
  // Object.prototype adds is counted too, which only overcounts).
  for (const key in record) {
    if (++tally.values > Limits.maxValues || !tallyValue(record[key], depth + 1, tally)) return false;
  }
  return true;
}

/**
 * Parses and validates one frame. Never throws, and its errors never quote the frame: a bad frame
 * becomes the protocol error to answer with, its message at most Limits.maxErrorMessageChars long.
 */
export function decodeFrame(text: string, validate: Validate, options: DecodeOptions = {}): Decoded {
  const over = overJsonBudget(text, FRAME_BUDGET);
  if (over) return fail('invalid-message', `frame refused: ${over}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const position = /position (\d+)/.exec((e as Error).message)?.[1];
    return fail(
      'malformed-json',
      `frame is not JSON${position ? ` (the syntax breaks at character ${position})` : ''}`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('invalid-message', 'frame must be a JSON object with a "type" field');
  }
  const record = value as Record<string, unknown>;
  const id = typeof record.id === 'string' && record.id.length > 0 && record.id.length <= 200 ? record.id : undefined;
  const answer = record.type !== 'protocol-error';
  if (typeof record.type !== 'string' || !(MESSAGE_TYPES as readonly string[]).includes(record.type)) {
    return fail(
      'unknown-type',
      `unknown message type ${describeType(record.type)}; expected one of ${MESSAGE_TYPES.join(', ')}`,
      id,
    );
  }
  const type = record.type as MessageType;
  if (options.accept && !options.accept.includes(type)) {
    return fail(
      'unexpected-message',
      `a ${type} frame is not valid here; expected ${options.accept.join(', ')}`,
      id,
      answer,
    );
  }
  const checked = validate(record);
  if (!checked.ok) return fail('invalid-message', `invalid ${type} frame: ${checked.issue}`, id, answer);
  return checked;
}

/** Cuts a message for the wire to Limits.maxErrorMessageChars. */
export function boundMessage(text: string): string {
  const max = Limits.maxErrorMessageChars;
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The `type` a frame carried, named without quoting more than a few characters of it. */
function describeType(type: unknown): string {
  if (typeof type === 'string') return JSON.stringify(type.length > 40 ? `${type.slice(0, 40)}…` : type);
  if (type === undefined) return '(missing)';
  if (type === null) return 'null';
  const kind = Array.isArray(type) ? 'array' : typeof type;
  return `(${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}, not a string)`;
}

function fail(code: ProtocolError['code'], message: string, id?: string, answer = true): Decoded {
  return {
    ok: false,
    error: { type: 'protocol-error', code, message: boundMessage(message), ...(id ? { id } : {}) },
    answer,
  };
}
