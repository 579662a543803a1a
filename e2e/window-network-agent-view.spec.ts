import { expect, test } from '@playwright/test';
import { inspectorAndPage, mcpClient, openWindow, screenshot } from './window.helpers.js';

// The Agent view tab: a real page makes a request; the window shows what an MCP client gets for it
// beside what the person sees; a redaction rule added there hides the value from the agent only,
// and the preview is what a real MCP client then receives.

const env = inspectorAndPage({
  '/api/profile': (_req, res) =>
    void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ nickname: 'ada-77' })),
});

test('a rule added in the Agent view hides a value from the agent while the window still shows it', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWindow(page, env.inspector);
  const debuggee = await context.newPage();
  await debuggee.goto(
    env.served.pageUrl({ inspector: env.inspector.info.debuggeeUrl, plugins: ['network'], appName: 'Acme Shop' }),
  );
  await expect(debuggee.locator('#status')).toHaveText('connected');
  await debuggee.evaluate(() =>
    fetch('/api/profile?view=full', { headers: { 'x-tenant': 'tenant-secret-42' } }).then((r) => r.text()),
  );

  await page.bringToFront();
  await page.getByTestId('plugin').filter({ hasText: 'Network' }).click();
  const panel = page.getByTestId('network-panel');
  await expect(panel.getByTestId('network-row')).toHaveCount(1);
  await panel.getByTestId('network-row').first().click();
  const detail = page.getByTestId('network-detail');
  const tab = detail.getByRole('tab', { name: 'Agent view' });
  // Reached from the keyboard: End goes to the last tab.
  await detail.getByRole('tab', { name: 'Headers' }).focus();
  await page.keyboard.press('End');
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  await expect(tab).toBeFocused();

  const agent = detail.getByTestId('agent-view-agent');
  const person = detail.getByTestId('agent-view-person');
  await expect(agent).toContainText('tenant-secret-42');
  await expect(detail.getByTestId('agent-view-hidden')).toHaveText('Nothing is hidden.');

  // Add a header rule with the keyboard: type the name, Enter.
  const headers = detail.getByTestId('redaction-headers');
  await headers.getByLabel('Add to headers').fill('X-Tenant');
  await page.keyboard.press('Enter');
  await expect(headers.getByRole('button', { name: 'Remove headers rule X-Tenant' })).toBeVisible();
  await expect(agent).not.toContainText('tenant-secret-42');
  await expect(agent).toContainText('[redacted]');
  await expect(person).toContainText('tenant-secret-42');
  await expect(detail.getByTestId('agent-view-hidden')).toHaveText('1 value hidden.');

  // The preview is what a real MCP client receives.
  const mcp = await mcpClient(env.inspector);
  try {
    const { tools } = await mcp.client.listTools();
    expect(tools.some((t) => t.name === 'network_get_transaction')).toBe(true);
    const listed = await mcp.client.callTool({ name: 'network_list_transactions', arguments: {} });
    const id = (listed.structuredContent as { transactions: { id: string }[] }).transactions[0]!.id;
    const got = await mcp.client.callTool({ name: 'network_get_transaction', arguments: { id } });
    expect(JSON.parse((await agent.textContent()) ?? '')).toEqual(got.structuredContent);
  } finally {
    await mcp.close();
  }

  // An unsafe pattern is refused, and says why.
  const patterns = detail.getByTestId('redaction-patterns');
  await patterns.getByLabel('Add to token patterns').fill('(a)\\1');
  await patterns.getByRole('button', { name: 'Add' }).click();
  await expect(patterns.getByRole('alert')).toContainText('backreference');
  await screenshot(page, 'network-agent-view');

  // The normal tab still shows the value.
  await detail.getByRole('tab', { name: 'Headers' }).click();
  await expect(detail).toContainText('tenant-secret-42');

  // Removing the rule shows it to the agent again.
  await detail.getByRole('tab', { name: 'Agent view' }).click();
  await headers.getByRole('button', { name: 'Remove headers rule X-Tenant' }).click();
  await expect(agent).toContainText('tenant-secret-42');
});
