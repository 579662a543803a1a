import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RequestError } from './protocol/messenger.js';
import { type CallSurface, definePluginTool, defineTool, ToolArgumentError, ToolError } from './tool.js';
import { mirrorText, ToolResult } from './tool-result.js';
import { parseToolArguments, runTool } from './tool-runner.js';

const base = { title: 'A tool', description: 'Does a thing.', annotations: { readOnlyHint: true } };
const ctx = (surface: CallSurface = 'mcp-http', signal = new AbortController().signal) => ({ surface, signal });

describe('defineTool', () => {
  it('rejects names outside ^[a-zA-Z0-9_-]{1,64}$', () => {
    for (const name of ['example.ping', '', 'has space', 'x'.repeat(65), 'ünïcode']) {
      expect(() => defineTool({ ...base, name, input: z.object({}), handler: () => 'ok' })).toThrow(/must match/);
    }
    expect(
      defineTool({ ...base, name: `a-${'x'.repeat(62)}`, input: z.object({}), handler: () => 'ok' }).name,
    ).toHaveLength(64);
  });

  it('rejects an output schema that is not an object, saying why', () => {
    expect(() =>
      defineTool({
        ...base,
        name: 'bad_output',
        input: z.object({}),
        output: z.array(z.string()) as never,
        handler: () => [] as never,
      }),
    ).toThrow(/output must be a z\.object.*structuredContent is always a JSON object/);
  });

  it('rejects mcpResult without an output schema', () => {
    expect(() =>
      defineTool({
        ...base,
        name: 'no_output',
        input: z.object({}),
        mcpResult: ((raw: unknown) => ({ raw })) as never,
        handler: () => 'x',
      }),
    ).toThrow(/mcpResult needs an output schema/);
  });

  it('rejects an input that is not an object schema', () => {
    expect(() => defineTool({ ...base, name: 'bad_input', input: z.string() as never, handler: () => 'x' })).toThrow(
      /input must be a z\.object/,
    );
  });
});

describe('running a tool', () => {
  const Item = z.object({ id: z.string() });
  let mapperCalls = 0;
  const listItems = defineTool({
    ...base,
    name: 'list_items',
    input: z.object({}),
    output: z.object({ items: z.array(Item) }),
    mcpResult: (raw: { id: string; secret: string }[]) => {
      mapperCalls++;
      return { items: raw };
    },
    handler: () => [
      { id: 'a', secret: 's1' },
      { id: 'b', secret: 's2' },
    ],
  });

  it('applies mcpResult for MCP callers only; the ui surface gets the raw value', async () => {
    mapperCalls = 0;
    for (const surface of ['mcp-http', 'mcp-stdio'] as const) {
      const mcp = await runTool(listItems, {}, ctx(surface));
      expect(mcp.status).toBe('succeeded');
      expect(mcp.result.structuredContent).toEqual({ summary: expect.any(String), items: [{ id: 'a' }, { id: 'b' }] });
      expect(mcp.value).toBeUndefined();
    }
    expect(mapperCalls).toBe(2);

    const ui = await runTool(listItems, {}, ctx('ui'));
    expect(mapperCalls).toBe(2);
    expect(ui.status).toBe('succeeded');
    expect(ui.value).toEqual([
      { id: 'a', secret: 's1' },
      { id: 'b', secret: 's2' },
    ]);
    expect(ui.result.isError).toBe(false);
  });

  it('strips keys the output schema does not declare, in structuredContent and its mirrored text', async () => {
    const tool = defineTool({
      ...base,
      name: 'extra_keys',
      input: z.object({}),
      output: z.object({ a: z.number() }),
      handler: () => ({ a: 1, extra: 'leak' }) as { a: number },
    });
    const { result } = await runTool(tool, {}, ctx());
    expect(result.structuredContent).toEqual({ summary: 'A tool: a: 1', a: 1 });
    expect(result.content).toEqual([{ type: 'text', text: mirrorText({ summary: 'A tool: a: 1', a: 1 }) }]);
    expect(result.textContent).not.toContain('leak');
  });

  it('turns a throwing mapper into an isError result', async () => {
    const tool = defineTool({
      ...base,
      name: 'bad_mapper',
      input: z.object({}),
      output: z.object({ n: z.number() }),
      mcpResult: (_raw: number) => {
        throw new Error('boom');
      },
      handler: () => 3,
    });
    const outcome = await runTool(tool, {}, ctx());
    expect(outcome.status).toBe('failed');
    expect(outcome.result.isError).toBe(true);
    expect(outcome.result.textContent).toMatch(/could not shape its answer for MCP: boom/);
    expect((await runTool(tool, {}, ctx('ui'))).value).toBe(3);
  });

  it('leaves tools without a mapper unaffected on every surface', async () => {
    const tool = defineTool({
      ...base,
      name: 'plain',
      input: z.object({}),
      output: z.object({ n: z.number() }),
      handler: () => ({ n: 7 }),
    });
    for (const surface of ['mcp-http', 'mcp-stdio', 'ui'] as const) {
      const outcome = await runTool(tool, {}, ctx(surface));
      expect(outcome.result.structuredContent).toEqual({ summary: 'A tool: n: 7', n: 7 });
    }
  });

  it('reports a value that does not match the output schema as a failure of the tool', async () => {
    const tool = defineTool({
      ...base,
      name: 'wrong_value',
      input: z.object({}),
      output: z.object({ n: z.number() }),
      handler: () => ({ n: 'seven' }) as unknown as { n: number },
    });
    const outcome = await runTool(tool, {}, ctx());
    expect(outcome.result.isError).toBe(true);
    expect(outcome.result.textContent).toMatch(/does not match its output schema \(n: /);
  });

  it('answers bad arguments with an isError result naming the problem, without calling the handler', async () => {
    let called = false;
    const tool = defineTool({
      ...base,
      name: 'needs_text',
      input: z.object({ text: z.string() }),
      handler: ({ text }) => {
        called = true;
        return text;
      },
    });
    const outcome = await runTool(tool, { text: 5 }, ctx());
    expect(outcome.status).toBe('failed');
    expect(outcome.result.textContent).toMatch(/invalid arguments for needs_text: text: .*inputSchema/);
    expect(called).toBe(false);
    expect((await runTool(tool, { text: 'hi' }, ctx())).result.textContent).toBe('hi');
  });

  it('turns thrown failures into isError results that keep their message', async () => {
    const throwing = (error: unknown) =>
      defineTool({
        ...base,
        name: 'throws',
        input: z.object({}),
        handler: () => {
          throw error;
        },
      });
    const argument = await runTool(throwing(new ToolArgumentError('limit must be positive')), {}, ctx());
    expect(argument.result.toJSON()).toEqual({
      content: [{ type: 'text', text: 'limit must be positive' }],
      isError: true,
    });
    expect((await runTool(throwing(new ToolError('nothing matched')), {}, ctx())).result.textContent).toBe(
      'nothing matched',
    );
    expect(
      (await runTool(throwing(new RequestError('timeout', 'no reply to example.ping within 5 ms')), {}, ctx())).result
        .textContent,
    ).toMatch(/within 5 ms: the debuggee did not answer in time/);
    const unexpected = await runTool(throwing(new TypeError('x is undefined')), {}, ctx());
    expect(unexpected.status).toBe('failed');
    expect(unexpected.result.textContent).toBe('throws failed unexpectedly: x is undefined');
  });

  it('passes an error result through as a failure and a text result as a success', async () => {
    const tool = defineTool({
      ...base,
      name: 'either',
      input: z.object({ fail: z.boolean() }),
      handler: ({ fail }) => (fail ? ToolResult.error('no') : ToolResult.text('yes')),
    });
    expect((await runTool(tool, { fail: true }, ctx())).status).toBe('failed');
    expect((await runTool(tool, { fail: false }, ctx())).status).toBe('succeeded');
  });

  it('ends a cancelled call at once, even when the handler ignores the signal', async () => {
    const tool = defineTool({
      ...base,
      name: 'hangs',
      input: z.object({}),
      handler: () => new Promise<string>(() => {}),
    });
    const controller = new AbortController();
    const pending = runTool(tool, {}, ctx('mcp-http', controller.signal));
    controller.abort();
    const outcome = await pending;
    expect(outcome.status).toBe('cancelled');
    expect(outcome.result.isError).toBe(true);
  });

  it('gives a plugin tool its context', async () => {
    const tool = definePluginTool<{ greet(): string }>()({
      ...base,
      name: 'example_greet',
      input: z.object({}),
      handler: (_args, { instance }) => instance.greet(),
    });
    const outcome = await runTool(tool, {}, { ...ctx(), instance: { greet: () => 'hello' }, session: {} as never });
    expect(outcome.result.textContent).toBe('hello');
  });
});

describe('ToolResult', () => {
  it('refuses a json() payload that is not an object', () => {
    expect(() => ToolResult.json([] as never)).toThrow(/JSON object/);
  });

  it('puts images in content, never in structuredContent', () => {
    const result = ToolResult.image('iVBOR', 'image/png', 'the page');
    expect(result.toJSON()).toEqual({
      content: [
        { type: 'image', data: 'iVBOR', mimeType: 'image/png' },
        { type: 'text', text: 'the page' },
      ],
      isError: false,
    });
  });
});

describe('unknown argument keys', () => {
  it('are refused, naming the closest allowed key and all of them', () => {
    const schema = z.object({ urlContains: z.string().optional(), limit: z.number().optional() });
    const slip = parseToolArguments('network_list_transactions', schema, { url_contains: '/api' });
    expect(slip).toEqual({
      ok: false,
      message:
        'invalid arguments for network_list_transactions: unknown argument "url_contains" (did you mean "urlContains"?); the allowed keys are "urlContains", "limit". Call it again with those.',
    });
    const far = parseToolArguments('t', schema, { zebra: 1 });
    expect(far.ok ? '' : far.message).toContain('unknown argument "zebra"; the allowed keys are');
    expect(parseToolArguments('t', schema, { urlContains: 'x' })).toEqual({ ok: true, args: { urlContains: 'x' } });
  });
});
