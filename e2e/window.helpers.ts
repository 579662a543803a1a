import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { build } from 'vite';
import { connectMcpClient } from '../electron/host/mcp/mcp-testing.js';
import { ROOT, type RunningInspector } from './support/inspector.js';

const SCREENSHOTS = join(ROOT, 'test-results/screenshots');
let built: Promise<void> | undefined;

/** Builds the window once per test process (`npm run build:renderer`), as the served inspector needs it. */
export function buildRenderer(): Promise<void> {
  built ??= build({ configFile: join(ROOT, 'vite.renderer.config.ts'), logLevel: 'warn' }).then(() => undefined);
  return built;
}

/** Opens the window at the URL the inspector printed and waits for the bridge to connect. */
export async function openWindow(page: Page, inspector: RunningInspector): Promise<void> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(inspector.info.uiUrl);
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
