import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { briefSchema, defineTool } from '../../../shared/tool.js';
import { runTool } from '../../../shared/tool-runner.js';
import { registeredTool } from './tool-registry.js';

describe('registeredTool', () => {
  const rule = z.object({ url: z.string().min(1), status: z.number().int().min(200) });
  const tool = defineTool({
    name: 'inspector_test_brief',
    title: 'Test: brief',
    description: 'Takes rules.',
    input: z.object({ first: rule, rest: z.array(briefSchema(rule, 'A rule as first takes it.')).max(5) }),
    annotations: { readOnlyHint: true },
    handler: ({ rest }) => `${rest.length}`,
  });

  it('writes a briefed schema as its type and its brief, and still checks it in full', async () => {
    const { info } = registeredTool(tool);
    expect(info.inputSchema.properties).toEqual({
      first: {
        type: 'object',
        properties: { url: { type: 'string', minLength: 1 }, status: { type: 'integer', minimum: 200 } },
        required: ['url', 'status'],
      },
      rest: { type: 'array', maxItems: 5, items: { type: 'object', description: 'A rule as first takes it.' } },
    });
    const ctx = { surface: 'mcp-http', signal: new AbortController().signal } as const;
    const bad = await runTool(tool, { first: { url: 'a', status: 200 }, rest: [{ url: '', status: 100 }] }, ctx);
    expect(bad.result.isError).toBe(true);
    expect(JSON.stringify(bad.result.content)).toMatch(/rest\.0\.url/);
  });
});
