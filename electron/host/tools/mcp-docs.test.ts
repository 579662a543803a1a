import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { cleanupAfterEach } from '../test-cleanup.js';
import { startTestCore } from '../testing.js';

const defer = cleanupAfterEach();
const docs = readFileSync(join(import.meta.dirname, '../../../docs/mcp.md'), 'utf8');

it('docs/mcp.md names every tool the inspector serves, and no tool it does not', async () => {
  const t = await startTestCore();
  defer(() => t.stop());
  const served = t.core.tools
    .list()
    .map((tool) => tool.name)
    .sort();
  const prefixes = [...new Set(served.map((name) => name.slice(0, name.indexOf('_') + 1)))];
  const named = [...docs.matchAll(/`([a-z]+_[a-z_]+)`/g)]
    .map((m) => m[1] as string)
    .filter((name) => prefixes.some((p) => name.startsWith(p)));
  expect(
    served.filter((name) => !named.includes(name)),
    'tools missing from docs/mcp.md',
  ).toEqual([]);
  expect(
    [...new Set(named.filter((name) => !served.includes(name)))],
    'docs/mcp.md names tools that do not exist',
  ).toEqual([]);
});

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
const cell = (value: boolean | undefined) => (value === undefined ? '—' : value ? 'yes' : 'no');

/** The rows of docs/mcp.md's "Tool hints" table: tool name and its four cells. */
function documentedHints(): Map<string, string[]> {
  const section = docs.slice(docs.indexOf('### Tool hints'));
  const table = section.slice(0, section.indexOf('\n#'));
  const rows = new Map<string, string[]>();
  for (const line of table.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const name = cells[1]?.match(/^`([a-z]+_[a-z_]+)`$/)?.[1];
    if (name) rows.set(name, cells.slice(2, 6));
  }
  return rows;
}

it('every tool declares its hints, and docs/mcp.md lists them as declared', async () => {
  const t = await startTestCore();
  defer(() => t.stop());
  const tools = t.core.tools.registered();
  // readOnlyHint and openWorldHint on every tool; destructiveHint and idempotentHint where MCP gives
  // them a meaning, on tools that are not read-only.
  const undeclared = tools.flatMap(({ name, info: { annotations: a } }) =>
    HINTS.filter((h) => (h === 'readOnlyHint' || h === 'openWorldHint' || !a.readOnlyHint) && a[h] === undefined).map(
      (h) => `${name}: ${h}`,
    ),
  );
  expect(undeclared, 'hints a tool does not declare').toEqual([]);
  const documented = documentedHints();
  const expected = tools.map(
    ({ name, info }) => `| \`${name}\` | ${HINTS.map((h) => cell(info.annotations[h])).join(' | ')} |`,
  );
  const actual = tools.map(({ name }) => `| \`${name}\` | ${(documented.get(name) ?? ['missing']).join(' | ')} |`);
  expect(actual, 'docs/mcp.md "Tool hints" (each tool as its annotations say)').toEqual(expected);
  expect([...documented.keys()].filter((name) => !tools.some((tool) => tool.name === name))).toEqual([]);
});

it('every parameter of every tool has a description', async () => {
  const t = await startTestCore();
  defer(() => t.stop());
  type Props = { properties?: Record<string, { description?: string }> };
  const missing = t.core.tools.registered().flatMap(({ name, input, info }) => {
    const declared = (z.toJSONSchema(input, { target: 'draft-7', io: 'input' }) as Props).properties ?? {};
    const served = (info.inputSchema as Props).properties ?? {};
    // sessionId is every plugin tool's, described once (docs/mcp.md, "Choosing the app").
    return Object.keys(declared)
      .filter((key) => key !== 'sessionId' && !declared[key]?.description && !served[key]?.description)
      .map((key) => `${name}.${key}`);
  });
  expect(missing, 'parameters without a description (add .describe() in the zod schema)').toEqual([]);
});
