import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../shared/session.js';
import { callTarget, sessionDistinctions, sessionName } from './session-names.js';

const session = (id: string, over: Partial<SessionInfo> = {}, device: Partial<SessionInfo['device']> = {}) =>
  ({
    id,
    app: { id: 'com.shop', name: 'Shop' },
    device: { id: 'dev-1', name: 'Laptop', platform: 'node', ...device },
    active: true,
    security: 'loopback',
    remoteAddress: '127.0.0.1',
    plugins: { accepted: [{ id: 'network', version: '1.0.0' }], incompatible: [] },
    firstConnectedAt: Date.parse('2026-01-01T10:00:00'),
    lastConnectedAt: 1,
    connections: 1,
    protocolErrors: 0,
    droppedNotifications: 0,
    ...over,
  }) as SessionInfo;

describe('sessions named by what differs', () => {
  it('two Node processes of one app by pid', () => {
    const names = sessionDistinctions([session('a', {}, { pid: 101 }), session('b', {}, { pid: 202 })]);
    expect([names.get('a'), names.get('b')]).toEqual(['pid 101', 'pid 202']);
  });

  it('two tabs by title, then by port when the titles are the same', () => {
    const tab = (id: string, title: string, url: string) =>
      session(id, {}, { platform: 'browser', name: 'Chrome on Linux', page: { title, url } });
    const byTitle = sessionDistinctions([
      tab('a', 'Cart', 'http://localhost:5173/'),
      tab('b', 'Home', 'http://localhost:5173/'),
    ]);
    expect([byTitle.get('a'), byTitle.get('b')]).toEqual(['Cart', 'Home']);
    const byPort = sessionDistinctions([
      tab('a', 'Shop', 'http://localhost:5173/'),
      tab('b', 'Shop', 'http://localhost:5174/'),
    ]);
    expect([byPort.get('a'), byPort.get('b')]).toEqual(['port 5173', 'port 5174']);
  });

  it('one app on two devices by device, and alike sessions by when they connected', () => {
    const names = sessionDistinctions([
      session('a', {}, { id: 'd1', name: 'Pixel 8', platform: 'react-native' }),
      session('b', {}, { id: 'd2', name: 'iPhone 15', platform: 'react-native' }),
    ]);
    expect([names.get('a'), names.get('b')]).toEqual(['Pixel 8', 'iPhone 15']);
    const alike = sessionDistinctions([
      session('a'),
      session('b', { firstConnectedAt: Date.parse('2026-01-01T10:05:00') }),
    ]);
    expect(alike.get('a')).toMatch(/^since .*10:00:00$/);
    expect(alike.get('b')).toMatch(/^since .*10:05:00$/);
  });

  it('joins a second trait when the first leaves two alike', () => {
    const tab = (id: string, title: string, port: number) =>
      session(id, {}, { platform: 'browser', page: { title, url: `http://localhost:${port}/` } });
    const names = sessionDistinctions([tab('a', 'Cart', 5173), tab('b', 'Cart', 5174), tab('c', 'Home', 5173)]);
    expect([names.get('a'), names.get('b'), names.get('c')]).toEqual([
      'Cart · port 5173',
      'Cart · port 5174',
      'Home · port 5173',
    ]);
  });

  it('names a session for people and screen readers with its app and device', () => {
    expect(sessionName(session('a', {}, { pid: 7 }), 'pid 7')).toBe('Shop (pid 7) on Laptop');
    expect(sessionName(session('a'))).toBe('Shop on Laptop');
  });
});

describe('the session an agent call acts on', () => {
  it('is the one its sessionId names, else the only active one with the plugin', () => {
    const a = session('a');
    const b = session('b', { app: { id: 'com.api', name: 'API' }, plugins: { accepted: [], incompatible: [] } });
    const sessions = { a, b };
    expect(callTarget(sessions, 'network', { sessionId: 'b' })).toEqual({ kind: 'session', session: b });
    expect(callTarget(sessions, 'network', {})).toEqual({ kind: 'session', session: a });
    expect(callTarget(sessions, undefined, {})).toEqual({ kind: 'inspector' });
    expect(callTarget(sessions, 'network', { sessionId: 'gone' })).toMatchObject({ kind: 'none' });
    expect(callTarget({ a, c: session('c') }, 'network', {})).toMatchObject({
      kind: 'none',
      text: '2 apps have the network plugin and the call names none (it will fail)',
    });
  });
});
