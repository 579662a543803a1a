import { expect, type Page, test } from '@playwright/test';
import { startTestCore, waitFor } from '../../electron/host/testing.js';
import { type Route, type ServedApps, serveUiApps, type UiApp } from './ui-apps.js';

// The frame of the ui plugin's browser tests: a real core in this process (its tools called as the
// window's runner calls them), the test apps served on 127.0.0.1, and Chromium pages of them.

export type TestCore = Awaited<ReturnType<typeof startTestCore>>;

export interface UiEnv {
  core: TestCore;
  apps: ServedApps;
  /** Opens an app in `page` and waits for its session; returns the session id. */
  open(page: Page, app: UiApp, query?: Record<string, string>): Promise<string>;
  /** Calls a tool as the window does; the answer's text, or its error text with `failed: true`. */
  call(
    name: string,
    args?: Record<string, unknown>,
  ): Promise<{
    text: string;
    failed: boolean;
    structured?: Record<string, unknown>;
    images: { data: string; mimeType: string }[];
  }>;
}

export function uiEnv(routes: Record<string, Route> = {}): UiEnv {
  const env = {} as UiEnv;
  test.beforeEach(async () => {
    env.core = await startTestCore();
    env.apps = await serveUiApps({ ...routes });
    env.open = async (page, app, query = {}) => {
      await page.goto(env.apps.url(app, env.core.urls.debuggeeUrl, query));
      await expect(page.locator('#porthole-status')).toHaveText('connected');
      const url = page.url();
      return waitFor(
        () => env.core.core.sessions.list().find((s) => s.active && s.device.page?.url === url)?.id,
        `the ${app} session`,
      );
    };
    env.call = async (name, args = {}) => {
      const call = await env.core.core.tools.call(name, args, { surface: 'ui' });
      const result = call.result;
      return {
        text: result.textContent,
        failed: result.isError,
        structured: result.structuredContent,
        images: result.content.flatMap((c) => (c.type === 'image' ? [{ data: c.data, mimeType: c.mimeType }] : [])),
      };
    };
  });
  test.afterEach(async () => {
    await env.apps.close();
    await env.core.stop();
  });
  return env;
}

/** The ref on the outline line that matches `pattern`. */
export function refOf(outline: string, pattern: RegExp | string): string {
  const line = outline.split('\n').find((l) => (typeof pattern === 'string' ? l.includes(pattern) : pattern.test(l)));
  const ref = line?.match(/\be\d+\b/)?.[0];
  if (!ref) throw new Error(`no line with a ref matches ${pattern} in:\n${outline}`);
  return ref;
}
