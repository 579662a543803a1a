import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'acorn';
import { build } from 'esbuild';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SourceFrame } from '../../../shared/host-plugin.js';
import { FunctionScanner } from './function-names.js';
import { SourceMapper } from './source-mapper.js';

// Frames of a real stack thrown in a minified esbuild bundle, mapped with its map: each is named
// after the function it is in (as the original source names it), not after what it calls.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SOURCE = join(import.meta.dirname, 'fixtures/named-app.ts');
const OUT = join(ROOT, 'out/source-maps-names/app.mjs');
const FRAME = /^\s*at (?:(.+?) \()?(.+):(\d+):(\d+)\)?$/;

let frames: SourceFrame[];
const closing: (() => void)[] = [];
afterEach(() => {
  for (const close of closing.splice(0)) close();
});

beforeAll(async () => {
  await build({
    entryPoints: [SOURCE],
    outfile: OUT,
    bundle: true,
    format: 'esm',
    platform: 'node',
    sourcemap: 'linked',
    minify: true,
    logLevel: 'silent',
  });
  // In a plain Node (the test runner maps stacks itself): the stack as the engine writes it.
  const stack = execFileSync(process.execPath, [
    '--input-type=module',
    '-e',
    `import { placeOrder } from ${JSON.stringify(pathToFileURL(OUT).href)}; console.log(placeOrder('p1'));`,
  ]).toString();
  frames = stack.split('\n').flatMap((line) => {
    const m = FRAME.exec(line);
    return m && m[2]!.endsWith('app.mjs')
      ? [{ file: m[2]!, line: Number(m[3]), column: Number(m[4]), ...(m[1] ? { fn: m[1] } : {}) }]
      : [];
  });
});

const lineOf = (marker: string) =>
  readFileSync(SOURCE, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(marker)) + 1;

describe('source-mapped function names', () => {
  it('names each frame after the function it is in, in the original source', async () => {
    // The minifier renamed them: the stack as the engine wrote it does not say these names.
    expect(frames.map((f) => f.fn ?? '')).not.toContain('makeStack');
    const mapper = new SourceMapper({ origins: [], disk: true, folders: [] });
    closing.push(() => mapper.close());
    const mapped = await Promise.all(frames.map((f) => mapper.map(f)));
    expect(mapped.map((m) => [m?.fn, m?.line])).toEqual([
      ['makeStack', lineOf('new Error(')],
      ['checkoutLine', lineOf('const found = makeStack')],
      // an arrow passed as an argument has no name: the engine's own (none) stays
      [frames[2]!.fn, lineOf('checkoutLine(line))')],
      // the engine's `t.submitOrder`, by the method's name
      ['submitOrder', lineOf('checkoutLine(line))')],
      ['helperTotal', lineOf('return cart.submitOrder()')],
      ['placeOrder', lineOf('return helperTotal(cart)')],
    ]);
    for (const m of mapped) expect(m?.file).toBe(SOURCE);
  });

  it('finds the innermost function around a place, and none outside functions or in a script that does not parse', async () => {
    const scanner = new FunctionScanner();
    closing.push(() => scanner.close());
    const text =
      'var a = 1;\nfunction outer() {\n  const inner = () => {\n    return 2;\n  };\n  return inner;\n}\nobj.m = function () {};\n';
    const fns = (await scanner.parse(text))!;
    expect(fns.nameAt(4, 5)).toEqual({ line: 3, column: 9, name: 'inner' });
    expect(fns.nameAt(6, 3)).toEqual({ line: 2, column: 10, name: 'outer' });
    expect(fns.nameAt(8, 21)).toEqual({ line: 8, column: 5, name: 'm' });
    expect(fns.nameAt(1, 5)).toBeUndefined();
    expect(fns.nameAt(99, 1)).toBeUndefined();
    expect(await scanner.parse('function (')).toBeUndefined();
    // a CommonJS script returns at its top level
    expect((await scanner.parse('return 1; function f() {}'))!.nameAt(1, 20)).toMatchObject({ name: 'f' });
  });

  // A large generated script (about 1.4 MB, as large as react-dom's development build: most of a second of acorn) with an inline map:
  // the frame is in `handler15999` on the script's last function line.
  const big = (() => {
    const count = 16_000;
    const lines = Array.from(
      { length: count },
      (_, i) => `function handler${i}(a) { return a.map((x) => x + ${i}).filter(Boolean).length; }`,
    );
    // each generated line maps to the same line of big.ts
    const map = { version: 3, sources: ['big.ts'], names: [], mappings: `AAAA${';AACA'.repeat(count - 1)}` };
    const text = `${lines.join('\n')}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}\n`;
    const file = join(ROOT, 'out/source-maps-names/big.js');
    mkdirSync(join(ROOT, 'out/source-maps-names'), { recursive: true });
    writeFileSync(file, text);
    return { file, frame: { file, line: count, column: 30, fn: 'engineName' } satisfies SourceFrame };
  })();

  /** Runs `work` and returns how long it took and the longest the event loop was blocked meanwhile (a 5 ms probe). */
  async function longestGap<T>(work: () => Promise<T>): Promise<{ result: T; tookMs: number; gapMs: number }> {
    let last = performance.now();
    let gapMs = 0;
    const probe = setInterval(() => {
      const now = performance.now();
      gapMs = Math.max(gapMs, now - last);
      last = now;
    }, 5);
    const start = performance.now();
    try {
      const result = await work();
      return { result, tookMs: performance.now() - start, gapMs };
    } finally {
      clearInterval(probe);
    }
  }

  it('parses a large script in a worker: the event loop keeps running while its frames are named', async () => {
    // No deadline here: on a loaded machine the parse may take longer than the default 5 s.
    const scanner = new FunctionScanner({ deadlineMs: 120_000 });
    closing.push(() => scanner.close());
    const mapper = new SourceMapper({ origins: [], disk: true, folders: [] }, { scanner });
    const { result, tookMs, gapMs } = await longestGap(() => mapper.map(big.frame));
    expect(result?.fn).toBe('handler15999');
    // What the same parse holds the event loop for when it runs on it (as it did before the worker).
    const text = readFileSync(big.file, 'utf8');
    const before = performance.now();
    parse(text, { ecmaVersion: 'latest', sourceType: 'module' });
    const onLoopMs = performance.now() - before;
    console.info(
      `large script: acorn on the event loop ${onLoopMs.toFixed(0)} ms; mapped through the worker in ${tookMs.toFixed(0)} ms, longest event-loop gap ${gapMs.toFixed(0)} ms`,
    );
    expect(gapMs).toBeLessThan(onLoopMs / 3);
  });

  it('ends a worker past its deadline (the frame keeps the engine name), then parses the next script in a new one', async () => {
    const scanner = new FunctionScanner({ deadlineMs: 50 });
    closing.push(() => scanner.close());
    const mapper = new SourceMapper({ origins: [], disk: true, folders: [] }, { scanner });
    expect((await mapper.map(big.frame))?.fn).toBe('engineName');
    const patient = new FunctionScanner({ deadlineMs: 60_000 });
    closing.push(() => patient.close());
    const [first, second, third] = await Promise.all([
      scanner.parse(readFileSync(big.file, 'utf8')),
      patient.parse('function a() {}'),
      patient.parse('const b = () => 1;'),
    ]);
    expect(first).toBeUndefined();
    expect(second?.nameAt(1, 14)).toMatchObject({ name: 'a' });
    expect(third?.nameAt(1, 17)).toMatchObject({ name: 'b' });
  });

  it('queues a bounded number of scripts; those past it, and those left when it closes, keep the engine names', async () => {
    const scanner = new FunctionScanner({ maxQueued: 1 });
    const text = readFileSync(big.file, 'utf8');
    const running = scanner.parse(text);
    await new Promise((r) => setTimeout(r, 10));
    const queued = scanner.parse('function q() {}');
    expect(await scanner.parse('function over() {}')).toBeUndefined();
    scanner.close();
    expect(await running).toBeUndefined();
    expect(await queued).toBeUndefined();
    expect(await scanner.parse('function late() {}')).toBeUndefined();
  });
});
