import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startPlugin } from '../../../electron/host/plugin-testing.js';
import { waitFor } from '../../../electron/host/testing.js';
import type { StorageAdapter } from '../agent/index.js';
import { storage } from '../agent/index.js';
import storagePlugin from './index.js';

/** A real file store: one JSON file per key in a folder, the kind of store an app registers as one object. */
function fileStore(name: string): StorageAdapter & { dir: string; write(key: string, value: string): void } {
  const dir = mkdtempSync(join(tmpdir(), 'porthole-storage-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const path = (key: string) => join(dir, encodeURIComponent(key));
  const listeners = new Set<(key?: string) => void>();
  const write = (key: string, value: string) => {
    writeFileSync(path(key), value);
    for (const l of listeners) l(key);
  };
  return {
    name,
    dir,
    write,
    keys: () => readdirSync(dir).map((f) => ({ key: decodeURIComponent(f), size: readFileSync(join(dir, f)).length })),
    get: (key) => {
      try {
        return readFileSync(path(key), 'utf8');
      } catch {
        return undefined;
      }
    },
    set: (key, value) => write(key, value),
    remove: (key) => {
      unlinkSync(path(key));
      for (const l of listeners) l(key);
    },
    subscribe: (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
  };
}

/** A store of structured values (what an app's SQLite rows or an in-memory cache hand out). */
function structuredStore(): StorageAdapter {
  const values = new Map<string, unknown>([
    ['row:1', { id: 1, name: 'Ada', born: new Date('1815-12-10T00:00:00Z'), tags: new Set(['math']), big: 10n }],
    ['blob', new Blob([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3])], { type: 'image/png' })],
    ['bytes', new Uint8Array([1, 2, 3, 4])],
    ['huge', { items: Array.from({ length: 5000 }, (_, i) => ({ i, text: 'x'.repeat(20) })) }],
  ]);
  return { name: 'rows', keys: () => [...values.keys()], get: (key) => values.get(key) };
}

describe('storage tools with an app that registers its own stores (Node)', () => {
  it('a Node app without adapters has no areas, and the answer says how to add one', async () => {
    const t = await startPlugin(storagePlugin, storage());
    const areas = await t.mcp.call('storage_list');
    expect(areas.structuredContent).toEqual({
      summary: expect.any(String),
      areas: [],
      note: expect.stringMatching(/storage\(\{ adapters: /),
    });
    // A store added later is listed from then on.
    t.agent.addAdapter({ name: 'late', keys: () => ['a'], get: () => '1' });
    expect((await t.mcp.call('storage_list')).structuredContent).toMatchObject({ areas: [{ area: 'late', count: 1 }] });
  });

  it('lists areas and keys with sizes, pages with a cursor, filters by prefix', async () => {
    const files = fileStore('files');
    for (let i = 0; i < 250; i++) files.write(`item:${String(i).padStart(3, '0')}`, JSON.stringify({ i }));
    files.write('settings', '{"theme":"dark"}');
    const t = await startPlugin(storagePlugin, storage({ adapters: [files, structuredStore()] }));

    const areas = await t.mcp.call('storage_list');
    expect(areas.isError).toBe(false);
    expect(areas.structuredContent).toEqual({
      summary: expect.any(String),
      areas: [
        { area: 'files', kind: 'adapter', count: 251, size: expect.any(Number) },
        { area: 'rows', kind: 'adapter', count: 4, readOnly: true },
      ],
    });

    const first = await t.mcp.call('storage_list', { area: 'files' });
    const page = first.structuredContent as { keys: { key: string; size: number; preview?: string }[]; cursor: string };
    expect(page.keys).toHaveLength(100);
    expect(page.keys[0]).toEqual({ key: 'item:000', size: 7, preview: '{"i":0}' });
    expect(first.structuredContent).toMatchObject({ totals: { keys: 251 }, cursor: 'kitem:099' });

    // The next page continues after the last key even when keys before it went away meanwhile.
    files.remove?.('item:050');
    const second = await t.mcp.call('storage_list', { area: 'files', cursor: page.cursor });
    const keys2 = (second.structuredContent as { keys: { key: string }[] }).keys.map((k) => k.key);
    expect(keys2[0]).toBe('item:100');
    const third = await t.mcp.call('storage_list', {
      area: 'files',
      cursor: (second.structuredContent as { cursor: string }).cursor,
    });
    const last = third.structuredContent as { keys: { key: string }[]; cursor?: string; totals: { keys: number } };
    expect(last.keys.map((k) => k.key).at(-1)).toBe('settings');
    expect(last.cursor).toBeUndefined();
    expect(last.totals.keys).toBe(250);

    const prefixed = await t.mcp.call('storage_list', { area: 'files', prefix: 'item:24' });
    expect(prefixed.structuredContent).toMatchObject({ totals: { keys: 250, matched: 10 } });

    const bad = await t.mcp.call('storage_list', { area: 'files', cursor: 'o12' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/does not continue this call/);
    const unknown = await t.mcp.call('storage_list', { area: 'nope' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(
      /the app has no storage area "nope" \(it has files, rows.*storage_list lists the areas/,
    );
  });

  it('reads values: JSON parsed, text as text, structures tagged, binary described, long text in slices or a file', async () => {
    const files = fileStore('files');
    files.write('settings', '{"theme":"dark","volume":3}');
    files.write('greeting', 'hello there');
    files.write('long', 'abcdefghij'.repeat(5000));
    const t = await startPlugin(storagePlugin, storage({ adapters: [files, structuredStore()] }));

    expect((await t.mcp.call('storage_get', { area: 'files', key: 'settings' })).structuredContent).toEqual({
      summary: expect.any(String),
      found: true,
      size: 27,
      value: { theme: 'dark', volume: 3 },
    });
    expect((await t.mcp.call('storage_get', { area: 'files', key: 'greeting' })).structuredContent).toEqual({
      summary: expect.any(String),
      found: true,
      size: 11,
      text: 'hello there',
    });
    const missing = await t.mcp.call('storage_get', { area: 'files', key: 'gone' });
    expect(missing.isError).toBe(false);
    expect(missing.structuredContent).toMatchObject({ found: false, note: expect.stringMatching(/has no key "gone"/) });

    const row = (await t.mcp.call('storage_get', { area: 'rows', key: 'row:1' })).structuredContent!;
    expect(row.value).toEqual({
      id: 1,
      name: 'Ada',
      born: { $: 'date', v: '1815-12-10T00:00:00.000Z' },
      tags: { $: 'set', items: ['math'], size: 1 },
      big: { $: 'bigint', v: '10' },
    });
    const blob = (await t.mcp.call('storage_get', { area: 'rows', key: 'blob' })).structuredContent!;
    expect(blob).toMatchObject({
      size: 11,
      value: {
        $: 'binary',
        cls: 'Blob',
        type: 'image/png',
        size: 11,
        head: Buffer.from([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]).toString('base64'),
      },
    });
    const bytes = (await t.mcp.call('storage_get', { area: 'rows', key: 'bytes' })).structuredContent!;
    expect(bytes.value).toEqual({ $: 'binary', cls: 'Uint8Array', size: 4, head: 'AQIDBA==' });

    const huge = await t.mcp.call('storage_get', { area: 'rows', key: 'huge' });
    expect(JSON.stringify(huge.structuredContent).length).toBeLessThan(25_000);
    expect(huge.structuredContent).toMatchObject({ next: expect.stringMatching(/file: true writes it whole/) });

    const slice1 = await t.mcp.call('storage_get', { area: 'files', key: 'long' });
    expect(slice1.structuredContent).toMatchObject({
      text: 'abcdefghij'.repeat(2000),
      cursor: 'o20000',
      next: expect.stringMatching(/30,000 more characters/),
    });
    const slice2 = await t.mcp.call('storage_get', { area: 'files', key: 'long', cursor: 'o20000' });
    expect((slice2.structuredContent as { text: string }).text).toHaveLength(20_000);
    const slice3 = await t.mcp.call('storage_get', { area: 'files', key: 'long', cursor: 'o40000' });
    expect(slice3.structuredContent).toMatchObject({ text: 'abcdefghij'.repeat(1000) });
    expect(slice3.structuredContent).not.toHaveProperty('cursor');

    const saved = await t.mcp.call('storage_get', { area: 'files', key: 'long', file: true });
    const file = (saved.structuredContent as { file: { path: string; bytes: number } }).file;
    expect(readFileSync(file.path, 'utf8')).toBe('abcdefghij'.repeat(5000));
    expect(saved.content.some((c) => c.type === 'resource_link')).toBe(true);
    const savedRows = await t.mcp.call('storage_get', { area: 'rows', key: 'huge', file: true });
    const rowsFile = (savedRows.structuredContent as { file: { path: string } }).file;
    expect(JSON.parse(readFileSync(rowsFile.path, 'utf8')).items).toHaveLength(5000);
  });

  it('writes and removes with Ask by default: the window is asked, the answer has before and after, the call history has it', async () => {
    const files = fileStore('files');
    files.write('settings', '{"theme":"dark"}');
    files.write('draft', 'x');
    const t = await startPlugin(storagePlugin, storage({ adapters: [files] }));

    const permissions = t.core.permissions.view().tools.filter((tool) => tool.plugin === 'storage');
    expect(Object.fromEntries(permissions.map((p) => [p.name, [p.permission, p.source]]))).toEqual({
      storage_list: ['allow', 'default'],
      storage_get: ['allow', 'default'],
      storage_set: ['ask', 'default'],
    });

    const pending = t.mcp.call('storage_set', { area: 'files', key: 'settings', value: '{"theme":"light"}' });
    const ask = await waitFor(() => t.core.permissions.asks()[0], 'the window to be asked');
    expect(ask).toMatchObject({
      tool: 'storage_set',
      change: `Writes "settings" in the app's files: {"theme":"light"} (17 characters), replacing what is there.`,
      destructive: true,
    });
    expect(files.get('settings')).toBe('{"theme":"dark"}');
    t.core.permissions.answer(ask.id, 'allow-once');
    const set = await pending;
    expect(set.isError).toBe(false);
    expect(set.structuredContent).toEqual({
      summary: expect.any(String),
      before: { key: 'settings', found: true, size: 16, value: { theme: 'dark' } },
      after: { key: 'settings', found: true, size: 17, value: { theme: 'light' } },
    });
    expect(files.get('settings')).toBe('{"theme":"light"}');
    const record = t.core.history.list(undefined, { tool: 'storage_set' })[0]!;
    expect(record).toMatchObject({ status: 'succeeded', decision: { outcome: 'allowed', by: 'user', scope: 'once' } });

    const removing = t.mcp.call('storage_set', { area: 'files', key: 'draft', remove: true });
    const ask2 = await waitFor(() => t.core.permissions.asks()[0], 'the second question');
    expect(ask2.change).toBe(`Removes "draft" from the app's files.`);
    t.core.permissions.answer(ask2.id, 'deny');
    const refused = await removing;
    expect(refused.isError).toBe(true);
    expect(files.get('draft')).toBe('x');

    // The window's own tool runner is not asked.
    const removed = await t.window.run('storage_set', { area: 'files', key: 'draft', remove: true });
    expect(removed.structuredContent).toEqual({
      summary: expect.any(String),
      removed: 1,
      before: { key: 'draft', found: true, size: 1, text: 'x' },
    });
    expect(files.get('draft')).toBeUndefined();
    const neither = await t.window.run('storage_set', { area: 'files', remove: true });
    expect(neither.isError).toBe(true);
    expect(neither.text).toMatch(/name the key \(storage_list lists them\), or pass clear: true/);
    const nothing = await t.window.run('storage_set', { area: 'files', key: 'draft2' });
    expect(nothing.text).toMatch(/pass value to write "draft2", or remove: true to remove it/);
    const both = await t.window.run('storage_set', { area: 'files', key: 'settings', value: 'x', clear: true });
    expect(both.text).toMatch(/pass one of value, remove: true or clear: true, not value and clear: true/);
    expect(files.get('settings')).toBe('{"theme":"light"}');

    // Read-only: the change tools leave the agent's list.
    t.core.permissions.set({ readOnly: true });
    const names = (await t.mcp.tools()).map((tool) => tool.name).filter((n) => n.startsWith('storage_'));
    expect(names.sort()).toEqual(['storage_get', 'storage_list']);
  });

  it('hides secrets from AI agents — secret-looking keys, fields, tokens — and the panel’s Agent view shows the same', async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    const files = fileStore('files');
    files.write('auth.token', 'abc123');
    files.write('user', JSON.stringify({ name: 'Ada', password: 'hunter2', profile: { apiKey: 'k-1' } }));
    files.write('note', `Authorization: Bearer ${jwt} (sent)`);
    const t = await startPlugin(storagePlugin, storage({ adapters: [files] }));

    const token = await t.mcp.call('storage_get', { area: 'files', key: 'auth.token' });
    expect(token.structuredContent).toMatchObject({
      text: '[redacted]',
      note: '1 value hidden from AI agents as [redacted]',
    });
    const user = await t.mcp.call('storage_get', { area: 'files', key: 'user' });
    expect(user.structuredContent).toMatchObject({
      value: { name: 'Ada', password: '[redacted]', profile: { apiKey: '[redacted]' } },
      note: '2 values hidden from AI agents as [redacted]',
    });
    const note = await t.mcp.call('storage_get', { area: 'files', key: 'note' });
    expect(JSON.stringify(note.structuredContent)).not.toContain('eyJ');
    const list = await t.mcp.call('storage_list', { area: 'files' });
    expect(JSON.stringify(list.structuredContent)).not.toContain('hunter2');
    expect(JSON.stringify(list.structuredContent)).not.toContain('abc123');

    // The window sees everything; its Agent view is exactly what MCP got.
    const shown = await t.panel.call('get', { area: 'files', key: 'user' });
    expect(shown.value).toMatchObject({ password: 'hunter2' });
    const agentView = await t.panel.call('agentView', { area: 'files', key: 'user' });
    expect(agentView.answer).toEqual(user.structuredContent);
    const windowRun = await t.window.run('storage_get', { area: 'files', key: 'user' });
    expect(JSON.stringify(windowRun.structuredContent)).toContain('hunter2');
  });

  it('reports the app’s own writes to the panel, batched, keys only', async () => {
    const files = fileStore('files');
    const t = await startPlugin(storagePlugin, storage({ adapters: [files] }));
    for (let i = 0; i < 20; i++) files.write(`k${i}`, String(i));
    const event = await t.panel.waitForEvent('changed', (c) => c.changes.length === 20);
    expect(event.changes[0]).toEqual({ area: 'files', key: 'k0' });
    // One notification for the twenty writes.
    expect(t.panel.events.filter((e) => e.event === 'changed')).toHaveLength(1);
  });

  it('explains a store that throws and one that is full', async () => {
    const broken: StorageAdapter = {
      name: 'broken',
      keys: () => {
        throw new Error('disk unplugged');
      },
      get: () => undefined,
    };
    const full: StorageAdapter = {
      name: 'full',
      keys: () => ['a'],
      get: () => 'x',
      set: () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      },
    };
    const t = await startPlugin(storagePlugin, storage({ adapters: [broken, full] }));
    const areas = (await t.mcp.call('storage_list')).structuredContent as { areas: { area: string; error?: string }[] };
    expect(areas.areas[0]).toMatchObject({
      area: 'broken',
      error: expect.stringMatching(/cannot be read here \(Error: disk unplugged\)/),
    });
    const keys = await t.mcp.call('storage_list', { area: 'broken' });
    expect(keys.isError).toBe(true);
    expect(keys.text).toMatch(/broken cannot be read here: disk unplugged/);
    const set = await t.window.run('storage_set', { area: 'full', key: 'a', value: 'yyyy' });
    expect(set.isError).toBe(true);
    expect(set.text).toMatch(
      /the app's storage is full \(QuotaExceededError: The quota has been exceeded.\); nothing was written/,
    );
    const readOnly = await t.window.run('storage_set', { area: 'full', key: 'a', value: 'y' });
    expect(readOnly.isError).toBe(true);
    const noRemove = await t.window.run('storage_set', { area: 'full', key: 'a', remove: true });
    expect(noRemove.text).toMatch(/full cannot remove: the app's adapter has no remove method/);
  });
});
