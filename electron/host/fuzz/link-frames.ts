// Generated link frames and what docs/protocol.md says the receiving side answers to each: the
// oracle of the fuzz suites against the real inspector (link-fuzz.test.ts) and the real agent
// (agent/connection-fuzz.test.ts). Test support only.
import fc from 'fast-check';
import type { z } from 'zod';
import { exampleProtocol } from '../../../plugins/example/protocol.js';
import { validateMessage } from '../../../shared/protocol/codec.js';
import { Limits } from '../../../shared/protocol/limits.js';
import {
  MESSAGE_TYPES,
  MessageSchema,
  type MessageType,
  type Notification,
  type ProtocolErrorCode,
  type RejectReasonSchema,
  type RequestErrorCode,
  SESSION_FRAME_TYPES,
} from '../../../shared/protocol/messages.js';
import { checkShape } from '../../../shared/protocol/shape-check.js';

export type Side = 'host' | 'agent';

/** A frame made once its unique correlation id is known (ids are unique per frame, so answers never race). */
export interface FrameRecipe {
  kind: string;
  /** How deep the frame nests, when the generator made it so (parsing 10,000 levels to learn it is slow). */
  depth?: number;
  build(uid: string): string | Uint8Array;
}

export type Answer =
  | { type: 'protocol-error'; code: ProtocolErrorCode; id?: string }
  | { type: 'reply-error'; id: string; code: RequestErrorCode }
  | { type: 'reply-ok'; id: string; result?: unknown }
  | { type: 'reject'; reason: z.infer<typeof RejectReasonSchema> }
  | { type: 'welcome' };

export interface Expected {
  answer?: Answer;
  /** The answer comes after a plugin handler ran (an await): it may be missing if the link closes in the same step. */
  late?: boolean;
  /** The host counts it toward the protocol errors that close a link with 4004. */
  counted?: boolean;
  /** The link closes because of it. */
  close?: number;
  /** A valid example log entry the host keeps. */
  log?: boolean;
}

export interface LinkState {
  side: Side;
  phase: 'pre-hello' | 'pre-welcome' | 'session';
  maxFrameBytes: number;
  /** Plugins both sides accepted (the fuzz sessions accept `example` only). */
  accepted: ReadonlySet<string>;
}

/** What a frame may never be in a run (the generators make them rarely; the drivers skip them). */
export class UnfitFrame extends Error {}

/** Marks huge generated strings, so a test can tell if an answer quoted one back. */
export const MARKER = 'ZQX';
/** Answers may name a value by its first 40 characters, never more. */
export const MARKER_RUN = MARKER.repeat(20);

const HANDSHAKE_REPLIES: readonly MessageType[] = ['welcome', 'reject', 'heartbeat', 'protocol-error'];

// ─── The oracle ─────────────────────────────────────────────────────────────

const refused = (code: ProtocolErrorCode, id?: string): Expected => ({
  answer: { type: 'protocol-error', code, ...(id ? { id } : {}) },
  counted: true,
});

/** A frame text's first rules: the depth and value limits, JSON, an object, a known type. */
function typedRecord(
  text: string,
): { refusal: Expected } | { record: Record<string, unknown> & { type: string }; id?: string } {
  const shape = measure(text);
  if (shape.depth > Limits.maxDepth || shape.values > Limits.maxValues) return { refusal: refused('invalid-message') };
  if (!shape.parsed) return { refusal: refused('malformed-json') };
  const value = shape.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { refusal: refused('invalid-message') };
  const record = value as Record<string, unknown>;
  const id = typeof record.id === 'string' && record.id.length >= 1 && record.id.length <= 200 ? record.id : undefined;
  if (typeof record.type !== 'string' || !(MESSAGE_TYPES as readonly string[]).includes(record.type)) {
    return { refusal: refused('unknown-type', id) };
  }
  return { record: record as Record<string, unknown> & { type: string }, id };
}

/**
 * docs/protocol.md, applied to one frame: binary, then size, then the depth and value limits, then
 * JSON, object, known type, type valid at this point, schema, and last what the message means.
 */
export function expectedAnswer(data: string | Uint8Array, state: LinkState, depth?: number): Expected {
  if (state.phase === 'pre-hello') return expectedFirstFrame(data, state, depth);
  if (typeof data !== 'string') return state.side === 'host' ? expectedBinary(data, state) : refused('invalid-message');
  if (Buffer.byteLength(data) > state.maxFrameBytes) {
    return state.side === 'host' ? { close: 1009 } : refused('invalid-message');
  }
  if (depth !== undefined && depth > Limits.maxDepth) return refused('invalid-message');
  const typed = typedRecord(data);
  if ('refusal' in typed) return typed.refusal;
  const { record, id } = typed;
  const accept = state.phase === 'session' ? SESSION_FRAME_TYPES : HANDSHAKE_REPLIES;
  if (!(accept as string[]).includes(record.type)) return refused('unexpected-message', id);
  // The inspector checks frames against the schemas, the agent only the kinds of the fields it reads.
  const parsed = state.side === 'host' ? validateMessage(record) : checkShape(record);
  if (!parsed.ok) {
    // A broken protocol-error is not answered, or two peers could trade errors forever.
    return record.type === 'protocol-error' ? { counted: true } : refused('invalid-message', id);
  }
  const message = parsed.message;
  switch (message.type) {
    case 'heartbeat':
    case 'cancel':
    case 'protocol-error':
      return {};
    case 'welcome':
    case 'reject':
      throw new UnfitFrame('a valid welcome or reject would end the agent fuzz run');
    case 'notification':
      return expectedNotification(message, state);
    case 'request':
      if (!state.accepted.has(message.plugin)) {
        return { answer: { type: 'reply-error', id: message.id, code: 'plugin-not-active' } };
      }
      return { answer: answerToRequest(message.id, message.method, message.params, state), late: true };
    case 'reply-ok':
    case 'reply-error':
      // No request of this side waits for it (the runs send their own replies to real requests).
      return refused('unknown-correlation-id', message.id);
    default:
      throw new UnfitFrame(`no rule for ${message.type}`);
  }
}

function expectedNotification(message: Notification, state: LinkState): Expected {
  if (!state.accepted.has(message.plugin)) return refused('unexpected-message');
  const direction: { notifications?: Record<string, z.ZodType> } = (
    state.side === 'host' ? exampleProtocol.toHost : exampleProtocol.toAgent
  ) as never;
  const notifications = direction.notifications;
  const schema =
    notifications && Object.hasOwn(notifications, message.method)
      ? (notifications as Record<string, z.ZodType>)[message.method]
      : undefined;
  if (!schema?.safeParse(message.params).success) return refused('invalid-message');
  return { log: state.side === 'host' };
}

const ATTACHMENT_AS = ['base64', 'utf8', 'utf8-prefix'];

/**
 * docs/protocol.md, "binary notification", at the host: the 4-byte header length, a UTF-8 header
 * within the frame, the text frame's rules for it (only a notification is valid here), its
 * `attachment`, the place the bytes go (an empty string reached through objects), then the
 * notification with the bytes put there.
 */
function expectedBinary(data: Uint8Array, state: LinkState): Expected {
  if (data.byteLength > state.maxFrameBytes) return { close: 1009 };
  if (data.byteLength < 4) return refused('invalid-message');
  const length = Buffer.from(data.buffer, data.byteOffset, data.byteLength).readUInt32BE(0);
  if (4 + length > data.byteLength) return refused('invalid-message');
  const headerBytes = Buffer.from(data.buffer, data.byteOffset + 4, length);
  const header = headerBytes.toString('utf8');
  if (!Buffer.from(header).equals(headerBytes)) return refused('invalid-message');
  const typed = typedRecord(header);
  if ('refusal' in typed) return typed.refusal;
  const { record, id } = typed;
  if (record.type !== 'notification') return refused('unexpected-message', id);
  const { attachment, ...frame } = record;
  const spec = attachment as { path?: unknown; as?: unknown } | undefined;
  const okSpec =
    typeof spec === 'object' &&
    spec !== null &&
    !Array.isArray(spec) &&
    Object.keys(spec).every((k) => k === 'path' || k === 'as') &&
    Array.isArray(spec.path) &&
    spec.path.length >= 1 &&
    spec.path.length <= 8 &&
    spec.path.every((p) => typeof p === 'string' && p.length >= 1 && p.length <= 100) &&
    ATTACHMENT_AS.includes(spec.as as string);
  if (!okSpec) return refused('invalid-message', id);
  const parsed = validateMessage(frame);
  if (!parsed.ok) return refused('invalid-message', id);
  const message = parsed.message as Notification;
  const path = spec.path as string[];
  let at: unknown = message.params;
  for (const name of path.slice(0, -1)) {
    at =
      typeof at === 'object' && at !== null && !Array.isArray(at) && Object.hasOwn(at, name)
        ? (at as Record<string, unknown>)[name]
        : undefined;
  }
  const last = path[path.length - 1]!;
  const place =
    typeof at === 'object' && at !== null && !Array.isArray(at) && Object.hasOwn(at, last)
      ? (at as Record<string, unknown>)
      : undefined;
  if (place?.[last] !== '') return refused('invalid-message');
  const bytes = Buffer.from(data.buffer, data.byteOffset + 4 + length, data.byteLength - 4 - length);
  place![last] =
    spec.as === 'base64'
      ? bytes.toString('base64')
      : new TextDecoder().decode(bytes, { stream: spec.as === 'utf8-prefix' });
  return expectedNotification(message, state);
}

/** The example plugin's answer to a request from the peer. */
function answerToRequest(id: string, method: string, params: unknown, state: LinkState): Answer {
  if (state.side === 'host') return { type: 'reply-error', id, code: 'no-handler' };
  if (!Object.hasOwn(exampleProtocol.toAgent.requests, method)) return { type: 'reply-error', id, code: 'no-handler' };
  // The agent hands its handlers any JSON object: the inspector validated what it sent.
  const isObject = params === undefined || (typeof params === 'object' && params !== null && !Array.isArray(params));
  if (!isObject) return { type: 'reply-error', id, code: 'invalid-params' };
  if (method === 'captureScreenshot') return { type: 'reply-error', id, code: 'handler-error' }; // Node has no DOM
  if (method === 'echo') {
    const result = (params ?? {}) as { text: string };
    const reply = JSON.stringify({ type: 'reply-ok', id, result: { text: result.text } });
    if (Buffer.byteLength(reply) > state.maxFrameBytes) return { type: 'reply-error', id, code: 'frame-too-large' };
    return { type: 'reply-ok', id, result: { text: result.text } };
  }
  return { type: 'reply-ok', id };
}

/** The host before the hello: anything but a valid hello is rejected, and the link closes. */
function expectedFirstFrame(data: string | Uint8Array, state: LinkState, depth?: number): Expected {
  const reject = (reason: 'invalid-hello' | 'unsupported-version'): Expected => ({
    answer: { type: 'reject', reason },
    close: 4001,
  });
  if (typeof data !== 'string') return reject('invalid-hello');
  const bytes = Buffer.byteLength(data);
  if (bytes > state.maxFrameBytes) return { close: 1009 };
  if (bytes > Limits.maxHelloBytes || (depth !== undefined && depth > Limits.maxDepth)) return reject('invalid-hello');
  const shape = measure(data);
  if (!shape.parsed || shape.depth > Limits.maxDepth || shape.values > Limits.maxValues) return reject('invalid-hello');
  const parsed = MessageSchema.safeParse(shape.value);
  if (!parsed.success || parsed.data.type !== 'hello') return reject('invalid-hello');
  if (parsed.data.protocolVersion !== 1) return reject('unsupported-version');
  return { answer: { type: 'welcome' } };
}

type Shape = { parsed: true; value: unknown; depth: number; values: number } | { parsed: false; depth: 0; values: 0 };

/** Depth and values of the parsed frame, walked without recursion (generated frames nest 20,000 deep). */
function measure(text: string): Shape {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const openers = text.match(/[[{]/g)?.length ?? 0;
    if (openers > Limits.maxDepth || text.length > 100_000) {
      throw new UnfitFrame('an unparseable frame that may be over a limit: which error comes first is not documented');
    }
    return { parsed: false, depth: 0, values: 0 };
  }
  let depth = 0;
  let values = 0;
  const stack: unknown[] = [value];
  const levels: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop();
    const level = levels.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (level > depth) depth = level;
    const children = Array.isArray(v) ? v : Object.values(v);
    values += children.length;
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        stack.push(child);
        levels.push(level + 1);
      }
    }
  }
  return { parsed: true, value, depth, values };
}

// ─── The generators ─────────────────────────────────────────────────────────

const plain = (kind: string, make: fc.Arbitrary<(uid: string) => unknown>): fc.Arbitrary<FrameRecipe> =>
  make.map((f) => ({ kind, build: (uid: string) => JSON.stringify(f(uid)) }));
const text = (kind: string, make: fc.Arbitrary<(uid: string) => string | Uint8Array>): fc.Arbitrary<FrameRecipe> =>
  make.map((build) => ({ kind, build }));

const huge = (min: number, max: number) => fc.integer({ min, max }).map((n) => MARKER.repeat(Math.ceil(n / 3)));
const json = fc.jsonValue({ maxDepth: 4 });
const pluginName = fc.constantFrom('example', 'example', 'network', 'nope', 'Bad Id', '', 'x'.repeat(40));
const methodName = fc.oneof(
  fc.constantFrom('log', 'ping', 'echo', 'captureScreenshot', 'nope', 'toString'),
  fc.string(),
);
/** An id: the frame's unique one, or one that is not a valid id (empty, too long, not a string). */
const anyId = fc.oneof(
  { weight: 6, arbitrary: fc.constant((uid: string) => uid) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>('', 7, null, true).map((v) => () => v) },
  { weight: 1, arbitrary: huge(201, 3000).map((s) => () => s) },
);
const level = fc.constantFrom('debug', 'info', 'warn', 'error', 'loud');
const logEntry = fc.record(
  { level, message: fc.oneof(fc.string(), huge(9_990, 10_010)), time: fc.oneof(fc.integer(), fc.double()), data: json },
  { requiredKeys: ['level', 'message', 'time'] },
);
const requestParams = fc.oneof(
  fc.record({ sentAt: fc.oneof(fc.integer(), fc.string()) }),
  fc.record({ text: fc.oneof(fc.string(), huge(1, 3000)) }),
  fc.constant({}),
  json,
);
const errorCode = fc.constantFrom(
  'peer-gone',
  'no-handler',
  'timeout',
  'invalid-params',
  'handler-error',
  'frame-too-large',
  'bogus',
);
const protocolErrorCode = fc.constantFrom(
  'malformed-json',
  'invalid-message',
  'unknown-type',
  'unexpected-message',
  '??',
);
const validHello = (protocolVersion: number) => ({
  type: 'hello',
  protocolVersion,
  app: { id: 'com.fuzz.app', name: 'Fuzz' },
  device: { id: 'fuzz-device', name: 'Fuzz Device', platform: 'node' },
  plugins: [{ id: 'example', version: '1.0.0' }],
});

/** Frames a well-behaved peer sends, and nearly-right ones. */
const wellFormed: fc.Arbitrary<FrameRecipe>[] = [
  plain(
    'heartbeat',
    fc.oneof(fc.integer(), fc.double()).map((t) => () => ({ type: 'heartbeat', t })),
  ),
  plain(
    'notification',
    fc
      .record({ plugin: pluginName, method: methodName, params: fc.oneof(logEntry, json) })
      .map((n) => () => ({ type: 'notification', ...n })),
  ),
  plain(
    'log',
    logEntry.map((params) => () => ({ type: 'notification', plugin: 'example', method: 'log', params })),
  ),
  plain(
    'request',
    fc
      .record(
        {
          id: anyId,
          plugin: pluginName,
          method: methodName,
          params: requestParams,
          timeoutMs: fc.oneof(fc.nat(), fc.constant(-1)),
        },
        { requiredKeys: ['id', 'plugin', 'method'] },
      )
      .map(({ id, ...rest }) => (uid: string) => ({ type: 'request', id: id(uid), ...rest })),
  ),
  plain(
    'reply-ok',
    fc.record({ id: anyId, result: json }).map(({ id, result }) => (uid: string) => ({
      type: 'reply-ok',
      id: id(uid),
      result,
    })),
  ),
  plain(
    'reply-error',
    fc
      .record({ id: anyId, code: errorCode, message: fc.oneof(fc.string(), huge(100, 5000)), data: json })
      .map(({ id, code, message, data }) => (uid: string) => ({
        type: 'reply-error',
        id: id(uid),
        error: { code, message, data },
      })),
  ),
  plain(
    'cancel',
    anyId.map((id) => (uid: string) => ({ type: 'cancel', id: id(uid) })),
  ),
  plain(
    'protocol-error',
    fc
      .record(
        { code: protocolErrorCode, message: fc.oneof(fc.string(), fc.integer()), id: fc.string() },
        { requiredKeys: ['code'] },
      )
      .map((e) => () => ({ type: 'protocol-error', message: 'peer says no', ...e })),
  ),
  plain(
    'handshake-type',
    fc
      .oneof(
        fc.integer({ min: 0, max: 3 }).map((v) => validHello(v)),
        fc.constant({ type: 'welcome', protocolVersion: 1, sessionId: 'x' }),
        fc.constant({ type: 'reject', reason: 'shutting-down', message: 'bye' }),
      )
      .map((frame) => () => frame),
  ),
];

/** Frames nobody should send. */
const hostile: fc.Arbitrary<FrameRecipe>[] = [
  plain(
    'unknown-type',
    fc
      .record({ type: fc.oneof(fc.string(), fc.integer(), fc.constant(null), json, huge(100, 2000)), id: anyId })
      .map(({ type, id }) => (uid: string) => ({ type, id: id(uid) })),
  ),
  plain(
    'wrong-shape',
    fc
      .record(
        {
          type: fc.constantFrom(...MESSAGE_TYPES),
          id: anyId,
          plugin: fc.oneof(pluginName, json),
          method: fc.oneof(methodName, json),
          params: json,
          result: json,
          error: fc.oneof(json, fc.record({ code: errorCode, message: json })),
          t: json,
          code: fc.oneof(protocolErrorCode, json),
          message: json,
        },
        { requiredKeys: ['type'] },
      )
      .map(({ id, ...rest }) => (uid: string) => ({ ...rest, ...(id ? { id: id(uid) } : {}) })),
  ),
  text(
    'random-json',
    json.map((v) => () => JSON.stringify(v) ?? 'null'),
  ),
  text(
    'random-text',
    // Any UTF-16 units, lone surrogates and control characters included (fc's 'binary' unit is slow to set up).
    fc
      .array(fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(0x22, 0x5b, 0x5d, 0x7b, 0x7d, 0x5c, 0x2c)), {
        maxLength: 300,
      })
      .map((units) => String.fromCharCode(...units))
      .filter((s) => (s.match(/[[{]/g)?.length ?? 0) <= Limits.maxDepth)
      .map((s) => () => s),
  ),
  text(
    'binary',
    fc.uint8Array({ maxLength: 300 }).map((bytes) => () => bytes),
  ),
  text(
    'binary-notification',
    fc
      .record({
        params: fc.oneof(
          logEntry.map((e) => ({ ...e, message: '' })),
          logEntry,
          json,
        ),
        plugin: fc.constantFrom('example', 'example', 'nope'),
        type: fc.constantFrom('notification', 'notification', 'notification', 'heartbeat', 'warp'),
        path: fc.oneof(
          fc.constant(['message']),
          fc.constant(['message']),
          fc.constant(['data', 'x']),
          fc.constant([]),
          fc.array(fc.string({ maxLength: 3 }), { maxLength: 9 }),
          fc.constant(['__proto__']),
          fc.constant('message'),
        ),
        as: fc.constantFrom('base64', 'utf8', 'utf8-prefix', 'hex', undefined),
        extra: fc.boolean(),
        bytes: fc.oneof(
          fc.string({ maxLength: 200 }).map((t) => new Uint8Array(Buffer.from(t))),
          fc.uint8Array({ maxLength: 200 }),
          huge(9_990, 10_010).map((t) => new Uint8Array(Buffer.from(t))),
        ),
        lie: fc.constantFrom(0, 0, 0, 0, 1, -1, 1 << 20),
      })
      .map((c) => (uid: string) => {
        const attachment = { path: c.path, ...(c.as ? { as: c.as } : {}), ...(c.extra ? { x: 1 } : {}) };
        const header = Buffer.from(
          JSON.stringify({ type: c.type, id: uid, plugin: c.plugin, method: 'log', params: c.params, attachment }),
        );
        const out = Buffer.alloc(4 + header.length + c.bytes.length);
        out.writeUInt32BE(Math.max(0, header.length + c.lie), 0);
        header.copy(out, 4);
        out.set(c.bytes, 4 + header.length);
        return new Uint8Array(out);
      }),
  ),
  text(
    'truncated',
    fc
      .tuple(fc.oneof(...wellFormed), fc.double({ min: 0, max: 1, noNaN: true }))
      .map(([recipe, at]) => (uid: string) => {
        const full = recipe.build(uid);
        return typeof full === 'string' ? full.slice(0, Math.floor(full.length * at)) : full;
      }),
  ),
  text(
    'trailing-garbage',
    fc
      .tuple(fc.oneof(...wellFormed), fc.constantFrom('}', ']', ',', ' x', '{}', '\u0000'))
      .map(([recipe, garbage]) => (uid: string) => {
        const full = recipe.build(uid);
        return typeof full === 'string' ? full + garbage : full;
      }),
  ),
  fc
    .record({
      depth: fc.oneof(fc.integer({ min: Limits.maxDepth + 1, max: 200 }), fc.integer({ min: 201, max: 10_000 })),
      where: fc.constantFrom('type', 'id', 'params', 'extra', 'result', 'error-data', 'plugin'),
      object: fc.boolean(),
    })
    .map(({ depth, where, object }) => ({
      kind: 'deep',
      depth,
      build: (uid: string) => {
        const deep = object
          ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
          : `${'['.repeat(depth)}${']'.repeat(depth)}`;
        const id = JSON.stringify(uid);
        switch (where) {
          case 'type':
            return `{"type":${deep},"id":${id}}`;
          case 'id':
            return `{"type":"reply-ok","id":${deep}}`;
          case 'params':
            return `{"type":"request","id":${id},"plugin":"example","method":"echo","params":{"text":${deep}}}`;
          case 'result':
            return `{"type":"reply-ok","id":${id},"result":${deep}}`;
          case 'error-data':
            return `{"type":"reply-error","id":${id},"error":{"code":"timeout","message":"m","data":${deep}}}`;
          case 'plugin':
            return `{"type":"notification","plugin":${deep},"method":"log"}`;
          default:
            return `{"type":"heartbeat","t":1,"extra":${deep}}`;
        }
      },
    })),
  text(
    'at-depth-limit',
    fc.integer({ min: Limits.maxDepth - 3, max: Limits.maxDepth + 1 }).map((depth) => () => {
      // The frame is level 1 and params level 2, so data nests depth - 2 more levels.
      const inner = depth - 2;
      const data = `${'['.repeat(inner)}${']'.repeat(inner)}`;
      return `{"type":"notification","plugin":"example","method":"log","params":{"level":"info","message":"deep","time":1,"data":${data}}}`;
    }),
  ),
  text(
    'huge-string',
    fc
      .record({
        field: fc.constantFrom('id', 'method', 'plugin', 'type', 'message'),
        // Over the 200 characters an id or method may have, so the frame is always invalid.
        size: fc.integer({ min: 201, max: 60_000 }),
      })
      .map(({ field, size }) => (uid: string) => {
        const value = MARKER.repeat(Math.ceil(size / 3));
        const frame: Record<string, unknown> = {
          type: 'request',
          id: uid,
          plugin: 'example',
          method: 'echo',
          params: { text: 'x' },
        };
        if (field === 'message')
          return JSON.stringify({
            type: 'notification',
            plugin: 'example',
            method: 'log',
            params: { level: 'info', message: value, time: 1 },
          });
        frame[field] = value;
        return JSON.stringify(frame);
      }),
  ),
];

/** Rare and large: a frame at or over the value limit, or over the frame size. */
const large: fc.Arbitrary<FrameRecipe>[] = [
  text(
    'values-limit',
    fc.integer({ min: -2, max: 2 }).map((delta) => () => {
      // 4 frame members + 4 params members + the array's elements.
      const elements = Limits.maxValues - 8 + delta;
      return `{"type":"notification","plugin":"example","method":"log","params":{"level":"info","message":"many","time":1,"data":[${'0,'.repeat(elements - 1)}0]}}`;
    }),
  ),
  text(
    'oversize',
    fc
      .integer({ min: 1, max: 2048 })
      .map(
        (extra) => () =>
          JSON.stringify({ type: 'heartbeat', t: 1, pad: MARKER.repeat(Math.ceil((OVERSIZE + extra) / 3)) }),
      ),
  ),
];

/** The fuzz runs give their links this frame limit, so an over-size frame costs little to make. */
export const FUZZ_MAX_FRAME_BYTES = 512 * 1024;
const OVERSIZE = FUZZ_MAX_FRAME_BYTES;

/** Any frame, weighted so that a run of 10,000 meets every kind many times and the large ones a few times. */
export const frameRecipe: fc.Arbitrary<FrameRecipe> = fc.oneof(
  ...wellFormed.map((arbitrary) => ({ weight: 10, arbitrary })),
  ...hostile.map((arbitrary) => ({ weight: 8, arbitrary })),
  ...large.map((arbitrary) => ({ weight: 1, arbitrary })),
);

/** How a run is cut into steps: frames per step, and whether the step starts on a fresh connection. */
export const stepPlan = fc.record({
  size: fc.integer({ min: 1, max: 8 }),
  fresh: fc.oneof({ weight: 12, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  /** The side under test sends a request of its own, and the step answers it in one of these ways. */
  ownRequest: fc.oneof(
    { weight: 10, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom('ok-then-duplicate', 'error', 'invalid-result', 'long-id-then-ok') },
  ),
});
export type StepPlan = typeof stepPlan extends fc.Arbitrary<infer T> ? T : never;

/** The seed of a run: $PORTHOLE_FUZZ_SEED to replay one, else a new one; printed either way. */
export function fuzzSeed(suite: string): number {
  const given = process.env.PORTHOLE_FUZZ_SEED;
  const seed = given ? Number(given) : Math.floor(Math.random() * 2 ** 31);
  console.log(`[fuzz] ${suite}: seed ${seed} (replay with PORTHOLE_FUZZ_SEED=${seed})`);
  return seed;
}

/** A run's frames and steps, from its seed. */
export function planRun(seed: number, frames: number) {
  const recipes = fc.sample(frameRecipe, { seed, numRuns: frames });
  const plans = fc.sample(stepPlan, { seed: seed + 1, numRuns: frames });
  const steps: { plan: StepPlan; recipes: FrameRecipe[] }[] = [];
  for (let i = 0, p = 0; i < recipes.length; p++) {
    const plan = plans[p]!;
    steps.push({ plan, recipes: recipes.slice(i, i + plan.size) });
    i += plan.size;
  }
  return steps;
}
