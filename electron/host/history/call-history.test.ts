import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallSummary } from '../../../shared/call-record.js';
import { mirrorText, ToolResult } from '../../../shared/tool-result.js';
import { EventBus } from '../event-bus.js';
import { CallHistory } from './call-history.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('the call history', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const open = (options?: ConstructorParameters<typeof CallHistory>[2], dir?: string) => {
    const dataDir = dir ?? mkdtempSync(join(tmpdir(), 'porthole-history-'));
    if (!dir) dirs.push(dataDir);
    const bus = new EventBus();
    const history = new CallHistory(dataDir, bus, options);
    history.load();
    opened.push(history);
    return { history, bus, dataDir };
  };
  const opened: CallHistory[] = [];
  /** Appends are batched off the call path: wait for them before reading the file. */
  const flushAll = () => Promise.all(opened.map((h) => h.flush()));
  const record = (
    history: CallHistory,
    tool: string,
    result = ToolResult.text('ok'),
    status = 'succeeded' as const,
  ) => {
    const call = history.start({ tool, surface: 'mcp-http', client: { name: 'c', version: '1' }, args: { tool } });
    history.finish(call.id, { status: result.isError ? 'failed' : status, result });
    return call.id;
  };

  it('announces calls as they start and finish', async () => {
    const { history, bus } = open();
    const events: [string, CallSummary][] = [];
    bus.on('call:started', ({ call }) => events.push(['started', call]));
    history.subscribe((event, call) => events.push([event, call]));
    const id = record(history, 'inspector_get_status');
    expect(events.map(([e, c]) => [e, c.id, c.status])).toEqual([
      ['started', id, 'running'],
      ['call:started', id, 'running'],
      ['call:finished', id, 'succeeded'],
    ]);
    expect(events[2]![1].durationMs).toBeGreaterThanOrEqual(0);
  });

  it('reloads what it recorded, newest first, with arguments and results', async () => {
    const { history, dataDir } = open();
    const first = record(history, 'a');
    const second = record(history, 'b', ToolResult.error('the debuggee is gone'));
    await flushAll();
    const reloaded = open(undefined, dataDir).history;
    expect(reloaded.list().map((c) => [c.id, c.status, c.error])).toEqual([
      [second, 'failed', 'the debuggee is gone'],
      [first, 'succeeded', undefined],
    ]);
    expect(reloaded.get(first)).toMatchObject({
      tool: 'a',
      args: { tool: 'a' },
      client: { name: 'c', version: '1' },
      result: { isError: false, content: [{ type: 'text', text: 'ok' }] },
    });
  });

  it('keeps at most maxRecords calls, dropping the oldest, in memory and on disk', async () => {
    const { history, dataDir } = open({ maxRecords: 3 });
    const ids = ['a', 'b', 'c', 'd', 'e'].map((tool) => record(history, tool));
    expect(history.list().map((c) => c.tool)).toEqual(['e', 'd', 'c']);
    await flushAll();
    expect(
      open({ maxRecords: 3 }, dataDir)
        .history.list()
        .map((c) => c.id),
    ).toEqual(ids.slice(2).reverse());
    for (let i = 0; i < 20; i++) record(history, `more-${i}`);
    await flushAll();
    const lines = readFileSync(history.path, 'utf8').trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(3 * 4 + 2); // rewritten once it holds far more than it keeps
  });

  it('ignores a torn last line after a crash and keeps appending cleanly', async () => {
    const { history, dataDir } = open();
    const kept = record(history, 'kept');
    await flushAll();
    appendFileSync(history.path, '{"kind":"finished","id":"x","durat');
    await flushAll();
    const reloaded = open(undefined, dataDir).history;
    expect(reloaded.list().map((c) => c.id)).toEqual([kept]);
    const after = record(reloaded, 'after');
    await flushAll();
    expect(
      open(undefined, dataDir)
        .history.list()
        .map((c) => c.id),
    ).toEqual([after, kept]);
  });

  it('marks a call the inspector never finished as failed', async () => {
    const { history, dataDir } = open();
    const call = history.start({ tool: 'example_send_ping', surface: 'mcp-stdio', args: {} });
    await flushAll();
    const reloaded = open(undefined, dataDir).history;
    expect(reloaded.get(call.id)).toMatchObject({
      status: 'failed',
      error: 'the inspector stopped before this call finished',
    });
    await flushAll();
    expect(open(undefined, dataDir).history.get(call.id)?.status).toBe('failed');
  });

  it('stores an image once, by reference, and reads it back', async () => {
    const { history, dataDir } = open();
    const one = record(history, 'shot', ToolResult.image(PNG, 'image/png', 'caption'));
    const two = record(history, 'shot', ToolResult.image(PNG, 'image/png'));
    expect(readdirSync(join(dataDir, 'history', 'images'))).toHaveLength(1);
    await flushAll();
    expect(readFileSync(history.path, 'utf8')).not.toContain(PNG);
    expect(history.stored(one)!.content).toEqual([
      { type: 'image', mimeType: 'image/png', ref: expect.stringMatching(/^[0-9a-f]{64}\.png$/), bytes: 70 },
      { type: 'text', text: 'caption' },
    ]);
    await flushAll();
    expect(open(undefined, dataDir).history.get(two)!.result!.content).toEqual([
      { type: 'image', data: PNG, mimeType: 'image/png' },
    ]);
  });

  it("stores a json() result's payload once: its mirrored text is not kept twice", async () => {
    const { history } = open();
    const payload = { roundTripMs: 1.5, agentTime: 1234567890 };
    const id = record(history, 'example_send_ping', ToolResult.json(payload));
    await flushAll();
    const line = readFileSync(history.path, 'utf8')
      .split('\n')
      .find((l) => l.includes('"finished"'))!;
    expect(line.match(/agentTime/g)).toHaveLength(1);
    expect(history.get(id)!.result).toEqual({
      isError: false,
      structuredContent: payload,
      content: [{ type: 'text', text: mirrorText(payload) }],
    });
  });

  it('clears finished calls and the images they referenced', async () => {
    const { history, dataDir } = open();
    record(history, 'shot', ToolResult.image(PNG, 'image/png'));
    const running = history.start({ tool: 'slow', surface: 'ui', args: {} });
    expect(history.clear()).toBe(1);
    expect(history.list().map((c) => c.id)).toEqual([running.id]);
    await flushAll();
    expect(readdirSync(join(dataDir, 'history', 'images'))).toHaveLength(0);
    await flushAll();
    expect(open(undefined, dataDir).history.size).toBe(1);
  });

  it('keeps very long arguments and text blocks in part, saying so', async () => {
    const { history } = open({ maxArgsChars: 100, maxTextChars: 50 });
    const call = history.start({ tool: 'network_import_har', surface: 'mcp-http', args: { har: 'x'.repeat(500) } });
    history.finish(call.id, { status: 'succeeded', result: ToolResult.text('y'.repeat(80)) });
    const detail = history.get(call.id)!;
    expect(detail.args).toEqual({
      '(not kept)': 'the arguments were 510 characters of JSON; the history keeps the first 100',
      preview: `{"har":"${'x'.repeat(92)}`,
    });
    expect(detail.result!.content).toEqual([
      { type: 'text', text: `${'y'.repeat(50)}… (30 more characters not kept in the history)` },
    ]);
    const small = history.start({ tool: 'example_echo', surface: 'ui', args: { text: 'short' } });
    expect(history.get(small.id)!.args).toEqual({ text: 'short' });
  });

  it('bounds every stored field and the file in bytes, saying in the record what was cut', async () => {
    const { history, dataDir } = open({ maxStructuredChars: 1000, maxBytes: 200_000 });
    const big = { rows: Array.from({ length: 500 }, (_, i) => ({ i, text: 'r'.repeat(50) })) };
    const call = history.start({ tool: 't'.repeat(5000), sessionId: 's'.repeat(5000), surface: 'mcp-http', args: {} });
    history.finish(call.id, { status: 'succeeded', result: ToolResult.json(big) });
    const detail = history.get(call.id)!;
    expect(detail.tool).toMatch(/^t{200}… \(4800 more characters not kept in the history\)$/);
    expect(detail.sessionId?.length).toBeLessThan(300);
    expect(detail.result?.structuredContent).toEqual({
      '(not kept)': expect.stringMatching(
        /^the structured result was \d+ characters of JSON; the history keeps the first 1000$/,
      ),
      preview: expect.any(String),
    });
    const failed = history.start({ tool: 'x', surface: 'ui', args: {} });
    history.finish(failed.id, { status: 'failed', result: ToolResult.error('e'.repeat(100_000)) });
    expect(history.get(failed.id)!.error).toMatch(/more characters not kept/);
    for (let i = 0; i < 100; i++) record(history, `call-${i}`, ToolResult.text('z'.repeat(10_000)));
    await flushAll();
    // 100 × 10 KB through a 200 KB budget: the file is rewritten, the oldest calls gone.
    expect(readFileSync(history.path, 'utf8').length).toBeLessThanOrEqual(2 * 200_000 + 20_000);
    expect(history.list().length).toBeLessThan(30);
    expect(open({ maxBytes: 200_000 }, dataDir).history.list()[0]?.tool).toBe('call-99');
  });

  it('finds calls by text in their arguments, results and errors, also text that JSON escapes', () => {
    const { history } = open();
    const quoted = record(history, 'a', ToolResult.text('said "hello"\nthen left'));
    const structured = record(history, 'b', ToolResult.json({ items: [{ name: 'Ünïcode ZEBRA' }] }));
    const failed = record(history, 'c', ToolResult.error('the app went AWAY'));
    const args = history.start({ tool: 'd', surface: 'ui', args: { query: 'needle-in-args' } }).id;
    expect(history.search('"HELLO"\nthen')).toEqual([quoted]);
    expect(history.search('ünïcode zebra')).toEqual([structured]);
    expect(history.search('went away')).toEqual([failed]);
    expect(history.search('NEEDLE-in')).toEqual([args]);
    expect(history.search('kind')).toEqual([]); // the lines' own keys are not searched
    expect(history.get(structured)?.result?.structuredContent).toEqual({ items: [{ name: 'Ünïcode ZEBRA' }] });
    expect(history.get(args)).toMatchObject({ status: 'running', args: { query: 'needle-in-args' } });
  });

  it('filters by status, tool, session and surface', async () => {
    const { history } = open();
    record(history, 'a');
    record(history, 'b', ToolResult.error('no'));
    expect(history.list(undefined, { status: 'failed' }).map((c) => c.tool)).toEqual(['b']);
    expect(history.list(undefined, { tool: 'a' }).map((c) => c.tool)).toEqual(['a']);
    expect(history.list(1).map((c) => c.tool)).toEqual(['b']);
    expect(history.list(undefined, { surface: 'ui' })).toEqual([]);
  });
});
