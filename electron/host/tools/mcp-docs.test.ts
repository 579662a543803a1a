import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
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
