import { describe, expect, it } from 'vitest';
import { decode, encode, FrameTooLargeError } from './codec.js';

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
});
