import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compactSchema } from './compact-schema.js';

const schemaOf = (schema: z.ZodType, io: 'input' | 'output') =>
  compactSchema(z.toJSONSchema(schema, { target: 'draft-7', io }) as Record<string, unknown>, io);

describe('compactSchema', () => {
  const tool = z.object({
    pattern: z.string().min(1).max(10).regex(/^a/),
    maxLength: z.number().int(),
    count: z.number().int().min(0).max(9),
    mode: z.enum(['a', 'b']).default('a'),
    tags: z.array(z.string().max(5)).max(3),
    headers: z.record(z.string().min(1), z.string()),
    loose: z.looseObject({ name: z.string() }),
  });

  it('keeps what an input accepts, minus $schema and safe-integer bounds', () => {
    const input = schemaOf(tool, 'input');
    expect(input).not.toHaveProperty('$schema');
    expect(input.properties).toEqual({
      pattern: { type: 'string', minLength: 1, maxLength: 10, pattern: '^a' },
      maxLength: { type: 'integer' },
      count: { type: 'integer', minimum: 0, maximum: 9 },
      mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
      tags: { type: 'array', maxItems: 3, items: { type: 'string', maxLength: 5 } },
      headers: {
        type: 'object',
        propertyNames: { type: 'string', minLength: 1 },
        additionalProperties: { type: 'string' },
      },
      loose: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
  });

  it("keeps an answer's fields and their types, not their limits; properties named like keywords stay", () => {
    const output = schemaOf(tool, 'output');
    expect(output).toEqual({
      type: 'object',
      properties: {
        pattern: { type: 'string' },
        maxLength: { type: 'integer' },
        count: { type: 'integer' },
        mode: { enum: ['a', 'b'] },
        tags: { type: 'array', items: { type: 'string' } },
        headers: { type: 'object' },
        loose: { type: 'object' },
      },
      required: ['pattern', 'maxLength', 'count', 'mode', 'tags', 'headers', 'loose'],
    });
  });

  it('leaves values alone: a default or const that looks like a schema is data', () => {
    const withData = z.object({
      filter: z.object({ minimum: z.number().optional() }).default({ minimum: Number.MAX_SAFE_INTEGER }),
      kind: z.literal('pattern'),
    });
    const input = schemaOf(withData, 'input') as { properties: Record<string, Record<string, unknown>> };
    expect(input.properties.filter!.default).toEqual({ minimum: Number.MAX_SAFE_INTEGER });
    expect(input.properties.kind).toEqual({ type: 'string', const: 'pattern' });
  });

  it('types the objects in an answer without spelling them out; an input keeps every level', () => {
    const point = z.object({ x: z.number(), deeper: z.object({ y: z.number() }) });
    const answer = z.object({
      items: z.array(z.object({ id: z.string(), at: point })),
      one: point,
      either: z.union([z.string(), z.object({ a: z.string() })]),
      maybe: point.nullable(),
    });
    const output = schemaOf(answer, 'output') as { properties: Record<string, unknown> };
    expect(output.properties).toEqual({
      items: { type: 'array', items: { type: 'object' } },
      one: { type: 'object' },
      either: { type: ['string', 'object'] },
      maybe: { type: ['object', 'null'] },
    });
    const input = schemaOf(answer, 'input') as { properties: { one: { properties: Record<string, unknown> } } };
    expect(input.properties.one.properties.deeper).toMatchObject({ properties: { y: { type: 'number' } } });
  });
});
