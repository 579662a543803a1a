import { expect, test } from '@playwright/test';
import { decodePng } from './png.js';
import { refOf, uiEnv } from './support/ui-env.js';

// The ui plugin's loop around an action in Chromium: refs that go stale, reloads and navigations
// that keep the session, waiting for what an app does later, code run in the page, screenshots —
// and each bad input a failure that says what to do next, within its timeout.

const hanging = new Set<import('node:http').ServerResponse>();
const env = uiEnv({
  '/api/slow': (_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"slow":true}'), 300);
  },
  '/api/todos': (req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":1}'));
  },
  // Never answers: a page with this image never fires its load event.
  '/hang.png': (_req, res) => {
    hanging.add(res);
  },
});
test.afterEach(() => {
  for (const res of hanging) res.destroy();
  hanging.clear();
});

test('refs that went stale, came from an earlier load or belong to another session are refused with what to do', async ({
  page,
  browser,
}) => {
  const first = await env.open(page, 'todo');
  let outline = (await env.call('ui_snapshot')).text;
  const input = refOf(outline, 'textbox "What needs to be done?"');
  await env.call('ui_act', { ref: input, action: 'fill', value: 'one', submit: true });
  outline = (await env.call('ui_snapshot')).text;
  const del = refOf(outline, 'button "Delete one"');
  await env.call('ui_act', { ref: del, action: 'click' });
  const stale = await env.call('ui_act', { ref: del, action: 'click' });
  expect(stale.failed).toBe(true);
  expect(stale.text).toBe(
    `click ${del} failed: ${del}: the element is no longer in the page (it was removed or re-rendered): take a new snapshot`,
  );

  const reloaded = await env.call('ui_navigate', { to: 'reload' });
  expect(reloaded.failed, reloaded.text).toBe(false);
  expect(reloaded.text).toMatch(
    /^reloaded http:\/\/127\.0\.0\.1:\d+\/todo\.html\?.* \(load 2, \d+ ms\): "todo app"\. Old refs are gone/,
  );
  // The same session continues (its ticket is in the tab's sessionStorage).
  expect(env.core.core.sessions.get(first)?.info).toMatchObject({ active: true, load: { seq: 2 } });
  const old = await env.call('ui_act', { ref: input, action: 'click' });
  expect(old.text).toBe(
    `ref ${input} is from an earlier page load (load 1; the page is now on load 2: it reloaded or navigated). Take a new snapshot and use its refs`,
  );
  expect((await env.call('ui_snapshot')).text.split('\n')[0]).toMatch(/\(load 2\)$/);

  // A second tab of another app: its refs are not this session's.
  const other = await browser.newPage();
  const second = await env.open(other, 'form');
  const formOutline = (await env.call('ui_snapshot', { sessionId: second })).text;
  const name = refOf(formOutline, 'textbox "Name"');
  const wrong = await env.call('ui_act', { sessionId: first, ref: name, action: 'fill', value: 'x' });
  expect(wrong.text).toBe(
    `ref ${name} belongs to another session (${second}), not this one (${first}): pass sessionId "${second}" to act there, or take a snapshot here (ui_snapshot) and use its refs`,
  );
  expect((await env.call('ui_act', { ref: 'button', action: 'click', sessionId: first })).text).toBe(
    '"button" is not a ref: refs look like e12 and come from ui_snapshot',
  );
  expect((await env.call('ui_act', { ref: 'e999999', action: 'click', sessionId: first })).text).toMatch(
    /^ref e999999 is unknown here: refs come from ui_snapshot/,
  );
  await other.close();
});

test('navigation: same-origin paths and history, cross-origin refused, a page that never finishes loading', async ({
  page,
}) => {
  const session = await env.open(page, 'todo');
  const start = page.url();
  const path = await env.call('ui_navigate', { to: `/todo.html?${new URL(start).searchParams}&view=2` });
  expect(path.failed, path.text).toBe(false);
  expect(path.text).toMatch(/^loaded http:\/\/127\.0\.0\.1:\d+\/todo\.html\?.*&view=2 \(load 2, \d+ ms\): "todo app"/);
  await expect(page).toHaveURL(/view=2/);
  expect(
    env.core.core.sessions
      .list()
      .filter((s) => s.active)
      .map((s) => s.id),
  ).toEqual([session]);

  const back = await env.call('ui_navigate', { to: 'back' });
  expect(back.text).toMatch(/^went back to http:\/\/127\.0\.0\.1:\d+\/todo\.html\?inspector=[^&]+ \(load 3/);

  // A fragment change stays in the document: refs stay valid.
  const hash = await env.call('ui_navigate', { to: '#/active' });
  expect(hash.text).toMatch(/^went to .*#\/active in the same document \(load 3\): refs stay valid$/);

  const cross = await env.call('ui_navigate', { to: 'https://example.invalid/' });
  expect(cross.failed).toBe(true);
  expect(cross.text).toMatch(
    /cross-origin: https:\/\/example\.invalid is not the page's origin \(http:\/\/127\.0\.0\.1:\d+\), and the app does not allow it; navigate within .*, or have the app pass ui\(\{ allowOrigins: \['https:\/\/example\.invalid'\] \}\)/,
  );
  expect((await env.call('ui_navigate', { to: 'javascript:alert(1)' })).text).toMatch(
    /javascript: URLs cannot be navigated to/,
  );
  expect(page.url()).toContain('#/active');

  const started = Date.now();
  // Another app's page opens a session of its own: this one says where it went.
  const away = await env.call('ui_navigate', { to: `/kitchen.html?${new URL(start).searchParams}`, timeoutMs: 2000 });
  expect(away.text).toMatch(
    /the page did not come back within 2 s: .* If the new page is another app .* inspector_list_sessions/,
  );
  const kitchen = await env.core.core.sessions.list().find((s) => s.active && s.app.id === 'com.test.kitchen');
  expect(kitchen).toBeDefined();

  const stuck = await env.call('ui_navigate', {
    sessionId: kitchen!.id,
    to: `/kitchen.html?${new URLSearchParams({ inspector: env.core.urls.debuggeeUrl, hang: '1' })}`,
    timeoutMs: 2000,
  });
  expect(stuck.failed).toBe(true);
  expect(stuck.text).toMatch(
    /the page did not finish loading within 2 s: it reconnected as load 2 \(.*kitchen\.html.*hang=1\) but its load event has not fired \(document\.readyState "interactive"\)/,
  );
  expect(Date.now() - started).toBeLessThan(6000);
  // It still answers: what it shows can be read while it waits for its image.
  expect((await env.call('ui_snapshot', { sessionId: kitchen!.id })).text).toContain('heading "Kitchen sink"');
});

test('waiting for a text, an element going, a request and an idle network; a timeout says what it saw', async ({
  page,
}) => {
  await env.open(page, 'kitchen');
  const outline = (await env.call('ui_snapshot')).text;
  const later = refOf(outline, 'button "Load later"');
  const clicked = await env.call('ui_act', { ref: later, action: 'click' });
  expect(clicked.text).toMatch(/requests: 1\n {2}GET http:\/\/127\.0\.0\.1:\d+\/api\/slow → 200/);
  expect((await env.call('ui_wait_for', { text: 'loaded later' })).text).toMatch(
    /^text "loaded later" appeared after \d+ ms: text "Loaded later" e\d+$/,
  );
  expect((await env.call('ui_wait_for', { ref: later, gone: true })).text).toMatch(
    new RegExp(`^ref ${later} is gone after \\d+ ms$`),
  );
  expect((await env.call('ui_wait_for', { request: '/api/slow' })).text).toMatch(
    /^completed after \d+ ms: GET .*\/api\/slow → 200 \[/,
  );
  expect((await env.call('ui_wait_for', { networkIdle: true })).text).toMatch(
    /^the network is idle \(after \d+ ms\): 1 requests since the last ui_act\/ui_navigate$/,
  );

  const missing = await env.call('ui_wait_for', { text: 'Never shown', timeoutMs: 500 });
  expect(missing.failed).toBe(true);
  expect(missing.text).toMatch(
    /^timed out after 500 ms waiting for text "Never shown" to appear\. The page shows: banner · heading "Kitchen sink"/,
  );
  const noRequest = await env.call('ui_wait_for', { request: '/api/other', timeoutMs: 300 });
  expect(noRequest.text).toMatch(
    /no request matching "\/api\/other" completed since the last ui_act\/ui_navigate\. Seen: GET .*\/api\/slow → 200/,
  );
  expect((await env.call('ui_wait_for', { text: 'x', networkIdle: true })).text).toMatch(
    /give exactly one of text, ref, request or networkIdle \(got 2\)/,
  );
});

test('code run in the page: values, DOM nodes, cycles, what it throws, what never settles', async ({ page }) => {
  await env.open(page, 'todo');
  const value = async (expression: string, extra = {}) => env.call('ui_evaluate', { expression, ...extra });
  expect((await value('document.title')).structured).toEqual({
    summary: expect.any(String),
    value: 'todo app',
    ms: expect.any(Number),
  });
  expect((await value('document.querySelector("h1")')).structured?.value).toEqual({
    $: 'node',
    v: '<h1>',
    nodeType: 1,
  });
  expect(
    (await value('await fetch("/api/todos", { method: "POST" }).then((r) => r.json())')).structured?.value,
  ).toEqual({ id: 1 });
  expect((await value('window.self === window')).structured?.value).toBe(true);
  expect((await value('const a = []; a.push(a); a')).structured?.value).toEqual([{ $: 'circular' }]);
  const thrown = await value('document.querySelector("#nothing").click()');
  expect(thrown.text).toMatch(/^the code threw: TypeError: Cannot read properties of null \(reading 'click'\)/);
  const never = await value('new Promise(() => {})', { timeoutMs: 400 });
  expect(never.text).toMatch(/did not settle within 400 ms/);
  // The page still answers.
  expect((await value('1 + 1')).structured?.value).toBe(2);
  // The action log has each call, on the session's timeline too.
  const timeline = env.core.core.plugins
    .timeline(env.core.core.sessions.list()[0]!.id)
    .query({ plugins: ['ui'], limit: 20 });
  expect(timeline.entries.map((e) => e.summary)).toContain('evaluate document.title');
});

test('screenshots of the viewport, the whole page and one element', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await env.open(page, 'big');
  const size = (png: string) => {
    const { width, height } = decodePng(Buffer.from(png, 'base64'));
    return { width, height };
  };
  const viewport = await env.call('ui_screenshot');
  expect(viewport.failed, viewport.text).toBe(false);
  expect(viewport.images[0]?.mimeType).toBe('image/png');
  expect(size(viewport.images[0]!.data)).toEqual({ width: 800, height: 600 });
  expect(viewport.text).toBe('Screenshot of Big (800×600)');

  const full = await env.call('ui_screenshot', { fullPage: true });
  expect(full.text).toMatch(
    /^Screenshot of the whole page of Big \(800×8000\); the top of a page \d+ px tall: scroll \(ui_act scroll\) and take the viewport for the rest$/,
  );
  // Large captures come as JPEG.
  expect(full.images[0]?.mimeType).toBe('image/jpeg');
  expect(Buffer.from(full.images[0]!.data, 'base64').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

  const heading = refOf((await env.call('ui_snapshot', { limit: 3 })).text, 'heading "Customers"');
  const one = await env.call('ui_screenshot', { ref: heading });
  const png = decodePng(Buffer.from(one.images[0]!.data, 'base64'));
  const box = (await page.locator('h1').boundingBox())!;
  expect({ width: png.width, height: png.height }).toEqual({
    width: Math.ceil(box.width),
    height: Math.ceil(box.height),
  });
  // Not blank: the heading's text makes dark pixels on the white page.
  const dark = [...png.pixels].filter((_, i) => i % png.channels === 0 && png.pixels[i]! < 100).length;
  expect(dark).toBeGreaterThan(50);
});
