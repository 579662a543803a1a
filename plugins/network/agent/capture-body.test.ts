import { expect, it } from 'vitest';
import { attachedText } from '../../../shared/protocol/attachment.js';
import { encodeBody, planBody } from './capture-body.js';

const bytes = (text: string, encoding: BufferEncoding = 'utf8') => new Uint8Array(Buffer.from(text, encoding));

it('decodes each body on its own: shared decoders carry nothing from a cut body or a failed check to the next', () => {
  const cut = bytes('caf\u00e9').subarray(0, 4); // "caf" and the first byte of "é"
  expect(encodeBody(cut, true, 'text/plain').data).toBe('caf');
  expect(encodeBody(bytes('é!'), false, 'text/plain').data).toBe('é!');
  expect(encodeBody(cut, true, undefined)).toMatchObject({ encoding: 'text', data: 'caf' });
  expect(encodeBody(bytes('ok'), false, undefined)).toMatchObject({ encoding: 'text', data: 'ok' });
  expect(encodeBody(Uint8Array.from([0xff, 0xfe]), false, undefined)).toMatchObject({ encoding: 'base64' });
  expect(encodeBody(bytes('still text'), false, undefined)).toMatchObject({ encoding: 'text', data: 'still text' });
  const latin1 = bytes('café crème', 'latin1');
  for (let i = 0; i < 2; i++)
    expect(encodeBody(latin1, false, 'text/plain; charset=ISO-8859-1').data).toBe('café crème');
});

it('plans what the inspector makes of the bytes as encodeBody() would make it here', () => {
  const cases: [Uint8Array, boolean, string | undefined][] = [
    [bytes('{"a":"wörld"}'), false, 'application/json'],
    [bytes('caf\u00e9').subarray(0, 4), true, 'text/plain; charset=utf-8'],
    [bytes('plain words'), false, undefined],
    [Uint8Array.from([0, 255, 7]), false, undefined],
    [Uint8Array.from([0, 255, 7]), false, 'application/octet-stream'],
    [bytes('<svg/>'), false, 'image/svg+xml'],
  ];
  for (const [b, cut, type] of cases) {
    const planned = planBody(b.byteLength, () => b, cut, type, cut ? 99 : undefined)!;
    const made = encodeBody(b, cut, type, cut ? 99 : undefined);
    const data = attachedText(b, planned.as); // what the inspector does with the bytes
    expect({ ...planned.body, data }, `${type} ${cut}`).toEqual(made);
  }
  // Text in another charset is decoded in the app.
  expect(planBody(3, () => bytes('abc'), false, 'text/plain; charset=ISO-8859-1')).toBeUndefined();
});
