import { expect, test } from '@playwright/test';
import { startTestCore, waitFor } from '../electron/host/testing.js';
import type { ExampleHost } from '../plugins/example/host/index.js';
import { type DebuggeeWindow, serveDebuggeePage } from './support/debuggee-page.js';

test('the agent connects from a real Chromium page, answers ping, sends its log and resumes after a reload', async ({
  page,
}) => {
  const t = await startTestCore();
  const served = await serveDebuggeePage();
  try {
    await page.goto(served.pageUrl({ inspector: t.urls.debuggeeUrl, appName: 'Browser App' }));
    await expect(page.locator('#status')).toHaveText('connected');

    const [session] = t.core.sessions.list();
    expect(session).toMatchObject({ active: true, app: { name: 'Browser App' }, security: 'loopback' });
    expect(session!.device.platform).toBe('browser');
    expect(session!.device.name).toContain('Chrome');

    const host = t.core.plugins.instance(session!.id, 'example') as ExampleHost;
    const pong = await host.ping();
    expect(pong.agentTime).toBeGreaterThan(0);
    expect(await host.echo('hello from the host')).toBe('hello from the host');

    await page.evaluate(() =>
      (window as unknown as DebuggeeWindow).porthole.plugins.example.log('info', 'clicked the button', { x: 1 }),
    );
    await waitFor(() => host.log().length === 1, 'the log entry');
    expect(host.log()[0]).toMatchObject({ level: 'info', message: 'clicked the button', data: { x: 1 } });

    await page.reload();
    await expect(page.locator('#status')).toHaveText('connected');
    expect(t.core.sessions.list()).toHaveLength(1);
    expect(t.core.sessions.list()[0]).toMatchObject({ id: session!.id, active: true, connections: 2 });
    expect(host.log()).toHaveLength(1);

    await page.close();
    await waitFor(() => !t.core.sessions.list()[0]!.active, 'the session to go inactive');
  } finally {
    await served.close();
    await t.stop();
  }
});

test('a page from a foreign origin is refused', async ({ page }) => {
  const t = await startTestCore();
  const served = await serveDebuggeePage();
  try {
    // The built page, reached as http://evil.test: Playwright serves it from the local server.
    await page.route('http://evil.test/**', async (route) => {
      const local = route.request().url().replace('http://evil.test/', served.url);
      await route.fulfill({ response: await route.fetch({ url: local }) });
    });
    await page.goto(served.pageUrl({ inspector: t.urls.debuggeeUrl }).replace(served.url, 'http://evil.test/'));
    await expect(page.locator('#status')).toHaveText('waiting');
    const status = await page.evaluate(() => (window as unknown as DebuggeeWindow).porthole.agent.status);
    expect(status.error).toContain('1006');
    expect(t.core.sessions.list()).toHaveLength(0);
  } finally {
    await served.close();
    await t.stop();
  }
});
