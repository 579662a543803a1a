import { describe, expect, it } from 'vitest';
import { REDACTED, SECRET_VALUE_PATTERNS } from './redaction.js';
import { NOT_SECRETS, SECRET_SAMPLES } from './secret-samples-testing.js';
import { redactSecretText } from './secret-text.js';

describe('the default token patterns', () => {
  it('have a sample each, and hide every sample inside other text', () => {
    expect(Object.keys(SECRET_SAMPLES).sort()).toEqual(SECRET_VALUE_PATTERNS.map((p) => p.name).sort());
    for (const [name, samples] of Object.entries(SECRET_SAMPLES)) {
      for (const sample of samples) {
        const out = redactSecretText(`before ${sample} after`);
        expect(out, name).toContain(REDACTED);
        expect(out, name).toMatch(/^before /);
        // Nothing of the secret's body is left (a PEM cut short goes to the end).
        expect(out, name).not.toContain(sample.slice(12, 24));
      }
    }
  });

  it('leave look-alikes and plain text alone', () => {
    for (const text of NOT_SECRETS) expect(redactSecretText(text), text).toBe(text);
  });

  it('run in time linear in the text: a body of many key headers and no end answers at once', () => {
    const text = '-----BEGIN PRIVATE KEY-----'.repeat(40_000);
    expect(redactSecretText(`x ${text}`)).toBe(`x ${REDACTED}`);
    expect(redactSecretText('Bearer abcdefghij '.repeat(50_000))).not.toContain('abcdefghij');
  });
});
