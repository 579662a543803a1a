import { describe, expect, it } from 'vitest';
import { decode, encode, FrameLimitError, FrameTooLargeError } from './codec.js';
import { Limits } from './limits.js';

describe('codec', () => {
  it('round-trips every message type through encode/decode', () => {
    const frames = [
      { type: 'heartbeat', t: 1 },
      { type: 'notification', plugin: 'example', method: 'log', params: { a: [1, 'b', null] } },
      { type: 'request', id: 'h1', plugin: 'example', method: 'ping', params: { sentAt: 1 }, timeoutMs: 5000 },
      { type: 'reply-ok', id: 'h1', result: { agentTime: 2 } },
      { type: 'reply-error', id: 'h1', error: { code: 'timeout', message: 'late' } },
      { type: 'cancel', id: 'h1' },
      { type: 'protocol-error', code: 'malformed-json', message: 'x' },
    ] as const;
    for (const frame of frames) expect(decode(encode(frame))).toEqual({ ok: true, message: frame });
  });

  it('turns bad frames into protocol errors instead of throwing', () => {
    expect(decode('{nope')).toMatchObject({ ok: false, error: { code: 'malformed-json' } });
    expect(decode('[1,2]')).toMatchObject({ ok: false, error: { code: 'invalid-message' } });
    expect(decode('"text"')).toMatchObject({ ok: false, error: { code: 'invalid-message' } });
    expect(decode('{"type":"warp","id":"7"}')).toMatchObject({ ok: false, error: { code: 'unknown-type', id: '7' } });
    const invalid = decode('{"type":"request","id":"r","plugin":"Bad Id","method":"m"}');
    expect(invalid).toMatchObject({ ok: false, error: { code: 'invalid-message', id: 'r' } });
    expect(!invalid.ok && invalid.error.message).toContain('plugin');
  });

  it('refuses to encode a frame over the byte limit, counting multi-byte characters', () => {
    const frame = { type: 'notification', plugin: 'example', method: 'log', params: 'é'.repeat(600) } as const;
    expect(() => encode(frame, 1000)).toThrow(FrameTooLargeError);
    expect(() => encode(frame, 2000)).not.toThrow();
  });

  it('refuses deep nesting anywhere in a frame before parsing it, without quoting it', () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const frames = [
      `{"type":${deep(8000)}}`,
      `{"type":"notification","plugin":"example","method":"log","params":${deep(Limits.maxDepth)}}`,
      `{"type":"request","id":"r1","plugin":"example","method":"m","params":{"a":${'{"a":'.repeat(70)}1${'}'.repeat(70)}}}`,
      // Unbalanced and not JSON at all: the depth is still what is refused first.
      '['.repeat(5_000_000),
    ];
    for (const text of frames) {
      const started = performance.now();
      const decoded = decode(text);
      expect(decoded).toMatchObject({ ok: false, error: { code: 'invalid-message' } });
      expect(!decoded.ok && decoded.error.message).toContain(`deeper than ${Limits.maxDepth} levels`);
      expect(!decoded.ok && decoded.error.message.length).toBeLessThan(200);
      // Refused from a prefix of the text: far less than the seconds JSON.parse needs for it.
      expect(performance.now() - started).toBeLessThan(1000);
    }
    const atLimit = `{"type":"notification","plugin":"example","method":"log","params":${deep(Limits.maxDepth - 1)}}`;
    expect(decode(atLimit).ok).toBe(true);
    // Brackets inside strings, escaped quotes included, are text, not nesting.
    const inString = JSON.stringify({ type: 'heartbeat', t: 1, note: `\\"${'['.repeat(100)}"\\` });
    expect(decode(inString).ok).toBe(true);
  });

  it('refuses a frame with more values than the limit, so schemas never see a million elements', () => {
    const many = `{"type":"notification","plugin":"example","method":"log","params":[${'0,'.repeat(Limits.maxValues)}0]}`;
    const decoded = decode(many);
    expect(decoded).toMatchObject({ ok: false, error: { code: 'invalid-message' } });
    expect(!decoded.ok && decoded.error.message).toContain(`more than ${Limits.maxValues} values`);
    const fewer = `{"type":"notification","plugin":"example","method":"log","params":[${'0,'.repeat(Limits.maxValues - 10)}0]}`;
    expect(decode(fewer).ok).toBe(true);
  });

  it('never echoes what it refuses: long types, ids and keys are cut, messages are bounded', () => {
    const huge = 'x'.repeat(100_000);
    const unknown = decode(JSON.stringify({ type: huge, id: 'ok-id' }));
    expect(unknown).toMatchObject({ ok: false, error: { code: 'unknown-type', id: 'ok-id' } });
    expect(!unknown.ok && unknown.error.message.length).toBeLessThan(300);
    const nested = decode(JSON.stringify({ type: { nested: [huge] } }));
    expect(!nested.ok && nested.error.message).toContain('(an object, not a string)');
    // An id longer than any valid id is not sent back.
    const longId = decode(JSON.stringify({ type: 'reply-ok', id: huge }));
    expect(longId).toMatchObject({ ok: false, error: { code: 'invalid-message' } });
    expect(!longId.ok && longId.error.id).toBeUndefined();
    // Keys land in schema issue paths; the message is still cut to the limit.
    const dropped = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${huge}${i}`, 'not a number']));
    const hello = decode(JSON.stringify({ type: 'hello', dropped }));
    expect(!hello.ok && hello.error.message.length).toBeLessThanOrEqual(Limits.maxErrorMessageChars);
    const notJson = decode(`{"a":${huge}`);
    expect(notJson).toMatchObject({ ok: false, error: { code: 'malformed-json' } });
    expect(!notJson.ok && notJson.error.message).not.toContain('xxx');
  });

  it('answers frames of a type not valid at this point with unexpected-message, before their schema runs', () => {
    const welcome = decode(JSON.stringify({ type: 'welcome', id: 'w1', plugins: 'not checked' }), {
      accept: ['heartbeat'],
    });
    expect(welcome).toMatchObject({ ok: false, error: { code: 'unexpected-message', id: 'w1' }, answer: true });
    expect(decode('{"type":"heartbeat","t":1}', { accept: ['heartbeat'] }).ok).toBe(true);
  });

  it('does not ask for an answer to a broken protocol-error, so two peers cannot loop on errors', () => {
    expect(decode('{"type":"protocol-error","code":"nonsense"}')).toMatchObject({ ok: false, answer: false });
    expect(decode('{"type":"warp"}')).toMatchObject({ ok: false, answer: true });
  });

  it('refuses to encode what the peer would refuse or what is not JSON', () => {
    let deep: unknown = 1;
    for (let i = 0; i < Limits.maxDepth; i++) deep = [deep];
    const frame = (params: unknown) => ({ type: 'notification', plugin: 'example', method: 'log', params }) as const;
    expect(() => encode(frame(deep))).toThrow(FrameLimitError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => encode(frame(cyclic))).toThrow(/cannot be serialized as JSON/);
    expect(() => encode(frame(new Array(Limits.maxValues + 1).fill(0)))).toThrow(/more than 100000 values/);
    expect(() => encode(frame({ ok: [1, 2, 3] }))).not.toThrow();
  });
});
