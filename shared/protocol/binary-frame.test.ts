import { describe, expect, it } from 'vitest';
import { concatBytes } from '../bytes.js';
import { type Attached, inlineAttached } from './attachment.js';
import { decodeBinaryFrame } from './binary-frame.js';
import { binaryNotificationParts } from './binary-notification.js';
import { FrameTooLargeError } from './frame.js';
import type { Notification } from './messages.js';

const frame: Notification = {
  type: 'notification',
  plugin: 'network',
  method: 'completed',
  params: { id: 'a-1', body: { encoding: 'base64', data: '', size: 4, truncated: false }, durationMs: 1 },
};
const bytes = Uint8Array.from([0, 255, 128, 7]);
const attached = (as: Attached['as'], chunks: Uint8Array[] = [bytes.subarray(0, 1), bytes.subarray(1)]): Attached => ({
  path: ['body', 'data'],
  as,
  chunks,
  size: chunks.reduce((n, c) => n + c.byteLength, 0),
});
const join = (parts: Uint8Array[]) =>
  concatBytes(
    parts,
    parts.reduce((n, p) => n + p.byteLength, 0),
  );
const binary = (f: Notification, a: Attached) => join(binaryNotificationParts(f, a, 1 << 20));

/** A frame from a header given as text and the bytes after it. */
function raw(header: string, after: Uint8Array = bytes, length = Buffer.byteLength(header)): Uint8Array {
  const out = Buffer.alloc(4 + Buffer.byteLength(header) + after.byteLength);
  out.writeUInt32BE(length, 0);
  out.write(header, 4);
  out.set(after, 4 + Buffer.byteLength(header));
  return out;
}

describe('binary notifications', () => {
  it('decode to the notification with the bytes as base64 or text, the same as inlining them in the agent', () => {
    const decoded = decodeBinaryFrame(binary(frame, attached('base64')));
    expect(decoded).toEqual({ ok: true, message: inlineAttached(frame, attached('base64')) });
    expect(decoded.ok && (decoded.message as Notification).params).toMatchObject({ body: { data: 'AP+ABw==' } });

    // "é" cut after its first byte: utf8 shows the broken character, utf8-prefix drops it (more would follow).
    const text = Uint8Array.from([...Buffer.from('caf'), 0xc3]);
    for (const as of ['utf8', 'utf8-prefix'] as const) {
      const a = attached(as, [text]);
      const got = decodeBinaryFrame(binary(frame, a));
      expect(got).toEqual({ ok: true, message: inlineAttached(frame, a) });
    }
    expect(inlineAttached(frame, attached('utf8', [text])).params).toMatchObject({ body: { data: 'caf\uFFFD' } });
    expect(inlineAttached(frame, attached('utf8-prefix', [text])).params).toMatchObject({ body: { data: 'caf' } });
  });

  it('carry a text as its UTF-8 in a Blob (a page), and inline the text itself where there are no binary frames', async () => {
    const text = 'café ✓ \u{1F600}';
    const blob = new Blob([text]);
    const a: Attached = { path: ['body', 'data'], as: 'utf8', chunks: [], size: blob.size, blob, text };
    // what a page's socket sends: the header part, then the Blob
    const [header] = binaryNotificationParts(frame, a, 1 << 20);
    const sent = join([header!, new Uint8Array(await blob.arrayBuffer())]);
    const decoded = decodeBinaryFrame(sent);
    expect(decoded).toEqual({ ok: true, message: inlineAttached(frame, a) });
    expect(inlineAttached(frame, a).params).toMatchObject({ body: { data: text } });
  });

  it('leave the caller params as they were when inlined', () => {
    inlineAttached(frame, attached('base64'));
    expect(frame.params).toMatchObject({ body: { data: '' } });
  });

  it('refuse frames the header or the attachment of which is wrong, without throwing', () => {
    const header = (over: Record<string, unknown>) =>
      JSON.stringify({ ...frame, attachment: { path: ['body', 'data'], as: 'base64' }, ...over });
    const cases: [string, Uint8Array, string][] = [
      ['too short', Uint8Array.from([0, 0]), '4-byte header length'],
      ['length past the end', raw(header({}), bytes, 1 << 30), 'runs past its end'],
      ['header not UTF-8', raw('\u0000', bytes).fill(0xff, 4, 5), 'not UTF-8'],
      ['header not JSON', raw('{nope', bytes), 'not JSON'],
      ['not a notification', raw(JSON.stringify({ type: 'heartbeat', t: 1 })), 'not valid here'],
      ['no attachment', raw(JSON.stringify(frame)), 'attachment'],
      ['unknown kind', raw(header({ attachment: { path: ['body', 'data'], as: 'hex' } })), 'attachment'],
      ['extra member', raw(header({ attachment: { path: ['body', 'data'], as: 'utf8', x: 1 } })), 'attachment'],
      ['empty path', raw(header({ attachment: { path: [], as: 'utf8' } })), 'attachment'],
      ['path to a non-empty string', raw(header({ attachment: { path: ['body', 'encoding'], as: 'utf8' } })), 'path'],
      ['path to nothing', raw(header({ attachment: { path: ['body', 'nope'], as: 'utf8' } })), 'path'],
      [
        'path into an array',
        raw(header({ params: { list: [''] }, attachment: { path: ['list', '0'], as: 'utf8' } })),
        'path',
      ],
      [
        'path through the prototype',
        raw(header({ attachment: { path: ['body', 'constructor'], as: 'utf8' } })),
        'path',
      ],
      ['bad plugin id', raw(header({ plugin: 'Bad Id' })), 'plugin'],
    ];
    for (const [what, data, says] of cases) {
      const decoded = decodeBinaryFrame(data);
      expect(decoded.ok, what).toBe(false);
      if (!decoded.ok) {
        expect(decoded.error.code, what).toMatch(/invalid-message|malformed-json|unexpected-message/);
        expect(decoded.error.message, what).toContain(says);
      }
    }
  });

  it('are not built past the frame limit', () => {
    const big = attached('base64', [new Uint8Array(2000)]);
    expect(() => binaryNotificationParts(frame, big, 1000)).toThrow(FrameTooLargeError);
  });
});
