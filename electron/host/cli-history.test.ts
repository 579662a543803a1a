import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect } from '../../agent/connection.js';
import { network } from '../../plugins/network/agent/index.js';
import { httpServer } from '../../plugins/network/host/testing.js';
import { connectInspector } from '../client/index.js';
import { EXIT, historyCommand, parseTime } from './cli-call.js';
import { cleanupAfterEach } from './test-cleanup.js';
import { startTestCore, waitFor } from './testing.js';

const BIN = resolve(import.meta.dirname, '../../bin/porthole.js');
const defer = cleanupAfterEach();

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

async function recorded() {
  const t = await startTestCore();
  defer(() => t.stop());
  const net = network({ ignoreUrls: [t.urls.mcpUrl] });
  defer(() => net.dispose());
  const agent = connect({ url: t.urls.debuggeeUrl, app: { id: 'com.test.history', name: 'History' }, plugins: [net] });
  defer(() => agent.disconnect());
  await waitFor(() => agent.status.state === 'connected', 'the agent');
  const server = await httpServer((req, res) => res.writeHead(req.url === '/down' ? 503 : 200).end());
  defer(() => server.close());
  await (await fetch(`${server.url}/down`)).text();
  const before = Date.now();
  // Two clients: an AI agent's calls, and a script's in between.
  const agentClient = await connectInspector({ dataDir: t.dataDir, clientName: 'claude-code' });
  defer(() => agentClient.close());
  const other = await connectInspector({ dataDir: t.dataDir, clientName: 'some-script' });
  defer(() => other.close());
  await expect
    .poll(async () => (await agentClient.network.listTransactions({ status: 503 })).transactions.length)
    .toBe(1);
  const page = await agentClient.network.listTransactions({ status: 503 });
  await other.network.getMockConfig();
  await agentClient.network.getTransaction({ id: page.transactions[0]!.id });
  return { t, server, before };
}

describe('porthole history', () => {
  it('lists and exports the calls of one client, ids as variables, from the running inspector', async () => {
    const { t } = await recorded();
    const dir = ['--data-dir', t.dataDir];
    const listed = capture();
    expect(await historyCommand(['list', '--client', 'claude-code', ...dir], listed.io)).toBe(EXIT.ok);
    expect(listed.out.at(-1)).toMatch(/^\d+ calls by claude-code\.$/);
    expect(listed.out.join('\n')).toContain('network_get_transaction');
    expect(listed.out.join('\n')).not.toContain('network_get_mock_config');

    // Its folder is made if needed.
    const file = join(mkdtempSync(join(tmpdir(), 'porthole-export-')), 'test', 'replay.test.ts');
    const exported = capture();
    const code = await historyCommand(['export-test', '--client', 'claude-code', '--out', file, ...dir], exported.io);
    expect(code, exported.err.join('\n')).toBe(EXIT.ok);
    expect(exported.err.join('\n')).toMatch(/^wrote .*replay\.test\.ts: a vitest test replaying \d+ of \d+ calls/);
    const test = readFileSync(file, 'utf8');
    expect(test).toContain("from 'vitest'");
    expect(test).toMatch(/porthole\.network\.getTransaction\(\{\s*id: r\d+\.transactions\.find\(/);
    expect(test).not.toContain('getMockConfig');

    const playwright = capture();
    expect(
      await historyCommand(['export-test', '--framework', 'playwright', '--since', '5m', ...dir], playwright.io),
    ).toBe(0);
    expect(playwright.out.join('\n')).toContain("from 'porthole/playwright'");
  });

  it('refuses a bare number as a time, unknown flags and frameworks, and says when nothing matches', async () => {
    expect(() => parseTime('1764950000000', Date.now(), '--since')).toThrow(
      /bare number could be seconds or milliseconds/,
    );
    expect(parseTime('10m', 1_000_000_000, '--since')).toBe(1_000_000_000 - 600_000);
    expect(parseTime('2026-12-05T14:03:00Z', 0, '--since')).toBe(Date.parse('2026-12-05T14:03:00Z'));
    const today = new Date(parseTime('14:03', Date.now(), '--since'));
    expect([today.getHours(), today.getMinutes()]).toEqual([14, 3]);

    const { t } = await recorded();
    const dir = ['--data-dir', t.dataDir];
    for (const [args, message] of [
      [['export-test', '--since', '12345'], /bare number/],
      [['export-test', '--framework', 'jest'], /vitest or playwright/],
      [['export-test', '--frobnicate'], /no flag --frobnicate/],
      [['rewind'], /unknown command "rewind"/],
    ] as const) {
      const run = capture();
      expect(await historyCommand([...args, ...dir], run.io)).toBe(EXIT.usage);
      expect(run.err.join('\n')).toMatch(message);
    }
    const none = capture();
    expect(await historyCommand(['export-test', '--client', 'nobody', ...dir], none.io)).toBe(EXIT.failed);
    expect(none.err.join('\n')).toContain('no call by nobody');
    const gone = capture();
    expect(await historyCommand(['list', '--data-dir', mkdtempSync(join(tmpdir(), 'porthole-none-'))], gone.io)).toBe(
      EXIT.unavailable,
    );
  });

  it('is a command of the porthole CLI', async () => {
    const { t } = await recorded();
    const run = await new Promise<{ code: number; stdout: string }>((done) =>
      execFile(
        process.execPath,
        [BIN, 'history', 'list', '--data-dir', t.dataDir],
        { env: { ...process.env, CI: '1' } },
        (e, stdout) => done({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, stdout }),
      ),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('claude-code');
  });
});
