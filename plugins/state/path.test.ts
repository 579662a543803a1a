import { describe, expect, it } from 'vitest';
import { formatPath, keyParts, parsePath } from './path.js';

describe('state paths', () => {
  it('read as JavaScript writes them, and write back the same', () => {
    expect(parsePath('')).toEqual([]);
    expect(parsePath('$')).toEqual([]);
    expect(parsePath('todos[3].title')).toEqual(['todos', 3, 'title']);
    expect(parsePath('todos.3.title')).toEqual(['todos', '3', 'title']);
    expect(parsePath('entities["a.b"].id')).toEqual(['entities', 'a.b', 'id']);
    expect(parsePath("map['it\\'s']")).toEqual(['map', "it's"]);
    for (const path of ['todos[3].title', 'entities["a.b"].id', '["with space"][0]', '$root.x']) {
      expect(formatPath(parsePath(path))).toBe(path);
    }
    expect(keyParts(parsePath('users[2].ssn'))).toEqual(['users', 'ssn']);
  });

  it('refuse what is not a path, saying where', () => {
    expect(() => parsePath('a..b')).toThrow(/empty part at 2/);
    expect(() => parsePath('a[x]')).toThrow(/\[x\] in "a\[x\]" is not an index; quote a key/);
    expect(() => parsePath('a["x]')).toThrow(/unclosed quote/);
    expect(() => parsePath('a[1')).toThrow(/unclosed \[/);
  });
});
