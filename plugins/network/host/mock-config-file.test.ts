import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pluginAppDir } from '../../../electron/host/data-dir.js';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { startNetworkDebuggee } from './testing.js';

// Defects 6 and 11 of issue 9: one bad rule or a corrupt file never loses the valid rules or stops the start.

const appId = 'com.test.network';
const rule = (id: string, status: number, name = id) => ({
  id,
  name,
  enabled: true,
  match: { url: { kind: 'contains', value: `/${id}` } },
  action: { type: 'respond', status },
});

describe('saved mock rules that are not all valid', () => {
  const defer = cleanupAfterEach();
  const seeded = (content: string) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'porthole-mocks-'));
    const dir = pluginAppDir(dataDir, 'network', appId);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'mock-config.json'), content);
    return { dataDir, dir, file: join(dir, 'mock-config.json') };
  };
  const debuggee = async (dataDir: string) => {
    const d = await startNetworkDebuggee({ core: { dataDir } });
    defer(() => d.stop());
    return d;
  };

  it('keeps every valid rule, backs the bad file up beside it, says which rule went and why', async () => {
    const original = JSON.stringify({
      revision: 4,
      enabled: true,
      rules: [rule('rule-a', 200), rule('rule-b', 999, 'bad status'), rule('rule-c', 404), rule('rule-a', 201)],
    });
    const { dataDir, dir, file } = seeded(original);
    const d = await debuggee(dataDir);

    const view = d.host.mockConfig();
    expect(view.rules.map((r) => r.id)).toEqual(['rule-a', 'rule-c']);
    expect(view.repaired?.kept).toBe(2);
    expect(view.repaired?.dropped).toEqual([
      { index: 1, id: 'rule-b', name: 'bad status', reason: expect.stringContaining('action.status') },
      { index: 3, id: 'rule-a', name: 'rule-a', reason: 'the id "rule-a" is used by an earlier rule' },
    ]);
    const backup = view.repaired?.backup;
    expect(backup && readFileSync(backup, 'utf8')).toBe(original);
    expect(readdirSync(dir).filter((f) => f.includes('.invalid-'))).toHaveLength(1);

    // The next change keeps the valid rules: nothing is lost.
    await d.host.addMockRule({
      match: { url: { kind: 'contains', value: '/d' } },
      action: { type: 'respond', status: 204 },
    });
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { rules: { id: string }[]; revision: number };
    expect(saved.rules.map((r) => r.id).slice(0, 2)).toEqual(['rule-a', 'rule-c']);
    expect(saved.rules).toHaveLength(3);
    expect(saved.revision).toBeGreaterThan(4);
    expect(d.plugin.mockConfig().rules).toHaveLength(3);
  });

  it('moves a file that is not JSON aside and starts with no rules; the old bytes stay', async () => {
    const { dataDir, dir, file } = seeded('{"rules": [ this is not json');
    const d = await debuggee(dataDir);
    expect(d.host.mockConfig().rules).toEqual([]);
    const aside = readdirSync(dir).filter((f) => f.includes('.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe('{"rules": [ this is not json');
    await d.host.addMockRule({
      match: { url: { kind: 'contains', value: '/x' } },
      action: { type: 'respond', status: 204 },
    });
    expect(existsSync(file)).toBe(true);
  });

  it('starts past a damaged call history, keeping the file as it was beside', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'porthole-history-'));
    mkdirSync(join(dataDir, 'history'));
    writeFileSync(join(dataDir, 'history', 'calls.jsonl'), 'garbage\n{"kind":"started"}\n\u0000\u0001');
    const d = await debuggee(dataDir);
    expect(d.t.core.history.size).toBe(0);
    const aside = readdirSync(join(dataDir, 'history')).filter((f) => f.includes('.damaged-'));
    expect(aside).toHaveLength(1);
  });
});
