import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../protocol.js';
import { rowsOf, statusLine, visibleRows } from './model.js';

const nodes: TreeNode[] = [
  { d: 0, n: 'Root', id: 'a.1' },
  { d: 1, n: 'App', id: 'a.2' },
  { d: 2, n: 'Header', id: 'a.3' },
  { d: 2, n: 'List', id: 'a.4' },
  { d: 3, n: 'Item', id: 'a.5' },
  { d: 3, n: 'Item', id: 'a.6' },
  { d: 2, n: 'Footer', id: 'a.7' },
];

describe('the tree model', () => {
  it('knows each row’s parent and whether it has children', () => {
    const rows = rowsOf(nodes);
    expect(rows.map((r) => [r.node.n, r.parent, r.hasChildren])).toEqual([
      ['Root', -1, true],
      ['App', 0, true],
      ['Header', 1, false],
      ['List', 1, true],
      ['Item', 3, false],
      ['Item', 3, false],
      ['Footer', 1, false],
    ]);
  });

  it('hides what a collapsed row holds, and nothing else', () => {
    const rows = rowsOf(nodes);
    expect(visibleRows(rows, new Set(['a.4'])).map((r) => r.node.id)).toEqual(['a.1', 'a.2', 'a.3', 'a.4', 'a.7']);
    expect(visibleRows(rows, new Set(['a.2'])).map((r) => r.node.id)).toEqual(['a.1', 'a.2']);
    expect(visibleRows(rows, new Set(['a.3'])).map((r) => r.node.id)).toHaveLength(7);
  });

  it('says what React the app runs', () => {
    expect(statusLine(undefined)).toBe('Waiting for the app…');
    expect(
      statusLine({
        hook: 'installed',
        renderers: [{ id: 1, version: '19.3.1', package: 'react-dom', build: 'development' }],
        roots: 1,
        commits: 12,
      }),
    ).toBe('react-dom 19.3.1 (development) · 1 root · 12 commits');
  });
});
