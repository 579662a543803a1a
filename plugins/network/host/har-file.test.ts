import { execFileSync, spawn } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { startNetworkDebuggee } from './testing.js';

// Issue 30, defects 3 and 5: network_import_har { path } echoed the first characters of any file
// (mcp-token, ui-token, /proc/self/environ) and the history kept them; a FIFO swapped in between the
// check and the read hung a libuv file thread (four of them stall every file operation).

const HAR = JSON.stringify({
  log: {
    version: '1.2',
    creator: { name: 'test', version: '1' },
    entries: [
      {
        startedDateTime: '2024-01-01T00:00:00.000Z',
        time: 5,
        request: {
          method: 'GET',
          url: 'http://api.test/one',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: [],
          queryString: [],
          headersSize: -1,
          bodySize: 0,
        },
        response: {
          status: 200,
          statusText: 'OK',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: [],
          content: { size: 0, mimeType: 'text/plain' },
          redirectURL: '',
          headersSize: -1,
          bodySize: 0,
        },
        cache: {},
        timings: { send: 0, wait: 5, receive: 0 },
      },
    ],
  },
});

type Answer = { isError?: boolean; content?: { text?: string }[]; structuredContent?: unknown };
const textOf = (r: Answer) => (r.content ?? []).map((b) => b.text ?? '').join('\n');

describe('network_import_har { path }', () => {
  const defer = cleanupAfterEach();

  async function setup() {
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    const { connectMcpClient } = await import('../../../electron/host/mcp/mcp-testing.js');
    const mcp = await connectMcpClient('http', {
      mcpUrl: d.t.urls.mcpUrl,
      dataDir: d.t.dataDir,
      token: d.t.core.mcp.token(),
    });
    defer(() => mcp.close());
    const dir = mkdtempSync(join(tmpdir(), 'porthole-har-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const importPath = async (path: string) =>
      (await mcp.client.callTool({ name: 'network_import_har', arguments: { path } })) as Answer;
    return { d, dir, importPath };
  }

  it('refuses files of the data dir and quotes nothing of a file that is not a HAR, nor keeps any in the history', async () => {
    const { d, dir, importPath } = await setup();
    const token = d.t.core.mcp.token();
    const secrets = [token, readFileSync(join(d.t.dataDir, 'ui-token'), 'utf8').trim(), 'SECRET-0123456789'];
    writeFileSync(join(dir, 'plain.txt'), 'SECRET-0123456789 and more');
    writeFileSync(join(dir, 'object.json'), '{"apiKey":"SECRET-0123456789"}');
    writeFileSync(join(dir, 'entries.json'), '{"log":{"entries":["SECRET-0123456789"]}}');
    symlinkSync(join(d.t.dataDir, 'mcp-token'), join(dir, 'link-to-token'));
    linkSync(join(d.t.dataDir, 'mcp-token'), join(dir, 'hard-link-to-token'));
    mkdirSync(join(d.t.dataDir, 'exports'), { recursive: true });
    writeFileSync(join(d.t.dataDir, 'exports', 'saved.har'), HAR);

    const refusals: [string, RegExp][] = [
      [join(d.t.dataDir, 'mcp-token'), /is in the inspector's data dir.*only files in its exports\/ folder/],
      [join(d.t.dataDir, 'ui-token'), /is in the inspector's data dir/],
      [join(d.t.dataDir, 'instance.json'), /is in the inspector's data dir/],
      [join(d.t.dataDir, 'exports', '..', 'mcp-token'), /is in the inspector's data dir/],
      [join(dir, 'link-to-token'), /is in the inspector's data dir/],
      [join(dir, 'hard-link-to-token'), /is in the inspector's data dir/],
      [join(dir, 'plain.txt'), /^the HAR file is not JSON \(it does not parse\); pass a HAR 1\.2 file$/],
      [join(dir, 'object.json'), /^not a HAR 1\.2 file: a HAR is a JSON object with log\.version/],
      [
        join(dir, 'entries.json'),
        /^not a HAR 1\.2 file: log\.version: .*log\.entries\.0: expected object, got a string\. Fix those fields/,
      ],
      ['/proc/self/environ', /^the HAR file is not JSON/],
      ['/dev/zero', /is not a regular file \(a pipe, socket or device\)/],
      [dir, /is a folder; pass the path of the HAR file/],
    ];
    for (const [path, message] of refusals) {
      const answer = await importPath(path);
      expect(answer.isError, path).toBe(true);
      expect(textOf(answer), path).toMatch(message);
      for (const secret of secrets) expect(textOf(answer), path).not.toContain(secret!.slice(0, 8));
    }
    expect(await importPath(join(d.t.dataDir, 'exports', 'saved.har'))).toMatchObject({
      structuredContent: { imported: 1 },
    });

    await d.t.core.history.flush();
    const history = readFileSync(d.t.core.history.path, 'utf8');
    for (const secret of secrets) expect(history).not.toContain(secret!.slice(0, 8));
    expect(history).not.toContain(readFileSync('/proc/self/environ', 'utf8').split('\0')[0]!.slice(0, 12));
  });

  it('is never held by a FIFO swapped in for the file: every import answers, and file work goes on', async () => {
    const { d, dir, importPath } = await setup();
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    writeFileSync(join(dir, 'ok.har'), HAR);
    const link = join(dir, 'link');
    symlinkSync(join(dir, 'ok.har'), link);
    // Another process points the path at the FIFO and back as fast as it can.
    const swapper = spawn('sh', ['-c', `cd '${dir}' && while :; do ln -sfn fifo link; ln -sfn ok.har link; done`], {
      stdio: 'ignore',
    });
    defer(() => swapper.kill('SIGKILL'));
    const outcomes = { imported: 0, refused: 0 };
    for (let i = 0; i < 150; i++) {
      const answer = await importPath(link);
      if (answer.isError) {
        expect(textOf(answer)).toMatch(/is not a (regular )?file|there is no such file/);
        outcomes.refused++;
      } else outcomes.imported++;
    }
    swapper.kill('SIGKILL');
    expect(outcomes.imported + outcomes.refused).toBe(150);
    expect(outcomes.refused).toBeGreaterThan(0);
    // The file threads are free: the history is written and read back.
    await d.t.core.history.flush();
    expect(readFileSync(d.t.core.history.path, 'utf8')).toContain('network_import_har');
    expect(textOf(await importPath(join(dir, 'fifo')))).toMatch(/is not a regular file/);
  });
});
