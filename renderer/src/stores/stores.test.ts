import { beforeEach, describe, expect, it } from 'vitest';
import type { CallSummary } from '../../../shared/bridge.js';
import type { SessionInfo } from '../../../shared/session.js';
import { PluginEventHub } from '../bridge/plugin-events.js';
import { FLASH_MS, filterCalls, indicatorState, NO_FILTERS, useHistory } from './history.js';
import { searchTools } from './mcp.js';
import { useNav } from './nav.js';
import { groupSessions, useSessions } from './sessions.js';
import { applyEvents } from './wire.js';

const session = (id: string, over: Partial<SessionInfo> = {}): SessionInfo => ({
  id,
  app: { id: 'com.shop', name: 'Shop' },
  device: { id: 'dev-1', name: 'Laptop', platform: 'browser' },
  active: true,
  security: 'loopback',
  remoteAddress: '127.0.0.1',
  plugins: { accepted: [{ id: 'example', version: '1.0.0' }], incompatible: [] },
  firstConnectedAt: 1,
  lastConnectedAt: 1,
  connections: 1,
  protocolErrors: 0,
  droppedNotifications: 0,
  ...over,
});

const call = (id: string, over: Partial<CallSummary> = {}): CallSummary => ({
  id,
  tool: 'example_send_ping',
  plugin: 'example',
  sessionId: 's1',
  surface: 'mcp-http',
  client: { name: 'Claude Code', version: '1.0' },
  startedAt: 1000,
  status: 'running',
  ...over,
});

beforeEach(() => {
  useSessions.setState({ sessions: {}, plugins: [], notices: [] });
  useHistory.setState({ calls: [], loaded: false, filters: NO_FILTERS, activity: { running: [] } });
  useNav.setState({ view: 'sessions', sessionId: undefined, pluginId: undefined, follow: false });
});

describe('sessions store', () => {
  it('tracks sessions from connect, disconnect, update and remove events, with notices', () => {
    const hub = new PluginEventHub();
    applyEvents([{ event: 'session:connected', data: { session: session('s1'), resumed: false } }], hub);
    expect(useSessions.getState().sessions.s1?.active).toBe(true);
    expect(useNav.getState().sessionId).toBe('s1');

    applyEvents(
      [
        {
          event: 'session:disconnected',
          data: { session: session('s1', { active: false, disconnectedAt: 5 }), code: 1006, reason: 'gone' },
        },
      ],
      hub,
    );
    expect(useSessions.getState().sessions.s1?.active).toBe(false);
    expect(useSessions.getState().notices.map((n) => [n.kind, n.text])).toEqual([
      ['connected', 'Connected: Shop on Laptop (this machine)'],
      ['disconnected', 'Disconnected: Shop on Laptop (this machine) (gone)'],
    ]);

    applyEvents([{ event: 'session:updated', data: { session: session('s1', { protocolErrors: 3 }) } }], hub);
    expect(useSessions.getState().sessions.s1?.protocolErrors).toBe(3);
    applyEvents([{ event: 'session:removed', data: { sessionId: 's1' } }], hub);
    expect(useSessions.getState().sessions).toEqual({});
    expect(useNav.getState().sessionId).toBeUndefined();
  });

  it('groups sessions by device, then app, in the order first seen, whatever connects or disconnects', () => {
    const sessions = {
      a: session('a', { active: false, firstConnectedAt: 1, lastConnectedAt: 9 }),
      b: session('b', { firstConnectedAt: 2, lastConnectedAt: 2 }),
      c: session('c', { app: { id: 'com.api', name: 'API' }, firstConnectedAt: 3 }),
      d: session('d', { device: { id: 'dev-2', name: 'Phone', platform: 'react-native' }, firstConnectedAt: 4 }),
    };
    const shape = (s: typeof sessions) =>
      groupSessions(s).map((g) => [g.device.name, g.apps.map((a) => [a.app.name, a.sessions.map((x) => x.id)])]);
    const before = shape(sessions);
    expect(before).toEqual([
      [
        'Laptop',
        [
          ['Shop', ['a', 'b']],
          ['API', ['c']],
        ],
      ],
      ['Phone', [['Shop', ['d']]]],
    ]);
    // b disconnects and a reconnects: nothing moves.
    const after = {
      ...sessions,
      a: { ...sessions.a, active: true, lastConnectedAt: 20 },
      b: { ...sessions.b, active: false, disconnectedAt: 21 },
    };
    expect(shape(after)).toEqual(before);
  });

  it('keeps the chosen plugin when another session is picked', () => {
    useNav.getState().selectSession('s1', 'network');
    useNav.getState().selectSession('s2');
    expect(useNav.getState()).toMatchObject({ sessionId: 's2', pluginId: 'network' });
  });

  it('keeps at most five notices', () => {
    for (let i = 0; i < 8; i++) useSessions.getState().notify('info', `n${i}`);
    expect(useSessions.getState().notices.map((n) => n.text)).toEqual(['n3', 'n4', 'n5', 'n6', 'n7']);
  });
});

describe('history store', () => {
  it('keeps calls newest first, updates a call in place when it finishes, and merges the loaded list', () => {
    const h = useHistory.getState();
    h.started(call('c1', { startedAt: 1000 }));
    h.started(call('c2', { startedAt: 2000 }));
    h.finished(call('c1', { startedAt: 1000, status: 'failed', durationMs: 5, error: 'no session' }));
    h.load([call('c0', { startedAt: 500, status: 'succeeded' }), call('c2', { startedAt: 2000 })]);
    expect(useHistory.getState().calls.map((c) => [c.id, c.status])).toEqual([
      ['c2', 'running'],
      ['c1', 'failed'],
      ['c0', 'succeeded'],
    ]);
  });

  it('filters by status, tool, session and client', () => {
    const calls = [
      call('a', { status: 'failed' }),
      call('b', { status: 'succeeded', tool: 'network_list_transactions', sessionId: 's2' }),
      call('c', { status: 'succeeded', surface: 'ui', client: undefined }),
    ];
    const ids = (f: Partial<typeof NO_FILTERS>) => filterCalls(calls, { ...NO_FILTERS, ...f }).map((c) => c.id);
    expect(ids({})).toEqual(['a', 'b', 'c']);
    expect(ids({ status: 'failed' })).toEqual(['a']);
    expect(ids({ tool: 'network_list_transactions' })).toEqual(['b']);
    expect(ids({ sessionId: 's2' })).toEqual(['b']);
    expect(ids({ client: 'Porthole window' })).toEqual(['c']);
    expect(ids({ client: 'Claude Code 1.0', status: 'succeeded' })).toEqual(['b']);
  });

  it('drives the AI indicator: idle with clients, names the running tool, flashes a fast call, ignores the window', () => {
    const h = useHistory.getState();
    const state = (now: number) => indicatorState(useHistory.getState().activity, ['Claude Code'], now);
    expect(indicatorState(useHistory.getState().activity, [], 0)).toEqual({ kind: 'none' });
    expect(state(0)).toEqual({ kind: 'idle', clients: ['Claude Code'] });

    h.started(call('ui-1', { surface: 'ui' }), 100);
    expect(state(100).kind).toBe('idle');

    h.started(call('c1', { tool: 'network_list_transactions' }), 100);
    h.started(call('c2', { tool: 'example_send_ping' }), 110);
    expect(state(120)).toMatchObject({ kind: 'running', tool: 'example_send_ping', more: 1 });
    h.finished(call('c2', { tool: 'example_send_ping', status: 'succeeded' }), 115);
    expect(state(120)).toMatchObject({ kind: 'running', tool: 'network_list_transactions', more: 0 });

    // A call that started and finished within one event batch is still shown for FLASH_MS.
    h.finished(call('c1', { tool: 'network_list_transactions', status: 'failed' }), 130);
    expect(state(131)).toMatchObject({ kind: 'flash', tool: 'network_list_transactions', status: 'failed' });
    expect(state(130 + FLASH_MS - 1).kind).toBe('flash');
    expect(state(130 + FLASH_MS + 1).kind).toBe('idle');
  });

  it('follow mode switches to the session and plugin of an agent call, not of the window’s own', () => {
    const hub = new PluginEventHub();
    useSessions.setState({ sessions: { s1: session('s1'), s2: session('s2') } });
    useNav.setState({ view: 'history', sessionId: 's2', follow: true });
    applyEvents([{ event: 'call:started', data: { call: call('c1', { surface: 'ui' }) } }], hub);
    expect(useNav.getState()).toMatchObject({ view: 'history', sessionId: 's2' });
    applyEvents([{ event: 'call:started', data: { call: call('c2') } }], hub);
    expect(useNav.getState()).toMatchObject({ view: 'sessions', sessionId: 's1', pluginId: 'example' });

    useNav.setState({ view: 'mcp', follow: false });
    applyEvents([{ event: 'call:started', data: { call: call('c3', { sessionId: 's2' }) } }], hub);
    expect(useNav.getState()).toMatchObject({ view: 'mcp', sessionId: 's1' });
  });
});

describe('plugin events and tools', () => {
  it('routes plugin events to the panel of their session and plugin, a batch at a time', () => {
    const hub = new PluginEventHub();
    const got: unknown[][] = [];
    const off = hub.subscribe('s1', 'example', (events) => got.push(events.map((e) => e.data)));
    applyEvents(
      [
        { event: 'plugin:event', data: { sessionId: 's1', plugin: 'example', event: 'log', data: 1 } },
        { event: 'plugin:event', data: { sessionId: 's2', plugin: 'example', event: 'log', data: 2 } },
        { event: 'plugin:event', data: { sessionId: 's1', plugin: 'network', event: 'x', data: 3 } },
        { event: 'plugin:event', data: { sessionId: 's1', plugin: 'example', event: 'log', data: 4 } },
      ],
      hub,
    );
    expect(got).toEqual([[1, 4]]);
    off();
    applyEvents([{ event: 'plugin:event', data: { sessionId: 's1', plugin: 'example', event: 'log', data: 5 } }], hub);
    expect(got).toHaveLength(1);
  });

  it('searches tools by every word in name, title, description and plugin', () => {
    const tool = (name: string, description: string, plugin?: string) => ({
      name,
      title: name,
      description,
      plugin,
      inputSchema: {},
      annotations: {},
    });
    const tools = [
      tool('network_list_transactions', 'Lists captured HTTP requests', 'network'),
      tool('example_send_ping', 'Round trip to the app', 'example'),
      tool('inspector_list_sessions', 'Connected apps'),
    ];
    expect(searchTools(tools, '').length).toBe(3);
    expect(searchTools(tools, 'list').map((t) => t.name)).toEqual([
      'network_list_transactions',
      'inspector_list_sessions',
    ]);
    expect(searchTools(tools, 'LIST http').map((t) => t.name)).toEqual(['network_list_transactions']);
    expect(searchTools(tools, 'inspector').map((t) => t.name)).toEqual(['inspector_list_sessions']);
  });
});
