import { describe, expect, it } from 'vitest';
import { DEFAULT_REDACTION_RULES, REDACTED, type RedactionRules, type Transaction } from '../protocol.js';
import { redactForAgent, redactUrl } from './redact.js';

const rules: RedactionRules = { ...DEFAULT_REDACTION_RULES, bodyFields: ['password', 'card.number'] };

function tx(body: { data: string; contentType?: string; encoding?: 'text' | 'base64' }): Transaction {
  return {
    id: 't1',
    seq: 1,
    state: 'complete',
    initiator: 'fetch',
    request: {
      method: 'POST',
      url: 'https://x.test/a?Access_Token=1&b=2#frag',
      headers: [
        { name: 'X-Api-Key', value: 'k' },
        { name: 'x-secret', value: 's' },
      ],
      body: {
        encoding: body.encoding ?? 'text',
        data: body.data,
        size: body.data.length,
        truncated: false,
        contentType: body.contentType,
      },
    },
    timing: { startedAt: 0 },
    sensitiveHeaders: ['x-secret'],
  };
}

describe('redactForAgent', () => {
  it('hides named headers (the rules and the app’s own), query params by decoded name, and keeps the rest byte for byte', () => {
    const out = redactForAgent(tx({ data: '' }), rules);
    expect(out.request.headers).toEqual([
      { name: 'X-Api-Key', value: REDACTED },
      { name: 'x-secret', value: REDACTED },
    ]);
    expect(out.request.url).toBe(`https://x.test/a?Access_Token=${REDACTED}&b=2#frag`);
    expect(redactUrl('https://x.test/?api%5Fkey=9&x=%E2%82%AC', rules)).toBe(
      `https://x.test/?api%5Fkey=${REDACTED}&x=%E2%82%AC`,
    );
  });

  it('redacts JSON fields by name at any depth and by dotted path, also in a body cut at the capture cap', () => {
    const json = redactForAgent(tx({ data: '[{"card":{"number":"4111","cvc":"1"},"Password":"p"}]' }), rules);
    expect(JSON.parse(json.request.body!.data)).toEqual([{ card: { number: REDACTED, cvc: '1' }, Password: REDACTED }]);
    const cut = redactForAgent(
      tx({ data: '{"password": "hunter2", "next": "a', contentType: 'application/json' }),
      rules,
    );
    expect(cut.request.body!.data).toBe(`{"password": "${REDACTED}", "next": "a`);
  });

  it('redacts form fields and pattern matches in text bodies; leaves base64 bodies and unmatched text alone', () => {
    const form = redactForAgent(
      tx({ data: 'user=a&password=p', contentType: 'application/x-www-form-urlencoded' }),
      rules,
    );
    expect(form.request.body!.data).toBe(`user=a&password=${REDACTED}`);
    const text = redactForAgent(tx({ data: 'auth: Bearer abc.def-1 ok', contentType: 'text/plain' }), rules);
    expect(text.request.body!.data).toBe(`auth: ${REDACTED} ok`);
    const plain = tx({ data: 'nothing to see', contentType: 'text/plain' });
    expect(redactForAgent(plain, rules).request.body).toBe(plain.request.body);
    const binary = tx({ data: 'QmVhcmVyIGFiYw==', encoding: 'base64' });
    expect(redactForAgent(binary, rules).request.body).toBe(binary.request.body);
  });
});
