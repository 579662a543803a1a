import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { build, type Plugin } from 'vite';
import { connectMcpClient } from '../electron/host/mcp/mcp-testing.js';
import { type ServedPage, serveDebuggeePage } from './support/debuggee-page.js';
import { ROOT, type RunningInspector, startInspector } from './support/inspector.js';
import { oncePerRun } from './support/run-once.js';

const SCREENSHOTS = join(ROOT, 'test-results/screenshots');

/**
 * Builds the window once per run (`npm run build:renderer`), as the served inspector needs it: the
 * run's global set-up does, before any worker serves it (a build empties out/renderer first).
 */
export function buildRenderer(): Promise<void> {
  return oncePerRun('renderer', async () => {
    await build({ configFile: join(ROOT, 'vite.renderer.config.ts'), logLevel: 'warn' });
  });
}

/** The window built with the panels of e2e/fixtures/plugins/ too, for a core started with those plugins. */
export const FIXTURE_WINDOW_DIR = join(ROOT, 'out/e2e-fixture-window');
const PRODUCT_PANELS = join(ROOT, 'renderer/src/panels.ts');
const FIXTURE_PANELS = join(ROOT, 'e2e/fixtures/plugins/panels.ts');

/** Builds the window once per run with e2e/fixtures/plugins/panels.ts as its panel list. */
export function buildFixtureWindow(): Promise<void> {
  const fixturePanels: Plugin = {
    name: 'porthole-fixture-panels',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || importer === FIXTURE_PANELS || !/\/panels(\.js)?$/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === PRODUCT_PANELS ? FIXTURE_PANELS : null;
    },
  };
  return oncePerRun('fixture-window', async () => {
    await build({
      configFile: join(ROOT, 'vite.renderer.config.ts'),
      logLevel: 'warn',
      plugins: [fixturePanels],
      build: { outDir: FIXTURE_WINDOW_DIR },
    });
  });
}

/**
 * The window link that is unused now. Links work once: the inspector keeps the next one in
 * instance.json (what `porthole ui` opens); an in-process core's `urls.uiUrl` gives it on each read.
 */
export function currentUiUrl(inspector: { info: { uiUrl: string }; dataDir?: string }): string {
  if (!inspector.dataDir) return inspector.info.uiUrl;
  return (JSON.parse(readFileSync(join(inspector.dataDir, 'instance.json'), 'utf8')) as { uiUrl: string }).uiUrl;
}

/** Opens the window at the inspector's unused link and waits for the bridge to connect. */
export async function openWindow(page: Page, inspector: { info: { uiUrl: string }; dataDir?: string }): Promise<void> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(currentUiUrl(inspector));
  await expect(page.locator('.brand')).toContainText('Porthole');
  await expect(page.getByTestId('connection-banner')).toHaveCount(0);
  // The token leaves the address bar once read.
  expect(new URL(page.url()).searchParams.has('token')).toBe(false);
  expect(errors).toEqual([]);
}

/** Saves a screenshot of the main screens as a test artifact (test-results/screenshots/<name>.png). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** A real MCP SDK client over Streamable HTTP with the inspector's bearer token. */
export function mcpClient(inspector: RunningInspector, name = 'e2e-agent') {
  const token = readFileSync(join(inspector.dataDir, 'mcp-token'), 'utf8').trim();
  return connectMcpClient(
    'http',
    { mcpUrl: inspector.info.mcpUrl, dataDir: inspector.dataDir, token },
    { name, version: '0.9.0' },
  );
}

/** A tool's answer as JSON: its structured content, else its text (tools without an output schema). */
export function toolJson(answer: object): Record<string, unknown> {
  const result = answer as { structuredContent?: Record<string, unknown>; content?: { type: string; text?: string }[] };
  if (result.structuredContent) return result.structuredContent;
  const texts = (result.content ?? []).filter((c) => c.type === 'text');
  return JSON.parse(texts.map((c) => c.text).join('\n')) as Record<string, unknown>;
}

/** The same screen at 1440×900 and 1024×700, light and dark: `<name>-<width>-<theme>.png`. */
export async function screenshotAllSizes(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const viewport = page.viewportSize();
  const theme = await page.locator('html').getAttribute('data-theme');
  for (const [width, height] of [
    [1440, 900],
    [1024, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const t of ['light', 'dark']) {
      await page.evaluate((value) => {
        document.documentElement.dataset.theme = value;
      }, t);
      await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}-${t}.png`) });
    }
  }
  if (viewport) await page.setViewportSize(viewport);
  await page.evaluate((value) => {
    if (value) document.documentElement.dataset.theme = value;
  }, theme);
}

/**
 * The usual frame of a window test: the renderer built once, and for each test a fresh inspector
 * and a debuggee page server with `routes`, both stopped after it. Read them inside a test.
 */
export function inspectorAndPage(routes: Parameters<typeof serveDebuggeePage>[0]) {
  const current = {} as { inspector: RunningInspector; served: ServedPage };
  test.beforeAll(async () => {
    await buildRenderer();
  });
  test.beforeEach(async () => {
    current.inspector = await startInspector();
    current.served = await serveDebuggeePage(routes);
  });
  test.afterEach(async () => {
    await current.served.close();
    await current.inspector.stop();
  });
  return current;
}
