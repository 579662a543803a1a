import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import type { CallSurface, PluginToolContext } from '../../../shared/tool.js';
import { TOOL_NAME_PATTERN } from '../../../shared/tool.js';
import type { ToolResult } from '../../../shared/tool-result.js';
import { runTool } from '../../../shared/tool-runner.js';
import { HarSchema } from '../har-schema.js';
import type { NetworkHost } from './host-api.js';
import { httpServer, type LocalServer, startNetworkDebuggee } from './testing.js';
import { networkTools } from './tools.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('network tools, run by the tool runner against a live session', () => {
  const defer = cleanupAfterEach();

  async function setup(options?: Parameters<typeof startNetworkDebuggee>[0]) {
    const d = await startNetworkDebuggee(options);
    defer(() => d.stop());
    const s: LocalServer = await httpServer((req, res, body) => {
      if (req.url === '/pixel.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      res.writeHead(req.url?.startsWith('/missing') ? 404 : 200, { 'content-type': 'text/plain' });
      res.end(`answer to ${req.method} ${req.url} ${body.toString()}`);
    });
    defer(() => s.close());
    const call = async (name: string, args: Record<string, unknown> = {}, surface: CallSurface = 'mcp-http') => {
      const tool = networkTools.find((t) => t.name === name);
      if (!tool) throw new Error(`no tool ${name}`);
      const ctx: PluginToolContext<NetworkHost> = {
        surface,
        signal: new AbortController().signal,
        instance: d.host,
        session: d.t.core.sessions.get(d.sessionId)!.info,
      };
      const outcome = await runTool(tool as never, args, ctx as never);
      return outcome.result as ToolResult;
    };
    const json = (r: ToolResult) => {
      expect(r.isError, textOf(r)).toBe(false);
      // biome-ignore lint/suspicious/noExplicitAny: the tests read answers of many shapes
      const { summary, ...answer } = (r.structuredContent ?? JSON.parse(textOf(r))) as Record<string, any>;
      if (r.structuredContent) expect(typeof summary, 'a structured answer starts with its summary').toBe('string');
      return answer;
    };
    return { d, s, call, json };
  }
  const textOf = (r: ToolResult) =>
    r.content
      .filter((c) => c.type === 'text')
      .map((c) => (c as { text: string }).text)
      .join('\n');

  it('are well formed: names, annotations, object output schemas', () => {
    for (const tool of networkTools) {
      expect(tool.name).toMatch(TOOL_NAME_PATTERN);
      expect(tool.name.startsWith('network_')).toBe(true);
      expect(Object.keys(tool.annotations).length).toBeGreaterThan(0);
      expect(tool.annotations.readOnlyHint).toBeTypeOf('boolean');
    }
    const names = networkTools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['network_list_transactions', 'network_export_har']));
  });

  it('lists summaries with filters and cursor pages; refuses a bad cursor and a limit over 500', async () => {
    const { d, s, call, json } = await setup();
    for (let i = 1; i <= 5; i++) await (await fetch(`${s.url}/items/${i}`)).text();
    await (await fetch(`${s.url}/missing`)).text();
    await (await fetch(`${s.url}/items/post`, { method: 'POST', body: 'x' })).text();
    await waitFor(() => d.host.stats().count === 7 && d.host.stats().pending === 0, 'seven finished');

    const page1 = json(await call('network_list_transactions', { urlContains: '/items/', method: 'GET', limit: 2 }));
    expect(page1.total).toBe(5);
    expect(page1.remaining).toBe(3);
    expect(page1.next).toBe(`3 more: call again with cursor "${page1.nextCursor}" (and the same filters)`);
    expect(page1.transactions.map((t: { url: string }) => new URL(t.url).pathname)).toEqual(['/items/5', '/items/4']);
    expect(page1.transactions[0]).not.toHaveProperty('request');
    const page2 = json(
      await call('network_list_transactions', {
        urlContains: '/items/',
        method: 'GET',
        limit: 2,
        cursor: page1.nextCursor,
      }),
    );
    expect(page2.transactions.map((t: { url: string }) => new URL(t.url).pathname)).toEqual(['/items/3', '/items/2']);
    expect(page2.remaining).toBe(1);
    const page3 = json(
      await call('network_list_transactions', {
        urlContains: '/items/',
        method: 'GET',
        limit: 2,
        cursor: page2.nextCursor,
      }),
    );
    expect(page3).toMatchObject({ remaining: 0, total: 5 });
    expect(page3.nextCursor).toBeUndefined();
    expect(page3).not.toHaveProperty('next');

    const errors = json(await call('network_list_transactions', { status: { min: 400, max: 499 } }));
    expect(errors.transactions).toHaveLength(1);
    expect(errors.transactions[0]).toMatchObject({ status: 404, state: 'complete' });
    // "Failed" as the window's is:failed means it (issue 37): a 404 is one, as a refused connection is.
    const gone = await httpServer(() => {});
    await gone.close();
    await fetch(`${gone.url}/refused`).catch(() => {});
    await waitFor(() => d.host.stats().count === 8 && d.host.stats().pending === 0, 'the refused one');
    const failed = json(await call('network_list_transactions', { failedOnly: true }));
    expect(failed.transactions.map((t: { url: string; state: string }) => [new URL(t.url).pathname, t.state])).toEqual([
      ['/refused', 'failed'],
      ['/missing', 'complete'],
    ]);
    expect(json(await call('network_list_transactions', {})).transactions).toHaveLength(8);

    const bad = await call('network_list_transactions', { cursor: 'nope' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/invalid cursor/);
    const tooMany = await call('network_list_transactions', { limit: 501 });
    expect(tooMany.isError).toBe(true);
    expect(textOf(tooMany)).toMatch(/limit/);
  });

  it('gets one transaction in full, cuts bodies to maxBodyChars, returns images as image content', async () => {
    const { d, s, call, json } = await setup();
    await (await fetch(`${s.url}/long`, { method: 'POST', body: 'b'.repeat(500) })).text();
    await (await fetch(`${s.url}/pixel.png`)).arrayBuffer();
    await waitFor(() => d.host.stats().count === 2 && d.host.stats().pending === 0, 'both finished');
    const [long, pixel] = d.host.transactions();

    const full = json(
      await call('network_get_transaction', { id: long!.id, maxBodyChars: 100, includeSnippets: true }),
    );
    expect(full.transaction.request.body).toMatchObject({ truncated: false, truncatedForOutput: true, size: 500 });
    expect(full.transaction.request.body.data).toHaveLength(100);
    expect(full.transaction.response.status).toBe(200);
    expect(full.snippets.curl).toContain(`curl -X 'POST' '${s.url}/long'`);
    expect(full.snippets.fetch).toContain(`await fetch("${s.url}/long"`);

    const image = await call('network_get_transaction', { id: pixel!.id, responseBodyAsImage: true });
    expect(image.isError).toBe(false);
    expect(image.content[0]).toEqual({ type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' });

    const notImage = await call('network_get_transaction', { id: long!.id, responseBodyAsImage: true });
    expect(notImage.isError).toBe(true);
    expect(textOf(notImage)).toMatch(/not a PNG, JPEG, GIF or WebP image/);
    const unknown = await call('network_get_transaction', { id: 'no-such-id' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/network_list_transactions/);
  });

  it('hides headers marked for MCP from MCP callers only (redaction scope "mcp")', async () => {
    const { d, s, call, json } = await setup({ network: { redact: { scope: 'mcp' } } });
    await (await fetch(`${s.url}/secret`, { headers: { authorization: 'Bearer real-token' } })).text();
    const tx = await waitFor(() => d.host.transactions().find((t) => t.state === 'complete'), 'the request');
    const auth = (t: { request: { headers: { name: string; value: string }[] } }) =>
      t.request.headers.find((h) => h.name === 'authorization')?.value;

    expect(auth(json(await call('network_get_transaction', { id: tx.id }, 'ui')).transaction)).toBe(
      'Bearer real-token',
    );
    expect(auth(json(await call('network_get_transaction', { id: tx.id }, 'mcp-http')).transaction)).toBe('[redacted]');
    const har = json(await call('network_export_har', {}, 'mcp-stdio'));
    expect(JSON.stringify(har)).not.toContain('real-token');
    expect(JSON.stringify(json(await call('network_export_har', {}, 'ui')))).toContain('real-token');
  });

  it('exports HAR 1.2 and imports it back; clears', async () => {
    const { d, s, call, json } = await setup();
    await (await fetch(`${s.url}/a?x=1`)).text();
    await (await fetch(`${s.url}/b`, { method: 'PUT', body: 'payload' })).text();
    await waitFor(() => d.host.stats().count === 2 && d.host.stats().pending === 0, 'both finished');

    const har = json(await call('network_export_har', {}));
    expect(HarSchema.safeParse(har).success).toBe(true);
    expect(har.log.entries).toHaveLength(2);
    const onlyPut = json(await call('network_export_har', { method: 'PUT' }));
    expect(onlyPut.log.entries.map((e: { request: { method: string } }) => e.request.method)).toEqual(['PUT']);

    expect(json(await call('network_clear_transactions'))).toEqual({ cleared: 2 });
    expect(d.host.stats().count).toBe(0);
    expect(json(await call('network_import_har', { har: JSON.stringify(har), source: 'saved.har' }))).toEqual({
      imported: 2,
    });
    const listed = json(await call('network_list_transactions', { order: 'oldest' }));
    expect(listed.transactions.map((t: { imported?: boolean }) => t.imported)).toEqual([true, true]);
    const again = json(await call('network_export_har', {}));
    expect(again.log.entries).toEqual(har.log.entries);

    const broken = await call('network_import_har', { har: '{"log":{}}' });
    expect(broken.isError).toBe(true);
    expect(textOf(broken)).toMatch(/not a HAR 1\.2 file/);
  });

  it('manages mock rules: add, update, remove, replace, turn off; a bad regex is refused', async () => {
    const { d, s, call, json } = await setup();
    const bad = await call('network_set_mock_rules', {
      op: 'add',
      rule: {
        match: { url: { kind: 'regex', value: '[a-' } },
        action: { type: 'respond', status: 200 },
      },
    });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/invalid regular expression/);

    const added = json(
      await call('network_set_mock_rules', {
        op: 'add',
        rule: {
          name: 'first',
          match: { url: { kind: 'contains', value: '/mocked' } },
          action: { type: 'respond', status: 200, body: { type: 'text', text: 'one' } },
        },
      }),
    );
    // Over MCP a change answers with what changed, in one line each, not the whole config.
    expect(added).toEqual({
      rule: {
        id: added.rule.id,
        name: 'first',
        enabled: true,
        match: '* contains /mocked',
        action: 'respond 200 text',
        hits: 0,
      },
      revision: 1,
      enabled: true,
      ruleCount: 1,
      sync: { state: 'applied', appliedRevision: 1, load: 1 },
    });
    expect(await (await fetch(`${s.url}/mocked`)).text()).toBe('one');

    const updated = json(
      await call('network_set_mock_rules', {
        op: 'update',
        id: added.rule.id,
        rule: {
          action: {
            type: 'respond',
            status: 202,
            body: { type: 'base64', base64: Buffer.from('two').toString('base64') },
          },
        },
      }),
    );
    expect(updated.rule).toMatchObject({ id: added.rule.id, name: 'first', action: 'respond 202 base64' });
    const second = await fetch(`${s.url}/mocked`);
    expect([second.status, await second.text()]).toEqual([202, 'two']);
    await waitFor(() => d.host.mockConfig().hits[added.rule.id] === 2, 'two hits');
    expect(json(await call('network_get_mock_config')).hits).toEqual({ [added.rule.id]: 2 });

    const replaced = json(
      await call('network_set_mock_rules', {
        op: 'replace',
        rules: [
          { id: 'kept-id', match: { url: { kind: 'contains', value: '/a' } }, action: { type: 'networkError' } },
          { match: { url: { kind: 'contains', value: '/b' } }, action: { type: 'respond', status: 204 } },
        ],
      }),
    );
    expect(replaced.rules).toEqual([
      { id: 'kept-id', enabled: true, match: '* contains /a', action: 'networkError', hits: 0 },
      { id: expect.any(String), enabled: true, match: '* contains /b', action: 'respond 204', hits: 0 },
    ]);
    expect(replaced).toMatchObject({ revision: 3, ruleCount: 2 });
    expect(await (await fetch(`${s.url}/mocked`)).text()).toMatch(/^answer to GET \/mocked/);

    const off = json(await call('network_set_mock_rules', { op: 'disable' }));
    expect(off).toMatchObject({ enabled: false, ruleCount: 2, revision: 4 });
    expect(off.rules).toBeUndefined();
    expect(d.plugin.mockConfig().enabled).toBe(false);

    const removed = json(await call('network_set_mock_rules', { op: 'remove', id: 'kept-id' }));
    expect(removed).toMatchObject({ removed: 'kept-id', ruleCount: 1, revision: 5 });
    const again = await call('network_set_mock_rules', { op: 'remove', id: 'kept-id' });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/there is no mock rule "kept-id"/);
    expect(d.plugin.mockConfig()).toMatchObject({ revision: 5, enabled: false });
    // The window's tool runner keeps the whole config.
    const viaWindow = json(await call('network_set_mock_rules', { op: 'enable' }, 'ui'));
    expect(viaWindow.config).toMatchObject({
      revision: 6,
      enabled: true,
      rules: [{ match: { url: { kind: 'contains', value: '/b' } }, action: { type: 'respond', status: 204 } }],
      hits: {},
    });
  });
});
