import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { build, type Plugin } from 'esbuild';
import { contentTypeOf, resolveRendererFile } from '../electron/host/ui-bridge/static-ui.js';
import type { InspectResult, RendersResult } from '../plugins/react/protocol.js';
import { ROOT, type RunningInspector, startInspector } from './support/inspector.js';
import { buildRenderer, mcpClient, openWindow } from './window.helpers.js';

// Source places and function names through source maps, and writing a component's state, with
// real React 19 and 18 development builds bundled and minified by esbuild (a map beside the
// bundle) in Chromium, the real inspector and an outside MCP SDK client.

const SOURCE = join(ROOT, 'e2e/fixtures/react-source/app.tsx');
const REACT18 = join(ROOT, 'e2e/fixtures/react18');
const lineOf = (marker: string) =>
  readFileSync(SOURCE, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(marker)) + 1;

/** React and react-dom from the React 18 fixture's own node_modules. */
const react18: Plugin = {
  name: 'react18',
  setup(b) {
    b.onResolve({ filter: /^(react|react-dom|scheduler)(\/.*)?$/ }, (args) =>
      args.resolveDir.startsWith(REACT18) ? undefined : b.resolve(args.path, { resolveDir: REACT18, kind: args.kind }),
    );
  },
};

const builds = new Map<number, Promise<string>>();
const bundle = (major: 18 | 19) => {
  let out = builds.get(major);
  if (!out) {
    const dir = join(ROOT, `out/e2e-react-source-${major}`);
    out = build({
      entryPoints: [SOURCE],
      outfile: join(dir, 'app.js'),
      bundle: true,
      format: 'esm',
      platform: 'browser',
      minify: true,
      sourcemap: 'linked',
      jsx: 'automatic',
      jsxDev: true,
      define: { 'process.env.NODE_ENV': '"development"' },
      plugins: major === 18 ? [react18] : [],
      logLevel: 'warning',
    }).then(() => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'index.html'),
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>source</title></head><body><div id="root"></div><script type="module" src="./app.js"></script></body></html>',
      );
      return dir;
    });
    builds.set(major, out);
  }
  return out;
};

async function serve(dir: string) {
  const server = createServer((req, res) => {
    const file = resolveRendererFile(dir, new URL(req.url ?? '/', 'http://x').pathname);
    if (!file) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': contentTypeOf(file) }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let inspector: RunningInspector;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  await Promise.all([buildRenderer(), bundle(19), bundle(18)]);
});
test.beforeEach(async () => {
  inspector = await startInspector();
});
test.afterEach(async () => {
  await inspector?.stop();
});

type Answer = { content: { type: string; text?: string }[]; structuredContent?: unknown; isError?: boolean };
const textOf = (a: Answer) => a.content.map((c) => c.text ?? '').join('\n');

for (const major of [19, 18] as const) {
  test(`React ${major}: original source and function names through the maps; a useState written after the person allows it`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const site = await serve(await bundle(major));
    await openWindow(page, inspector);
    const tab = await page.context().newPage();
    const logged: string[] = [];
    tab.on('console', (m) => logged.push(`${m.type()}: ${m.text()}`));
    tab.on('pageerror', (e) => logged.push(`pageerror: ${e.message}`));
    await tab.goto(`${site.url}index.html?inspector=${encodeURIComponent(inspector.info.debuggeeUrl)}`);
    await expect(tab).toHaveTitle('source: connected');
    const mcp = await mcpClient(inspector);
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const answer = (await mcp.client.callTool({ name, arguments: args })) as Answer;
      expect(answer.isError ?? false, textOf(answer)).toBe(false);
      return answer;
    };
    try {
      // Where React says <Basket> was made: the line in app.tsx (React 19's owner stack goes
      // through the map; React 18's _debugSource already names the original file).
      const basket = (await call('react_inspect', { name: 'Basket' })).structuredContent as InspectResult;
      expect(basket).toMatchObject({
        name: 'Basket',
        props: { label: 'Basket' },
        hooks: [{ kind: 'state', value: 0 }],
      });
      expect(basket.source).toMatch(new RegExp(`react-source/app\\.tsx:${lineOf('<Basket label=')}:\\d+$`));
      expect(basket.source).not.toMatch(/app\.js/);

      // A console call site and an uncaught error's stack, named after their functions.
      await tab.locator('#add').click();
      await expect(tab.locator('#add')).toHaveText('Basket 1');
      await tab.locator('#add').click();
      await tab.locator('#add').click();
      await tab.locator('#checkout').click();
      await expect.poll(() => logged.some((l) => l.includes('too many: 3'))).toBe(true);
      const listed = (await call('console_list_messages', { text: 'too many' })).structuredContent as {
        messages: { seq: number }[];
      };
      const error = (await call('console_get_message', { seq: listed.messages[0]!.seq })).structuredContent as {
        stack: { file: string; fn?: string; mapped?: { file: string; line: number; fn?: string } }[];
      };
      expect(error.stack[0]!.fn).not.toBe('validateCart'); // minified in the bundle
      expect(error.stack.slice(0, 3).map((f) => [f.mapped?.fn, f.mapped?.line])).toEqual([
        ['validateCart', lineOf('marker: throw')],
        ['checkoutCart', lineOf('marker: checkout')],
        ['onClick', lineOf('onClick={() => checkoutCart(count)}')],
      ]);
      expect(error.stack[0]!.mapped?.file).toMatch(/react-source\/app\.tsx$/);
      const added = (await call('console_list_messages', { text: 'added' })).structuredContent as {
        messages: { seq: number }[];
      };
      const log = (await call('console_get_message', { seq: added.messages[0]!.seq })).structuredContent as {
        callSite: { fn?: string; mapped?: { fn?: string; line: number } };
      };
      expect(log.callSite.fn).not.toBe('noteAdded');
      expect(log.callSite.mapped).toMatchObject({ fn: 'noteAdded', line: lineOf('marker: log') });

      // Writing the useState: the person is asked in the window, allows it, React re-renders.
      const before = (await call('react_renders')).structuredContent as RendersResult;
      await page.bringToFront();
      const pending = call('react_inspect', { id: basket.id, set: { path: ['hooks', '0'], value: 40 } });
      const dialog = page.getByRole('dialog', { name: /e2e-agent 0\.9\.0 wants to run react_inspect/ });
      await expect(dialog).toContainText(`Set hooks[0] of the React component #${basket.id} to 40`);
      await dialog.getByRole('button', { name: 'Allow once' }).click();
      const written = (await pending).structuredContent as InspectResult;
      expect(written.hooks?.[0]).toEqual({ kind: 'state', value: 40 });
      await expect(tab.locator('#add')).toHaveText('Basket 40');
      const why = (await call('react_renders', { since: before.commit })).structuredContent as RendersResult;
      expect(why.components).toEqual([expect.objectContaining({ name: 'Basket', why: { written: 1 } })]);
      // the app goes on from the written value
      await tab.locator('#add').click();
      await expect(tab.locator('#add')).toHaveText('Basket 41');

      // The panel: the mapped source, and the person's own edit of the state by keyboard (not asked).
      await page.bringToFront();
      await page.getByTestId('plugin').filter({ hasText: 'React' }).click();
      const panel = page.getByTestId('react-panel');
      await panel.getByTestId('react-node').filter({ hasText: 'Basket' }).click();
      const detail = panel.getByTestId('react-inspector');
      await expect(detail.getByTestId('react-source')).toContainText(
        `react-source/app.tsx:${lineOf('<Basket label=')}:`,
      );
      await detail.getByRole('button', { name: 'Edit hook 0 state' }).click();
      const field = detail.getByRole('textbox', { name: 'hook 0 state as JSON' });
      await expect(field).toBeFocused();
      await field.fill('"many"');
      await field.press('Enter');
      await expect(tab.locator('#add')).toHaveText('Basket many');
      await detail.getByRole('button', { name: 'Edit prop label' }).click();
      await detail.getByRole('textbox', { name: 'prop label as JSON' }).fill('Cart');
      await detail.getByRole('textbox', { name: 'prop label as JSON' }).press('Enter');
      await expect(detail.getByRole('alert')).toContainText('Not JSON');
      await detail.getByRole('textbox', { name: 'prop label as JSON' }).fill('"Cart"');
      await detail.getByRole('textbox', { name: 'prop label as JSON' }).press('Enter');
      await expect(tab.locator('#add')).toHaveText('Cart many');
      await expect(page.getByRole('dialog')).toHaveCount(0);
    } finally {
      await mcp.close();
      await site.close();
    }
  });
}
