import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cleanupAfterEach } from '../test-cleanup.js';
import { startTestCore } from '../testing.js';
import { connectMcpClient } from './mcp-testing.js';

// With every built-in plugin: at most 45 tools in 36 KB (DESIGN.md, MCP; issue 37 §3).
const CAP = 36 * 1024;
const MAX_TOOLS = 45;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
type Schema = { properties?: Record<string, Schema>; items?: Schema; description?: string; required?: string[] };

/** Every property a JSON Schema names, as a path of names (through objects, lists and choices). */
function propertyPaths(schema: unknown, at = '', out = new Map<string, Schema>()): Map<string, Schema> {
  if (Array.isArray(schema)) {
    for (const item of schema) propertyPaths(item, at, out);
  } else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' && value && typeof value === 'object') {
        for (const [name, property] of Object.entries(value)) {
          out.set(`${at}.${name}`, property as Schema);
          propertyPaths(property, `${at}.${name}`, out);
        }
      } else if (['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties'].includes(key)) {
        propertyPaths(value, at, out);
      }
    }
  }
  return out;
}

describe('tools/list fits a context window (a real SDK client over HTTP)', () => {
  const defer = cleanupAfterEach();

  it(`is under ${CAP / 1024} KB and ${MAX_TOOLS} tools for every built-in tool, and serves every declared schema`, async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    const mcp = await connectMcpClient('http', {
      mcpUrl: t.urls.mcpUrl,
      dataDir: t.dataDir,
      token: t.core.mcp.token(),
    });
    defer(() => mcp.close());
    const listed = await mcp.client.listTools();
    const size = Buffer.byteLength(JSON.stringify(listed));
    if (process.env.DUMP_TOOLS)
      (await import('node:fs')).writeFileSync(process.env.DUMP_TOOLS, JSON.stringify(listed, null, 1));
    const perTool = listed.tools
      .map((tool) => ({ name: tool.name, size: Buffer.byteLength(JSON.stringify(tool)) }))
      .sort((a, b) => b.size - a.size)
      .map(({ name, size }) => `${name} ${kb(size)}`)
      .join(', ');
    expect(size, `tools/list is ${kb(size)}: ${perTool}`).toBeLessThan(CAP);
    expect(listed.tools.length, 'tools in tools/list').toBeLessThanOrEqual(MAX_TOOLS);

    // A client that renders MCP Apps also gets each view's `_meta.ui` (mcp-apps.ts): still in the cap.
    const rendering = await connectMcpClient(
      'http',
      { mcpUrl: t.urls.mcpUrl, dataDir: t.dataDir, token: t.core.mcp.token() },
      undefined,
      { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } },
    );
    defer(() => rendering.close());
    const withApps = Buffer.byteLength(JSON.stringify(await rendering.client.listTools()));
    // The views' two `_meta.ui` lines, which the spec puts in tools/list for such hosts only, may
    // take it just past the cap (99 bytes when they were added): they are allowed 256 bytes.
    expect(withApps - size, 'bytes the views add').toBeLessThan(200);
    expect(withApps, `tools/list for a client that renders MCP Apps is ${kb(withApps)}`).toBeLessThan(CAP + 256);

    // Loadable as sent by a strict validator (unknown keywords, formats or misplaced limits fail).
    const ajv = addFormats(new Ajv({ strict: true, allErrors: true }));
    for (const tool of listed.tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        if (schema) expect(() => ajv.compile(schema), tool.name).not.toThrow();
      }
    }

    const registered = new Map(t.core.tools.registered().map((tool) => [tool.name, tool]));
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual([...registered.keys()].sort());
    for (const tool of listed.tools) {
      const { input, output } = registered.get(tool.name)!;
      // Every argument is served; a shape left out (briefSchema) is one another tool spells out, or
      // one its brief writes out in words, naming each of its fields.
      const full = propertyPaths(z.toJSONSchema(input, { target: 'draft-7', io: 'input' }));
      const served = propertyPaths(tool.inputSchema);
      for (const path of full.keys()) {
        if (served.has(path)) continue;
        const parent = [...served.entries()].findLast(([p]) => path.startsWith(`${p}.`))?.[1];
        const brief = parent?.description ?? parent?.items?.description ?? '';
        const named = brief.match(/\b[a-z]+_[a-z_]+\b/)?.[0];
        const field = path.slice(path.lastIndexOf('.') + 1);
        expect(
          (named && listed.tools.some((other) => other.name === named)) || new RegExp(`\\b${field}\\b`).test(brief),
          `${tool.name}: ${path} is not served`,
        ).toBe(true);
      }
      expect(
        [...served.keys()].filter((path) => !full.has(path)),
        tool.name,
      ).toEqual([]);
      // Every declared answer is served, with all its fields, and its required ones.
      expect(tool.outputSchema !== undefined, `${tool.name} declares an output schema`).toBe(output !== undefined);
      if (output) {
        const declared = z.toJSONSchema(output, { target: 'draft-7', io: 'output' }) as Schema;
        // …and the one-line summary the framework puts first in every structured answer.
        expect(Object.keys(tool.outputSchema!.properties ?? {}), tool.name).toEqual([
          'summary',
          ...Object.keys(declared.properties ?? {}),
        ]);
        expect(tool.outputSchema!.required, tool.name).toEqual(['summary', ...(declared.required ?? [])]);
      }
    }
  });
});
