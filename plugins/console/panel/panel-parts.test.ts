import { describe, expect, it } from 'vitest';
import { formatArgs, type TextStyles } from '../host/format.js';
import type { ConsoleRow } from '../protocol.js';
import { safeStyle, styledPieces } from './css-style.js';
import { ConsoleModel, EARLIER, loadNumber } from './model.js';
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
    const texts = (groups?: Map<number, boolean>) => model.view({ ...filter, groups }).rows.map((r) => r.text);
    expect(texts()).toEqual(['outer', 'in outer', 'inner', 'after inner', 'after all']);
    expect(texts(new Map([[3, true]]))).toContain('in inner');
    expect(texts(new Map([[1, false]]))).toEqual(['outer', 'after all']);
  });
});

describe('loads', () => {
  const levels = new Set(['debug', 'info', 'warn', 'error'] as const);
  const marker = (seq: number, text: string) => row(seq, text, { kind: 'connected' });
  const model = new ConsoleModel();
  model.upsert([
    row(1, 'first page'),
    row(2, 'first group', { kind: 'group' }),
    row(3, 'in first group', { group: 1, level: 'warn' }),
    marker(4, 'Load 2: http://127.0.0.1/a'),
    row(5, 'second page'),
    marker(6, 'Reconnected: http://127.0.0.1/a'),
    marker(7, 'Load 3 (the app restarted)'),
    row(8, 'third page', { level: 'error' }),
  ]);

  it('reads load numbers from markers only, not from reconnections or messages', () => {
    expect(model.all().map(loadNumber)).toEqual([
      undefined,
      undefined,
      undefined,
      2,
      undefined,
      undefined,
      3,
      undefined,
    ]);
  });

  it('with Preserve log shows every load under its header, older ones closed with their count', () => {
    const view = model.view({ levels, text: '', preserve: true });
    expect(view.rows.map((r) => r.text)).toEqual([
      'Before load 2',
      'Load 2: http://127.0.0.1/a',
      'Load 3 (the app restarted)',
      'third page',
    ]);
    expect(view.loads.get(EARLIER)).toEqual({ messages: 3, open: false });
    expect(view.loads.get(4)).toEqual({ messages: 2, open: false });
    expect(view.loads.get(7)).toEqual({ messages: 1, open: true });
    const opened = model.view({
      levels,
      text: '',
      preserve: true,
      groups: new Map([
        [EARLIER, true],
        [7, false],
      ]),
    });
    expect(opened.rows.map((r) => r.seq)).toEqual([EARLIER, 1, 2, 3, 4, 7]);
    // The counts follow the filter.
    const warnings = model.view({ levels: new Set(['warn'] as const), text: '', preserve: true });
    expect([...warnings.loads.values()].map((l) => l.messages)).toEqual([1, 1, 0]);
  });

  it('without Preserve log shows the latest load only', () => {
    const view = model.view({ levels, text: '', preserve: false });
    expect(view.rows.map((r) => r.seq)).toEqual([7, 8]);
    expect([...view.loads.keys()]).toEqual([7]);
  });

  it('names the headers to open to show a message', () => {
    expect(model.ancestors(3)).toEqual([EARLIER, 2]);
    expect(model.ancestors(5)).toEqual([4]);
    expect(model.ancestors(8)).toEqual([7]);
    expect(model.ancestors(99)).toEqual([]);
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
