import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type PermissionAsk, type PermissionsView } from '../../../shared/permissions.js';
import { PluginEventHub } from '../bridge/plugin-events.js';
import { usePermissions, withPolicy } from './permissions.js';
import { applyEvents } from './wire.js';

const view: PermissionsView = {
  policy: DEFAULT_POLICY,
  tools: [
    { name: 'a_read', title: 'Read', readOnly: true, destructive: false, permission: 'allow', source: 'default' },
    { name: 'a_change', title: 'Change', readOnly: false, destructive: true, permission: 'allow', source: 'default' },
  ],
  asks: [],
  grants: [],
};

const ask = (id: string, startedAt: number): PermissionAsk => ({
  id,
  callId: `call-${id}`,
  tool: 'a_change',
  title: 'Change',
  surface: 'mcp-http',
  args: {},
  change: 'changes it',
  destructive: true,
  startedAt,
  expiresAt: startedAt + 60_000,
});

describe('the permissions store', () => {
  it('shows a policy change at once by the core’s own rules', () => {
    const readOnly = withPolicy(view, { ...DEFAULT_POLICY, readOnly: true, tools: { a_read: 'ask' } });
    expect(readOnly.tools.map((t) => [t.name, t.permission, t.source, t.setting])).toEqual([
      ['a_read', 'ask', 'tool', 'ask'],
      ['a_change', 'deny', 'read-only', undefined],
    ]);
  });

  it('keeps the questions waiting from the view and from events, oldest first, until they are settled', () => {
    usePermissions.getState().setView({ ...view, asks: [ask('b', 20), ask('a', 10)] });
    expect(usePermissions.getState().asks.map((a) => a.id)).toEqual(['a', 'b']);
    const hub = new PluginEventHub();
    applyEvents(
      [
        { event: 'permission:ask', data: { ask: ask('c', 30) } },
        { event: 'permission:ask', data: { ask: ask('c', 30) } },
        { event: 'permission:settled', data: { askId: 'a', callId: 'call-a' } },
      ],
      hub,
    );
    expect(usePermissions.getState().asks.map((a) => a.id)).toEqual(['b', 'c']);
  });
});
