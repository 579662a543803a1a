import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { httpServer, startNetworkDebuggee } from './testing.js';

// Defect 7 of issue 9, through a real app: a rule's pattern cannot freeze it.

describe('mock rule patterns in a real debuggee', () => {
  const defer = cleanupAfterEach();

  it('matches *a*a*a*b against a 600-character path and answers; refuses (a+)+ lookalikes it cannot match safely', async () => {
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    const s = await httpServer((req, res) => res.end(`real ${req.url?.length}`));
    defer(() => s.close());

    await d.host.addMockRule({
      match: { url: { kind: 'glob', value: '*a*a*a*b' } },
      action: { type: 'respond', status: 418 },
    });
    await d.host.addMockRule({
      match: { url: { kind: 'regex', value: '(a+)+$' } },
      action: { type: 'respond', status: 299 },
    });
    const path = `/${'a'.repeat(600)}`;
    const missed = await fetch(`${s.url}${path}!`);
    expect(missed.status).toBe(200);
    expect(await missed.text()).toBe('real 602');
    expect((await fetch(`${s.url}${path}b`)).status).toBe(418);
    expect((await fetch(`${s.url}${path}`)).status).toBe(299);

    await expect(
      d.host.addMockRule({
        match: { url: { kind: 'regex', value: '(a)\\1+' } },
        action: { type: 'respond', status: 200 },
      }),
    ).rejects.toThrow(/cannot be run safely: it uses a backreference/);
    expect(d.host.mockConfig().rules).toHaveLength(2);
  });
});
