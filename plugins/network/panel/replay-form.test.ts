import { describe, expect, it } from 'vitest';
import type { Transaction } from '../protocol.js';
import {
  describeReplay,
  draftFromTransaction,
  headerEdits,
  keptBodyNote,
  parseHeaderLines,
  requestFromDraft,
} from './replay-form.js';

const order: Transaction = {
  id: 'o-1',
  seq: 1,
  state: 'complete',
  initiator: 'fetch',
  request: {
    method: 'post',
    url: 'http://localhost:5173/api/orders?x=1',
    headers: [
      { name: 'content-type', value: 'application/json' },
      { name: 'authorization', value: '[redacted]' },
      { name: 'x-tag', value: 'a' },
      { name: 'x-tag', value: 'b' },
    ],
    body: { encoding: 'text', data: '{"sku":"A-1"}', size: 13, truncated: false },
  },
  timing: { startedAt: 1 },
};

describe('the replay form model', () => {
  it('prefills the request as captured, and an untouched form asks for a plain replay', () => {
    const draft = draftFromTransaction(order);
    expect(draft).toEqual({
      method: 'POST',
      url: 'http://localhost:5173/api/orders?x=1',
      headers: 'content-type: application/json\nauthorization: [redacted]\nx-tag: a\nx-tag: b',
      body: '{"sku":"A-1"}',
    });
    expect(requestFromDraft(order, draft)).toEqual({ request: { id: 'o-1' }, errors: {} });
  });

  it('sends only what changed: method, URL, headers by name (replaced, added, removed) and body', () => {
    const { request, errors } = requestFromDraft(order, {
      method: 'put',
      url: 'http://localhost:5173/api/orders/7',
      headers: 'Content-Type: application/json\nauthorization: Bearer typed\nx-new: 1',
      body: '{"sku":"B-2"}',
    });
    expect(errors).toEqual({});
    expect(request).toEqual({
      id: 'o-1',
      method: 'PUT',
      url: 'http://localhost:5173/api/orders/7',
      headers: { authorization: 'Bearer typed', 'x-new': '1', 'x-tag': null },
      body: '{"sku":"B-2"}',
    });
  });

  it('leaves a redacted header to the app, and keeps repeated headers when they did not change', () => {
    const captured = order.request.headers;
    expect(headerEdits(captured, captured)).toBeUndefined();
    expect(headerEdits(captured, captured.slice(0, 3))).toEqual({ 'x-tag': 'a' });
    expect(
      headerEdits(
        captured,
        captured.filter((h) => h.name !== 'authorization'),
      ),
    ).toEqual({ authorization: null });
  });

  it('says what is wrong, field by field', () => {
    expect(requestFromDraft(order, { ...draftFromTransaction(order), method: ' ', url: 'localhost/x' }).errors).toEqual(
      { method: 'a method, e.g. GET or POST', url: 'an absolute URL, e.g. http://localhost:3000/api' },
    );
    expect(requestFromDraft(order, { ...draftFromTransaction(order), url: 'ws://localhost/x' }).errors).toEqual({
      url: 'an http or https URL',
    });
    expect(requestFromDraft(order, { ...draftFromTransaction(order), headers: 'no colon here' }).errors).toEqual({
      headers: '"no colon here" is not "Name: value"',
    });
    expect(requestFromDraft(order, { ...draftFromTransaction(order), method: 'GET' }).errors.body).toMatch(
      /GET request cannot carry a body/,
    );
    expect(requestFromDraft(order, { ...draftFromTransaction(order), method: 'GET', body: '' }).request).toEqual({
      id: 'o-1',
      method: 'GET',
      body: '',
    });
    expect(requestFromDraft(order, { ...draftFromTransaction(order), method: 'GE T' }).errors.method).toMatch(
      /one word/,
    );
  });

  it('a binary or cut body is not prefilled: it stays as captured unless a text body is typed', () => {
    const binary: Transaction = {
      ...order,
      request: { ...order.request, body: { encoding: 'base64', data: 'AAEC', size: 3, truncated: false } },
    };
    expect(draftFromTransaction(binary).body).toBe('');
    expect(keptBodyNote(binary)).toMatch(/binary \(3 bytes\) and is sent as captured/);
    expect(requestFromDraft(binary, draftFromTransaction(binary)).request).toEqual({ id: 'o-1' });
    expect(requestFromDraft(binary, { ...draftFromTransaction(binary), body: 'text' }).request).toEqual({
      id: 'o-1',
      body: 'text',
    });
    const cut: Transaction = {
      ...order,
      request: { ...order.request, body: { encoding: 'text', data: 'xx', size: 2, totalSize: 9, truncated: true } },
    };
    expect(keptBodyNote(cut)).toMatch(/cut at the app's capture cap/);
    expect(keptBodyNote(order)).toBeUndefined();
  });

  it('parses header lines, HTTP/2 pseudo-headers included', () => {
    expect(parseHeaderLines('a: 1\n\n:authority: x:1\nb:2')).toEqual({
      headers: [
        { name: 'a', value: '1' },
        { name: ':authority', value: 'x:1' },
        { name: 'b', value: '2' },
      ],
    });
  });

  it('says how a replay went', () => {
    const summary = { id: 'n-2', seq: 2, initiator: 'fetch' as const, method: 'PUT', url: 'http://h/a', startedAt: 1 };
    expect(
      describeReplay({
        replayOf: 'o-1',
        skippedHeaders: [],
        transaction: { ...summary, state: 'complete', status: 201 },
      }),
    ).toBe('Replayed PUT http://h/a: 201.');
    expect(
      describeReplay({
        replayOf: 'o-1',
        skippedHeaders: [],
        transaction: { ...summary, state: 'failed', error: 'ECONNREFUSED' },
      }),
    ).toBe('Replay of PUT http://h/a failed: ECONNREFUSED.');
    expect(describeReplay({ replayOf: 'o-1', skippedHeaders: [], note: 'Not sent: cookie.' })).toBe(
      'Replay sent. Not sent: cookie.',
    );
  });
});
