import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldsFromSchema, initialValues, parseRawArgs, toArgs } from './schema-model.js';

/** The JSON Schema a tool advertises, derived the way the tool registry derives it. */
const schemaOf = (input: z.ZodObject) => z.toJSONSchema(input, { target: 'draft-7', io: 'input' });

const input = z.object({
  sessionId: z.string().min(1).optional().describe('The session'),
  urlContains: z.string().optional(),
  limit: z.number().int().min(1).max(500).default(50),
  method: z.enum(['GET', 'POST']).optional(),
  failedOnly: z.boolean().optional(),
  enabled: z.boolean(),
  statuses: z.array(z.number().int()).optional(),
  match: z.object({ url: z.string().min(1), times: z.number().optional() }).optional(),
  body: z.unknown().optional(),
  either: z.union([z.string(), z.number()]).optional(),
  note: z.string().nullable().optional(),
});

describe('the form model of a tool input schema', () => {
  const fields = fieldsFromSchema(schemaOf(input))!;
  const byName = Object.fromEntries(fields.map((f) => [f.name, f]));

  it('maps each property to a field the form can show, keeping required flags, limits and descriptions', () => {
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['sessionId', 'string', false],
      ['urlContains', 'string', false],
      ['limit', 'number', false],
      ['method', 'enum', false],
      ['failedOnly', 'boolean', false],
      ['enabled', 'boolean', true],
      ['statuses', 'list', false],
      ['match', 'object', false],
      ['body', 'json', false],
      ['either', 'json', false],
      ['note', 'string', false],
    ]);
    expect(byName.sessionId).toMatchObject({ description: 'The session', minLength: 1 });
    expect(byName.limit).toMatchObject({ integer: true, minimum: 1, maximum: 500, default: 50 });
    expect(byName.method).toMatchObject({ options: ['GET', 'POST'] });
    expect(byName.match).toMatchObject({ fields: [{ path: 'match.url', required: true }, { path: 'match.times' }] });
  });

  it('starts from the defaults and turns an untouched form into only the required arguments', () => {
    const values = initialValues(fields);
    expect(values.limit).toBe('50');
    expect(values.enabled).toBe('false');
    expect(toArgs(fields, values)).toEqual({ args: { limit: 50, enabled: false }, errors: {} });
  });

  it('converts what was typed: numbers, enums, lists, nested objects and JSON', () => {
    const values = {
      ...initialValues(fields),
      sessionId: 's-1',
      limit: '20',
      method: '"POST"',
      failedOnly: 'true',
      statuses: '404\n 500 \n',
      match: { url: '/api/cart', times: '' },
      body: '{"items": [1, 2]}',
      either: '7',
    };
    expect(toArgs(fields, values)).toEqual({
      args: {
        sessionId: 's-1',
        limit: 20,
        method: 'POST',
        failedOnly: true,
        enabled: false,
        statuses: [404, 500],
        match: { url: '/api/cart' },
        body: { items: [1, 2] },
        either: 7,
      },
      errors: {},
    });
  });

  it('says which fields are wrong and why', () => {
    const values = {
      ...initialValues(fields),
      limit: '2.5',
      statuses: '404\nfive',
      match: { url: '', times: 'x' },
      body: '{nope',
    };
    const { errors } = toArgs(fields, values);
    expect(errors).toEqual({
      limit: 'must be a whole number',
      statuses: '"five" is not a whole number',
      'match.url': 'required',
      'match.times': 'must be a number',
      body: expect.stringMatching(/^not valid JSON/),
    });
    expect(toArgs(fields, { ...initialValues(fields), limit: '501' }).errors).toEqual({ limit: 'must be ≤ 500' });
  });

  it('drops an untouched optional object but keeps a half-filled one and its missing parts', () => {
    expect(toArgs(fields, { ...initialValues(fields), match: { url: '', times: '' } }).args).not.toHaveProperty(
      'match',
    );
    expect(toArgs(fields, { ...initialValues(fields), match: { url: '', times: '3' } }).errors).toEqual({
      'match.url': 'required',
    });
  });

  it('leaves schemas it cannot show as a form to the raw-JSON editor', () => {
    expect(fieldsFromSchema({ type: 'string' })).toBeUndefined();
    expect(fieldsFromSchema(undefined)).toBeUndefined();
    expect(fieldsFromSchema(schemaOf(z.object({})))).toEqual([]);
    expect(parseRawArgs('{"a": 1}')).toEqual({ args: { a: 1 } });
    expect(parseRawArgs('')).toEqual({ args: {} });
    expect(parseRawArgs('[1]').error).toMatch(/must be a JSON object/);
    expect(parseRawArgs('{').error).toMatch(/^not valid JSON/);
  });
});
