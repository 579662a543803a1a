import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SourceFrame } from '../../../shared/host-plugin.js';
import { ScriptFunctions } from './function-names.js';
import { SourceMapper } from './source-mapper.js';

// Frames of a real stack thrown in a minified esbuild bundle, mapped with its map: each is named
// after the function it is in (as the original source names it), not after what it calls.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SOURCE = join(import.meta.dirname, 'fixtures/named-app.ts');
const OUT = join(ROOT, 'out/source-maps-names/app.mjs');
const FRAME = /^\s*at (?:(.+?) \()?(.+):(\d+):(\d+)\)?$/;

let frames: SourceFrame[];

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

  it('finds the innermost function around a place, and none outside functions or in a script that does not parse', () => {
    const text =
      'var a = 1;\nfunction outer() {\n  const inner = () => {\n    return 2;\n  };\n  return inner;\n}\nobj.m = function () {};\n';
    const fns = ScriptFunctions.parse(text)!;
    expect(fns.nameAt(4, 5)).toEqual({ line: 3, column: 9, name: 'inner' });
    expect(fns.nameAt(6, 3)).toEqual({ line: 2, column: 10, name: 'outer' });
    expect(fns.nameAt(8, 21)).toEqual({ line: 8, column: 5, name: 'm' });
    expect(fns.nameAt(1, 5)).toBeUndefined();
    expect(fns.nameAt(99, 1)).toBeUndefined();
    expect(ScriptFunctions.parse('function (')).toBeUndefined();
    // a CommonJS script returns at its top level
    expect(ScriptFunctions.parse('return 1; function f() {}')!.nameAt(1, 20)).toMatchObject({ name: 'f' });
  });
});
