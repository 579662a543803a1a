import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFrame } from './frame.js';
import { MESSAGE_TYPES } from './frame-types.js';
import { MessageSchema } from './messages.js';
import { checkShape } from './shape-check.js';

const welcome = {
  type: 'welcome',
  protocolVersion: 1,
  sessionId: 's1',
  resumeSecret: 'k',
  resumed: false,
  plugins: { accepted: [{ id: 'example', version: '1.0.0' }], incompatible: [] },
  heartbeatIntervalMs: 10_000,
  maxFrameBytes: 1024,
};

describe("the agent's shape check", () => {
  it('lists the same message types as the schemas', () => {
    expect([...MESSAGE_TYPES].sort()).toEqual(MessageSchema.options.map((o) => o.shape.type.value).sort());
  });

  it('accepts every frame the schemas accept (it is never stricter than the inspector)', () => {
    const frames = [
      welcome,
      { type: 'reject', reason: 'shutting-down', message: 'bye', supportedVersions: [1] },
      { type: 'request', id: 'h1', plugin: 'example', method: 'ping', params: { sentAt: 1 }, timeoutMs: 5000 },
      { type: 'reply-error', id: 'h1', error: { code: 'timeout', message: 'late' } },
      { type: 'protocol-error', code: 'malformed-json', message: 'x', id: 'a' },
    ];
    for (const frame of frames) {
      expect(MessageSchema.safeParse(frame).success).toBe(true);
      expect(checkShape(frame)).toEqual({ ok: true, message: frame });
    }
  });

  it('refuses frames whose fields it reads have the wrong kind, naming the field', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...welcome, sessionId: 7 }, 'sessionId'],
      [{ ...welcome, plugins: { accepted: [{ version: '1' }], incompatible: [] } }, 'plugins.accepted'],
      [{ type: 'request', id: 'x'.repeat(201), plugin: 'example', method: 'm' }, 'id'],
      [{ type: 'request', id: 'r', plugin: 'Bad Id', method: 'm' }, 'plugin'],
      [{ type: 'reply-error', id: 'r', error: { code: 1, message: 'm' } }, 'error.code'],
      [{ type: 'heartbeat', t: '1' }, 't'],
    ];
    for (const [frame, field] of cases) {
      const checked = checkShape(frame);
      expect(checked.ok).toBe(false);
      expect(!checked.ok && checked.issue).toContain(field);
    }
  });

  it('never throws on any JSON object with a known type', () => {
    fc.assert(
      fc.property(fc.constantFrom(...MESSAGE_TYPES), fc.dictionary(fc.string(), fc.jsonValue()), (type, rest) => {
        const text = JSON.stringify({ ...rest, type });
        expect(() => decodeFrame(text, checkShape)).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });
});
