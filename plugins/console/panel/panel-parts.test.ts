import { describe, expect, it } from 'vitest';
import { formatArgs, type TextStyles } from '../host/format.js';
import type { ConsoleRow } from '../protocol.js';
import { safeStyle, styledPieces } from './css-style.js';
import { ConsoleModel } from './model.js';
import { editorUrl, localPath, parseSite } from './source-links.js';

const row = (seq: number, text: string, extra: Partial<ConsoleRow> = {}): ConsoleRow => ({
  seq,
  time: seq,
  level: 'info',
  kind: 'log',
  text,
  count: 1,
  ...extra,
});

describe('%c styles', () => {
  it('keeps where each style starts in the formatted text', () => {
    const styles: TextStyles = [];
    const text = formatArgs(['a %cb%c c %d', 'color: red', 'font-weight: bold', 4.7, 'tail'], styles);
    expect(text).toBe('a b c 4 tail');
    expect(styles).toEqual([
      [2, 'color: red'],
      [3, 'font-weight: bold'],
    ]);
    expect(styledPieces(text, styles).map(([t]) => t)).toEqual(['a ', 'b', ' c 4 tail']);
  });

  it('applies only allowed properties and values: no url(), expressions, variables or escapes', () => {
    expect(safeStyle('color: rgb(200, 0, 0); font-weight: bold; padding: 2px 4px')).toEqual({
      color: 'rgb(200, 0, 0)',
      fontWeight: 'bold',
      padding: '2px 4px',
    });
    for (const bad of [
      'background: url(https://x.test/a.png)',
      'background: u\\72l(x)',
      'color: expression(alert(1))',
      'color: var(--x)',
      'background-image: linear-gradient(red, blue)',
      'position: fixed',
      'font-size: 900px',
      'color: red</style>',
      'font-family: "a"; content: "x"',
    ]) {
      const style = safeStyle(bad);
      expect(JSON.stringify(style), bad).not.toMatch(/url|expression|var\(|gradient|fixed|900|style|content/);
    }
  });
});

describe('groups', () => {
  it('hides the messages of closed groups: groupCollapsed starts closed, the person opens and closes', () => {
    const model = new ConsoleModel();
    model.upsert([
      row(1, 'outer', { kind: 'group' }),
      row(2, 'in outer', { group: 1 }),
      row(3, 'inner', { kind: 'groupCollapsed', group: 1 }),
      row(4, 'in inner', { group: 2 }),
      row(5, 'after inner', { group: 1 }),
      row(6, 'after all'),
    ]);
    const filter = { levels: new Set(['debug', 'info', 'warn', 'error'] as const), text: '', preserve: true };
    const texts = (groups?: Map<number, boolean>) => model.view({ ...filter, groups }).map((r) => r.text);
    expect(texts()).toEqual(['outer', 'in outer', 'inner', 'after inner', 'after all']);
    expect(texts(new Map([[3, true]]))).toContain('in inner');
    expect(texts(new Map([[1, false]]))).toEqual(['outer', 'after all']);
  });
});

describe('source links', () => {
  it('fills editor templates with the source-mapped path, line and column', () => {
    const place = parseSite('http://localhost:5173/src/cart.ts:12:5')!;
    expect(place).toEqual({ file: 'http://localhost:5173/src/cart.ts', line: 12, column: 5 });
    expect(editorUrl({ target: 'vscode', template: '', root: '/home/me/shop' }, place)).toEqual({
      url: 'vscode://file/home/me/shop/src/cart.ts:12:5',
    });
    expect(
      editorUrl({ target: 'idea', template: '', root: '/p' }, { file: '/abs/a b.ts', line: 1, column: 2 }),
    ).toEqual({
      url: 'idea://open?file=/abs/a%20b.ts&line=1&column=2',
    });
    expect(editorUrl({ target: 'vscode', template: '', root: '' }, place)).toHaveProperty('why');
    expect(editorUrl({ target: 'custom', template: 'javascript:alert({line})', root: '/p' }, place)).toHaveProperty(
      'why',
    );
    expect(localPath('webpack://shop/./src/a.ts', '/p')).toBe('/p/shop/src/a.ts');
    expect(localPath('http://h/../../etc/passwd', '/p')).toBe('/p/etc/passwd');
    expect(localPath('file:///C:/src/a.ts', '')).toBe('C:/src/a.ts');
  });
});
