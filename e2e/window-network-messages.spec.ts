import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { WebSocketServer } from 'ws';
import { inspectorAndPage, openWindow, screenshot } from './window.helpers.js';

// The Messages tab (issue 35): a chat page on a real WebSocket and an event stream in Chromium,
// their messages live in the window, filtered by direction and text, one shown whole; axe-clean in
// both themes.

const streams = new Set<import('node:http').ServerResponse>();
const env = inspectorAndPage({
  '/api/events': (_req, res) => {
    streams.add(res);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('id: 1\nevent: price\ndata: {"sku":"A-1","price":10}\n\n');
    res.write('id: 2\ndata: plain update\n\n');
    // Left open: a stream that never ends still shows its events.
  },
});

async function axe(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  await page.bringToFront();
  return results.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('a chat socket and an event stream show their messages live, filterable, one opened whole', async ({
  page,
  context,
}) => {
  const wss = new WebSocketServer({ noServer: true });
  env.served.server.on('upgrade', (req, socket, head) => {
    if (req.url !== '/chat') return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as { text: string };
        ws.send(JSON.stringify({ from: 'bot', reply: `echo: ${m.text}` }));
      });
    });
  });
  try {
    await openWindow(page, env.inspector);
    const debuggee = await context.newPage();
    await debuggee.goto(
      env.served.pageUrl({ inspector: env.inspector.info.debuggeeUrl, plugins: ['network'], appName: 'Chat' }),
    );
    await expect(debuggee.locator('#status')).toHaveText('connected');
    const replies = await debuggee.evaluate(async () => {
      const ws = new WebSocket(`${location.origin.replace('http', 'ws')}/chat`);
      (window as unknown as { chat: WebSocket }).chat = ws;
      const got: string[] = [];
      ws.onmessage = (e) => got.push(String(e.data));
      await new Promise((r) => (ws.onopen = r));
      for (const text of ['hello', 'how are you', 'hello again']) ws.send(JSON.stringify({ text }));
      while (got.length < 3) await new Promise((r) => setTimeout(r, 10));
      const events = new EventSource('/api/events');
      (window as unknown as { events: EventSource }).events = events;
      // A page sees a named event only through a listener for its name: so does the capture.
      await new Promise<void>((resolve) => {
        let n = 0;
        const seen = () => ++n === 2 && resolve();
        events.addEventListener('price', seen);
        events.onmessage = seen;
      });
      return got;
    });
    expect(replies).toEqual([
      '{"from":"bot","reply":"echo: hello"}',
      '{"from":"bot","reply":"echo: how are you"}',
      '{"from":"bot","reply":"echo: hello again"}',
    ]);

    await page.bringToFront();
    await page.getByTestId('plugin').filter({ hasText: 'Network' }).click();
    const panel = page.getByTestId('network-panel');
    const socketRow = panel.getByTestId('network-row').filter({ hasText: '/chat' });
    await socketRow.click();
    const detail = page.getByTestId('network-detail');
    // A socket opens on its Messages tab, as in DevTools.
    await expect(detail.getByRole('tab', { name: 'Messages' })).toHaveAttribute('aria-selected', 'true');
    const messages = detail.getByTestId('message-row');
    await expect(messages).toHaveCount(6);
    await expect(detail.getByTestId('messages-count')).toContainText('6 messages');
    await expect(detail.getByTestId('messages-count')).toContainText('live');

    // Live: a message sent now appears without reopening.
    await debuggee.evaluate(() => (window as unknown as { chat: WebSocket }).chat.send('{"text":"late"}'));
    await expect(messages).toHaveCount(8);

    await detail.getByTestId('messages-filter').fill('hello');
    await expect(messages).toHaveCount(4);
    await detail.getByLabel('Direction').selectOption('received');
    await expect(messages).toHaveCount(2);
    await expect(detail.getByTestId('messages-count')).toHaveText(/2 of 8/);
    await detail.getByTestId('messages-filter').fill('/echo: (how|late)/');
    await expect(messages).toHaveCount(2);
    await messages.first().click();
    await expect(detail.getByTestId('message-detail')).toContainText('echo: how are you');
    await expect(detail.getByRole('region', { name: 'Message JSON' })).toBeVisible();
    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(page, 'network-messages');
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: /Switch to the dark theme/ }).click();
    await screenshot(page, 'network-messages-dark');
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: /Switch to the light theme/ }).click();

    // The event stream: still open, its events listed with their names and ids.
    await panel.getByTestId('network-row').filter({ hasText: '/api/events' }).click();
    await detail.getByRole('tab', { name: 'Messages' }).click();
    await expect(messages).toHaveCount(2);
    await expect(messages.first()).toContainText('price');
    await expect(messages.last()).toContainText('plain update');
    await debuggee.evaluate(() => (window as unknown as { events: EventSource }).events.close());

    // "Mock this" on the socket: a rule that plays what the app received; a new socket gets it
    // without reaching the server.
    await socketRow.click();
    await detail.getByRole('button', { name: 'Mock this' }).click();
    const editor = page.getByRole('form', { name: 'New mock rule' });
    await expect(editor.getByLabel(/Server messages/)).toHaveValue(/echo: hello[\s\S]*echo: late/);
    await editor.getByRole('button', { name: 'Create rule' }).click();
    await expect(page.getByTestId('mock-rule')).toHaveCount(1);
    await expect(page.getByTestId('mock-sync')).toContainText('Applied in the app');
    const connections = wss.clients.size;
    const mocked = await debuggee.evaluate(async () => {
      const ws = new WebSocket(`${location.origin.replace('http', 'ws')}/chat`);
      const got: string[] = [];
      ws.onmessage = (e) => got.push(String(e.data));
      while (got.length < 4) await new Promise((r) => setTimeout(r, 10));
      ws.close();
      return got;
    });
    expect(mocked).toEqual([...replies, '{"from":"bot","reply":"echo: late"}']);
    expect(wss.clients.size).toBe(connections);
  } finally {
    for (const res of streams) res.end();
    for (const ws of wss.clients) ws.terminate();
    wss.close();
  }
});
