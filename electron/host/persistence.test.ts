import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryBudget } from '../../shared/records.js';
import { SessionPersistence } from './persistence.js';
import { freePort, servedInspector } from './serve-testing.js';
import { cleanupAfterEach } from './test-cleanup.js';

describe('SessionPersistence journals', () => {
  const defer = cleanupAfterEach();

  function setup(reopenJournalsMs?: number) {
    const dir = mkdtempSync(join(tmpdir(), 'porthole-persist-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const persistence = new SessionPersistence(dir, () => [], undefined, reopenJournalsMs);
    defer(() => persistence.close());
    const store = new MemoryBudget().open<{ n: number; text: string }>('records');
    const file = persistence.storeFile('s1', 'network', 'transactions');
    return { persistence, store, file, journal: persistence.journal(file, () => store) };
  }

  it('rewrites a store of many MB whole, in slices, and reads it back; later changes append after it', async () => {
    const { persistence, store, file, journal } = setup();
    // 3,000 records of 1 KiB: a whole rewrite is several slices of 256 KiB.
    for (let n = 0; n < 3000; n++) store.set(`k${n}`, { n, text: 'y'.repeat(1024) });
    journal.rewrite();
    await persistence.flush();
    expect(statSync(file).size).toBeGreaterThan(3 * 1024 * 1024);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    store.delete('k0');
    journal.deleted('k0');
    store.set('k1', { n: -1, text: 'changed' });
    journal.changed('k1');
    await persistence.flush();

    const back = new MemoryBudget().open<{ n: number; text: string }>('records');
    persistence.loadStore(file, back);
    expect(back.size).toBe(2999);
    expect(back.has('k0')).toBe(false);
    expect(back.get('k1')).toEqual({ n: -1, text: 'changed' });
    expect(back.get('k2999')).toEqual({ n: 2999, text: 'y'.repeat(1024) });
    // One JSON record per line, nothing torn between slices.
    for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean))
      expect(() => JSON.parse(line)).not.toThrow();
  });

  it('reads a file back as its end state: a record written before the drop its growth caused drops nothing', () => {
    const { persistence, file } = setup();
    mkdirSync(dirname(file), { recursive: true });
    const text = (n: number) => ({ n, text: 'x'.repeat(400) });
    // As a kill can leave it: c grew (past the budget) in one batch, a's drop went in the next.
    const lines = [['a', text(1)], ['b', text(2)], ['c', text(3)], { dropped: { count: 1, bytes: 420 } }, ['a']];
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const budget = new MemoryBudget(1000, 0);
    const back = budget.open<{ n: number; text: string }>('records');
    expect(persistence.loadStore(file, back)).toEqual({ droppedNow: false });
    expect([...back.entries()].map(([key]) => key)).toEqual(['b', 'c']);
    expect(back.dropped).toEqual({ count: 1, bytes: 420 });
    expect(budget.dropped).toEqual({ count: 0, bytes: 0 });
  });

  it('appends again after the session folder was removed behind its back (once its journals are reopened)', async () => {
    const { persistence, store, file, journal } = setup(0);
    store.set('a', { n: 1, text: 'one' });
    journal.changed('a');
    await persistence.flush();
    rmSync(join(persistence.dir, 's1'), { recursive: true, force: true });
    store.set('b', { n: 2, text: 'two' });
    journal.changed('b');
    await persistence.flush();
    const back = new MemoryBudget().open<{ n: number; text: string }>('records');
    persistence.loadStore(file, back);
    expect(back.get('b')).toEqual({ n: 2, text: 'two' });
  });

  it('starts past a damaged sessions.json (kept aside, said in one line) and skips torn store lines', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'porthole-persist-'));
    defer(() => rmSync(dataDir, { recursive: true, force: true }));
    mkdirSync(join(dataDir, 'sessions'), { recursive: true });
    writeFileSync(join(dataDir, 'sessions', 'sessions.json'), '{"version":1,"sessions":[{"info":');
    const inspector = await servedInspector({ dataDir, port: await freePort() }, defer);
    const line = inspector
      .output()
      .split('\n')
      .find((l) => l.includes('sessions.json'));
    expect(line).toMatch(
      /could not be read .*starting without earlier sessions, the file is kept as .*sessions\.json\.corrupt-/,
    );
    expect(readdirSync(join(dataDir, 'sessions')).filter((f) => f.startsWith('sessions.json.corrupt-'))).toHaveLength(
      1,
    );
    expect(await inspector.call('inspector_list_sessions')).toMatchObject({ sessions: [], total: 0 });

    // A store file with a line torn by a kill: the lines around it are read.
    const { persistence, file } = setup();
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '["a",{"n":1,"text":"one"}]\n["b",{"n":2,"te\n["c",{"n":3,"text":"three"}]\n', {
      flag: 'w',
    });
    const back = new MemoryBudget().open<{ n: number; text: string }>('records');
    persistence.loadStore(file, back);
    expect([...back.entries()].map(([key]) => key)).toEqual(['a', 'c']);
  });
});
