import { expect, it } from 'vitest';
import { waitFor } from '../../../electron/host/testing.js';
import type { MessageSummary } from '../protocol.js';
import { startConsoleDebuggee as start } from './testing.js';

// The tools through a real MCP SDK client over Streamable HTTP, fed by the real agent part in this
// process (it wraps the console the test logs with).

it('lists messages: newest page by default, level, text, regex and source filters, since and cursors', async () => {
  const { t, seen } = await start();
  console.info('first %s', 'message');
  console.warn('a warning', { code: 7 });
  console.error(new Error('broken thing'));
  for (let i = 0; i < 30; i++) console.debug(`loop ${i}`);
  await seen('loop 29');

  const page = await t.mcp.call('console_list_messages');
  expect(page.isError).toBe(false);
  const body = page.structuredContent as {
    messages: MessageSummary[];
    latest: number;
    remaining: number;
    olderCursor?: string;
  };
  expect(body.messages).toHaveLength(20);
  expect(body.messages.at(-1)?.text).toBe('loop 29');
  expect(body.remaining).toBeGreaterThanOrEqual(13);
  expect((body as { next?: string }).next).toBe(
    `${body.remaining} more: call again with cursor "${body.olderCursor}" (and the same filters)`,
  );
  expect(body.messages[0]?.site).toMatch(/tools\.test\.ts:\d+:\d+$/);

  const older = await t.mcp.call('console_list_messages', { cursor: body.olderCursor });
  const olderTexts = (older.structuredContent as { messages: MessageSummary[] }).messages.map((m) => m.text);
  expect(olderTexts).toContain('first message');
  expect(olderTexts.at(-1)).toBe('loop 9');

  const warns = await t.mcp.call('console_list_messages', { level: ['warn', 'error'] });
  const warnTexts = (warns.structuredContent as { messages: MessageSummary[] }).messages.map((m) => m.text);
  expect(warnTexts[0]).toBe('a warning {code: 7}');
  expect(warnTexts[1]).toMatch(/^Error: broken thing\n\s+at /);

  const regex = await t.mcp.call('console_list_messages', { text: '/^loop 2[0-9]$/' });
  expect((regex.structuredContent as { messages: MessageSummary[] }).messages).toHaveLength(10);
  const bad = await t.mcp.call('console_list_messages', { text: '/(/' });
  expect(bad.isError).toBe(true);
  expect(bad.text).toContain('invalid regular expression /(/');

  console.log('after the first look');
  await seen('after the first look');
  const news = await t.mcp.call('console_list_messages', { since: body.latest });
  expect((news.structuredContent as { messages: MessageSummary[] }).messages.map((m) => m.text)).toEqual([
    'after the first look',
  ]);
  const none = await t.mcp.call('console_list_messages', { source: 'exception' });
  expect((none.structuredContent as { messages: unknown[] }).messages).toEqual([]);
  const badCursor = await t.mcp.call('console_list_messages', { cursor: 'zzz' });
  expect(badCursor.isError).toBe(true);
});

// Issue 30, stall 1: `/(a+)+$/` over one logged line of 43 `a` and a `!` blocked every app, every
// client and the window for over a minute (JavaScript's engine backtracks); 60 would never end.
it('runs a /regex/ text filter over app text in linear time, and refuses one that needs backtracking', async () => {
  const { t, seen } = await start();
  const line = `${'a'.repeat(60)}!`;
  console.log(line);
  for (let i = 0; i < 2000; i++) console.debug(`${'a'.repeat(200)}${i}!`);
  await seen(`${'a'.repeat(200)}1999!`);

  const none = await t.mcp.call('console_list_messages', { text: '/(a+)+$/' });
  expect(none.isError).toBe(false);
  expect(none.structuredContent).toMatchObject({ messages: [], remaining: 0 });
  const found = await t.mcp.call('console_list_messages', { text: '/^(a|aa)+!$/' });
  expect((found.structuredContent as { messages: MessageSummary[] }).messages.map((m) => m.text)).toEqual([line]);

  const refused = await t.mcp.call('console_list_messages', { text: '/(a)\\1/' });
  expect(refused.isError).toBe(true);
  expect(refused.text).toMatch(
    /cannot be run safely: it uses a backreference.*; rewrite it without: .*, or drop the slashes to look for the text itself/,
  );
});

it('gets one message in full: arguments, stack frames; cuts big arguments', async () => {
  const { t, seen } = await start();
  const big = 'x'.repeat(5000);
  console.log('with args', { a: [1, 2, { deep: true }] }, big);
  console.trace('traced');
  const logged = await seen(`with args {a: [1, 2, {deep: true}]} ${big}`);
  const traced = await seen('console.trace: traced');

  const full = await t.mcp.call('console_get_message', { seq: logged.seq });
  expect(full.structuredContent).toMatchObject({
    seq: logged.seq,
    args: [
      'with args',
      { $: 'object', props: { a: { $: 'array', items: [1, 2, { $: 'object', props: { deep: true } }], length: 3 } } },
      big,
    ],
  });
  const cut = await t.mcp.call('console_get_message', { seq: logged.seq, maxArgsChars: 1000 });
  expect(cut.structuredContent).toMatchObject({
    argsTruncated: true,
    args: ['with args', expect.anything(), { $: 'cut', why: 'bytes' }],
  });

  const trace = await t.mcp.call('console_get_message', { seq: traced.seq });
  const stack = (trace.structuredContent as { stack: { file: string; line: number }[] }).stack;
  expect(stack[0]?.file).toMatch(/tools\.test\.ts$/);

  const missing = await t.mcp.call('console_get_message', { seq: 999_999 });
  expect(missing.isError).toBe(true);
  expect(missing.text).toContain('the newest is');
});

it('groups errors by message and top frame, counts repeats, and answers "since my last call"', async () => {
  const { t, seen } = await start();
  const fail = (n: number) => console.error(new Error(`failure ${n % 2}`));
  for (let i = 0; i < 5; i++) fail(i);
  for (let i = 0; i < 2; i++) console.error('plain error text'); // one site: a repeat
  await seen('plain error text');

  const first = await t.mcp.call('console_list_errors');
  const body = first.structuredContent as {
    groups: { text: string; count: number; totalCount: number }[];
    latest: number;
  };
  expect(body.groups.map((g) => [g.text, g.count])).toEqual([
    ['plain error text', 2],
    ['Error: failure 0', 3],
    ['Error: failure 1', 2],
  ]);
  // the repeated console.error is stored once, with its count
  expect(
    t.host.store
      .all()
      .filter((e) => e.text === 'plain error text')
      .map((e) => e.count),
  ).toEqual([2]);

  expect(body).not.toHaveProperty('next');
  const cut = (await t.mcp.call('console_list_errors', { limit: 1 })).structuredContent as {
    remaining: number;
    next?: string;
  };
  expect(cut).toMatchObject({ remaining: 2, next: '2 more groups: call again with limit 3' });

  const nothing = await t.mcp.call('console_list_errors', { since: body.latest });
  expect((nothing.structuredContent as { groups: unknown[] }).groups).toEqual([]);
  fail(1);
  console.warn('only a warning');
  await seen('only a warning');
  const since = await t.mcp.call('console_list_errors', { since: body.latest });
  expect((since.structuredContent as { groups: { text: string; count: number; totalCount: number }[] }).groups).toEqual(
    [expect.objectContaining({ text: 'Error: failure 1', count: 1, totalCount: 3 })],
  );
  const withWarnings = await t.mcp.call('console_list_errors', { since: body.latest, includeWarnings: true });
  expect((withWarnings.structuredContent as { groups: unknown[] }).groups).toHaveLength(2);
});

it('clears, and keeps default answers small with 500 large messages', async () => {
  const { t, seen } = await start();
  for (let i = 0; i < 500; i++) console.error(`message ${i} ${'y'.repeat(2000)}`, { i, payload: 'z'.repeat(2000) });
  await waitFor(() => t.host.store.size >= 500, 'the 500 messages');
  for (const name of ['console_list_messages', 'console_list_errors']) {
    const answer = await t.mcp.call(name);
    expect(JSON.stringify(answer.structuredContent).length, name).toBeLessThan(25_000);
  }
  const cleared = await t.mcp.call('console_clear');
  expect((cleared.structuredContent as { cleared: number }).cleared).toBeGreaterThanOrEqual(500);
  expect(t.host.store.size).toBe(0);
  await t.panel.waitForEvent('cleared');
  console.log('after clear');
  await seen('after clear');
  const listed = await t.panel.call('list', { limit: 100 });
  expect(listed.messages.map((m) => m.text)).toEqual(['after clear']);
});
