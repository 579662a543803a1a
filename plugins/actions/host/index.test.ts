import { describe, expect, it } from 'vitest';
import { startPlugin } from '../../../electron/host/plugin-testing.js';
import { actions } from '../agent/index.js';
import actionsPlugin from './index.js';

// The actions plugin with a Node app (this test process) declaring real actions: listed, run with
// checked arguments over MCP and from the window, destructive ones behind the person's approval.

function shop() {
  const calls: { name: string; args: unknown }[] = [];
  const cart = new Map<string, number>([['apple', 2]]);
  const agent = actions({
    addItem: {
      description: 'Adds an item to the cart.',
      params: {
        type: 'object',
        properties: { sku: { type: 'string', minLength: 1 }, qty: { type: 'integer', minimum: 1, maximum: 99 } },
        required: ['sku'],
        additionalProperties: false,
      },
      run: (args) => {
        calls.push({ name: 'addItem', args });
        const { sku, qty = 1 } = args as { sku: string; qty?: number };
        cart.set(sku, (cart.get(sku) ?? 0) + qty);
        return { cart, updatedAt: new Date(0), count: cart.size };
      },
    },
    resetDatabase: {
      description: 'Deletes every order.',
      destructive: true,
      run: async () => {
        calls.push({ name: 'resetDatabase', args: {} });
        return 'deleted 42 orders';
      },
    },
    fail: {
      description: 'Always throws.',
      run: () => {
        throw new RangeError('the warehouse is closed');
      },
    },
  });
  return { agent, calls, cart };
}

describe('the actions plugin', () => {
  it('lists what the app declares and runs it with typed results, over MCP and from the window', async () => {
    const { agent, calls } = shop();
    const t = await startPlugin(actionsPlugin, agent);
    await t.panel.waitForEvent('declared');
    const listed = await t.mcp.call('actions_list');
    expect(listed.structuredContent?.actions).toEqual([
      expect.objectContaining({
        name: 'addItem',
        destructive: false,
        params: expect.objectContaining({ required: ['sku'] }),
      }),
      { name: 'resetDatabase', description: 'Deletes every order.', destructive: true },
      { name: 'fail', description: 'Always throws.', destructive: false },
    ]);

    const added = await t.mcp.call('actions_run', { name: 'addItem', args: { sku: 'pear', qty: 3 } });
    expect(added.isError, added.text).toBe(false);
    expect(added.structuredContent).toEqual({
      summary: expect.any(String),
      value: {
        cart: {
          $: 'map',
          entries: [
            ['apple', 2],
            ['pear', 3],
          ],
          size: 2,
        },
        updatedAt: { $: 'date', v: '1970-01-01T00:00:00.000Z' },
        count: 2,
      },
      ms: expect.any(Number),
    });

    const fromWindow = await t.window.run('actions_run', { name: 'addItem', args: { sku: 'pear' } });
    expect(fromWindow.structuredContent).toMatchObject({ value: { count: 2 } });
    expect(calls.map((c) => c.args)).toEqual([{ sku: 'pear', qty: 3 }, { sku: 'pear' }]);

    const failed = await t.mcp.call('actions_run', { name: 'fail' });
    expect(failed.isError).toBe(true);
    expect(failed.text).toBe('the action "fail" failed in the app: RangeError: the warehouse is closed');
  });

  it('checks arguments against the declared schema before the app sees them', async () => {
    const { agent, calls } = shop();
    const t = await startPlugin(actionsPlugin, agent);
    await t.panel.waitForEvent('declared');
    for (const args of [{}, { sku: '' }, { sku: 'x', qty: 0 }, { sku: 'x', qty: 1.5 }, { sku: 'x', colour: 'red' }]) {
      const answer = await t.mcp.call('actions_run', { name: 'addItem', args });
      expect(answer.isError, JSON.stringify(args)).toBe(true);
      expect(answer.text).toMatch(/^invalid args for the action "addItem": .*actions_list/);
    }
    const none = await t.mcp.call('actions_run', { name: 'resetDatabase', args: { force: true } });
    expect(none.text).toMatch(/invalid args for the action "resetDatabase"/);
    const unknown = await t.mcp.call('actions_run', { name: 'launchRockets' });
    expect(unknown.text).toMatch(/the app has no action "launchRockets"; its actions: addItem, resetDatabase, fail/);
    expect(calls).toEqual([]);
  });

  it('asks the person before an agent runs a destructive action, unless they allowed the tool', async () => {
    const { agent, calls } = shop();
    const t = await startPlugin(actionsPlugin, agent);
    await t.panel.waitForEvent('declared');
    const asked: { change: string; destructive: boolean }[] = [];
    let answer: 'deny' | 'allow-once' = 'deny';
    t.core.bus.on('permission:ask', ({ ask }) => {
      asked.push(ask);
      t.core.permissions.answer(ask.id, answer);
    });

    // Not destructive: runs at once, nobody asked.
    expect((await t.mcp.call('actions_run', { name: 'addItem', args: { sku: 'kiwi' } })).isError).toBe(false);
    expect(asked).toEqual([]);

    const declined = await t.mcp.call('actions_run', { name: 'resetDatabase' });
    expect(declined.text).toMatch(/declined actions_run/);
    expect(asked).toMatchObject([
      {
        change: expect.stringMatching(/^Run the app's action "resetDatabase" with \{\}: the app marks it destructive/),
        destructive: true,
      },
    ]);
    expect(calls.map((c) => c.name)).toEqual(['addItem']);

    answer = 'allow-once';
    expect((await t.mcp.call('actions_run', { name: 'resetDatabase' })).structuredContent).toMatchObject({
      value: 'deleted 42 orders',
    });
    expect(asked).toHaveLength(2);

    // The person set the tool to allow: their setting wins, nobody is asked.
    t.core.permissions.set({ ...t.core.permissions.policy(), tools: { actions_run: 'allow' } });
    expect((await t.mcp.call('actions_run', { name: 'resetDatabase' })).isError).toBe(false);
    expect(asked).toHaveLength(2);
    const row = t.core.permissions.view().tools.find((tool) => tool.name === 'actions_run');
    expect(row).toMatchObject({ asksFor: 'actions the app marks destructive', setting: 'allow' });

    // The window's own runner is never asked.
    t.core.permissions.set({ ...t.core.permissions.policy(), tools: {} });
    expect((await t.window.run('actions_run', { name: 'resetDatabase' })).isError).toBe(false);
    expect(asked).toHaveLength(2);
  });

  it('keeps the panel current as the app adds and removes actions, and shows a schema it cannot check', async () => {
    const { agent } = shop();
    const t = await startPlugin(actionsPlugin, agent);
    await t.panel.waitForEvent('declared');
    agent.set('broken', {
      description: 'Bad schema',
      params: { type: 'object', properties: { a: { $ref: '#/nowhere' } } },
      run: () => 1,
    });
    agent.remove('fail');
    const { actions: shown } = await t.panel.waitForEvent('declared', (d) =>
      d.actions.some((a) => a.name === 'broken'),
    );
    expect(shown.map((a) => a.name)).toEqual(['addItem', 'resetDatabase', 'broken']);
    const broken = shown.find((a) => a.name === 'broken');
    expect(broken?.problem).toMatch(/cannot be checked/);
    expect((await t.panel.call('run', { name: 'broken', args: {} })).error).toMatch(
      /cannot run: its params JSON Schema/,
    );
    expect(await t.panel.call('run', { name: 'addItem', args: { sku: 'fig' } })).toMatchObject({ value: { count: 2 } });
  });
});
