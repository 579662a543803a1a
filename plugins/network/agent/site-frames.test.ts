import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { callSite } from './observed.js';
import { siteFrames } from './site-frames.js';

// The call site's lines, made from V8's frames with a cache per place: the same text as V8's own
// formatting, and, where Node maps stacks (tsx), the same original places as Node's.

const E = Error as { prepareStackTrace?: unknown };

function made(entry: (...args: never[]) => unknown) {
  return callSite(entry);
}

describe('siteFrames', () => {
  it("writes V8's own lines, the same for a place met again (the cache)", () => {
    const previous = E.prepareStackTrace;
    E.prepareStackTrace = undefined; // as in an app without a formatter (Vitest sets one)
    try {
      const sites: { stack?: unknown }[] = [];
      const plain: string[] = [];
      function request(i: number) {
        sites.push(made(request)!);
        if (i === 0) plain.push(new Error().stack!);
      }
      for (let i = 0; i < 3; i++) request(i);
      const texts = sites.map((s) => siteFrames(s));
      expect(texts[0]).toBe(texts[1]);
      expect(texts[0]).toBe(texts[2]);
      const lines = texts[0]!.split('\n');
      expect(lines.length).toBe(4);
      expect(lines.every((l) => l.startsWith('at '))).toBe(true);
      expect(lines[0]).toContain('site-frames.test.ts');
      // The frames below the one that made the site are V8's own text.
      const own = plain[0]!
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.startsWith('at '));
      expect(lines.slice(1)).toEqual(own.slice(2, 5));
    } finally {
      E.prepareStackTrace = previous;
    }
  });

  it("keeps an app's own Error.prepareStackTrace", () => {
    const previous = E.prepareStackTrace;
    E.prepareStackTrace = () => 'Error\n    at mapped (app.ts:1:2)';
    try {
      expect(siteFrames(made(() => 0))).toBe('at mapped (app.ts:1:2)');
    } finally {
      E.prepareStackTrace = previous;
    }
  });

  it("gives Node's source-mapped places under tsx", () => {
    const dir = mkdtempSync(join(tmpdir(), 'porthole-site-'));
    try {
      const script = join(dir, 'app.ts');
      const agent = fileURLToPath(new URL('.', import.meta.url));
      writeFileSync(
        script,
        `import { callSite } from ${JSON.stringify(join(agent, 'observed.ts'))};
import { siteFrames } from ${JSON.stringify(join(agent, 'site-frames.ts'))}; import { mapFrame } from ${JSON.stringify(join(agent, 'frame-source-maps.ts'))};
type Site = { stack?: unknown };
const sites: Site[] = [];
class Cart {
  load(): void {
    const typed: number = 1;
    sites.push(callSite(Cart.prototype.load)!);
  }
}
for (let i = 0; i < 3; i++) new Cart().load();
// Counts the maps looked up (Node's own formatter uses its internal lookup, not this one).
const mod = process.getBuiltinModule('node:module') as { findSourceMap(p: string): unknown };
const find = mod.findSourceMap;
let lookups = 0;
mod.findSourceMap = (p: string) => (lookups++, find(p));
const node = String(sites[0]!.stack).split('\\n').filter((l) => /^\\s*at /.test(l)).map((l) => l.trim());
const ours = siteFrames(sites[1], mapFrame)!.split('\\n');
const first = lookups;
const again = siteFrames(sites[2], mapFrame)!.split('\\n');
console.log(JSON.stringify({ node, ours, again, first, more: lookups - first }));
`,
      );
      const out = execFileSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
      const { node, ours, again, first, more } = JSON.parse(out.trim().split('\n').pop()!) as {
        node: string[];
        ours: string[];
        again: string[];
        first: number;
        more: number;
      };
      // Each place is mapped once: the same place met again takes its text from the cache.
      expect(first).toBeGreaterThan(0);
      expect(more).toBe(0);
      expect(again).toEqual(ours);
      expect(ours[0]).toContain('app.ts:11:');
      const places = (lines: string[]) => lines.map((l) => /([^\s(]+:\d+:\d+)\)?$/.exec(l)?.[1]);
      expect(places(ours)).toEqual(places(node));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
