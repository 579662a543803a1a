import type { PanelNode } from './protocol.js';

// The outline as text, one line per node, two spaces per level: role, "name", ref, states,
// value="…", -> link target, and `: text` for an element whose only content is text. The MCP answer
// and the window show the same lines.

export function outlineLine(node: PanelNode, indent = node.d): string {
  const parts: string[] = [node.role];
  if (node.name !== undefined && node.name !== '') parts.push(JSON.stringify(node.name));
  if (node.ref) parts.push(node.ref);
  if (node.level) parts.push(`level=${node.level}`);
  if (node.testId) parts.push(`testID=${JSON.stringify(node.testId)}`);
  if (node.states) parts.push(...node.states);
  if (node.value !== undefined) parts.push(`value=${JSON.stringify(node.value)}`);
  if (node.url) parts.push(`-> ${node.url}`);
  if (node.hidden) parts.push(`(+${node.hidden} inside)`);
  const line = `${'  '.repeat(Math.max(0, indent))}${parts.join(' ')}`;
  return node.text ? `${line}: ${node.text}` : line;
}

/** The page's line that heads an outline. */
export function pageLine(page: { title: string; url: string; load?: number }): string {
  return `page ${JSON.stringify(page.title)} ${page.url}${page.load ? ` (load ${page.load})` : ''}`;
}
