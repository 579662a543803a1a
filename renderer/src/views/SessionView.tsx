import { useState } from 'react';
import { useBridge } from '../bridge/context.js';
import { ConnectHelp } from '../components/ConnectHelp.js';
import { ErrorBoundary } from '../components/ErrorBoundary.js';
import { panels } from '../panels.js';
import { useConnection } from '../stores/connection.js';
import { useMcp } from '../stores/mcp.js';
import { TIMELINE, useNav } from '../stores/nav.js';
import { useSessions } from '../stores/sessions.js';
import { formatTimeOfDay } from '../time.js';
import { shortUrl } from '../url.js';
import { TimelineView } from './TimelineView.js';

/** The selected session: its header, and the panel of the selected plugin. */
export function SessionView() {
  const sessionId = useNav((s) => s.sessionId);
  const chosenPlugin = useNav((s) => s.pluginId);
  const returnTo = useNav((s) => s.returnTo);
  const selectPlugin = useNav((s) => s.selectPlugin);
  const session = useSessions((s) => (sessionId ? s.sessions[sessionId] : undefined));
  const anySessions = useSessions((s) => Object.keys(s.sessions).length > 0);
  const plugins = useSessions((s) => s.plugins);
  const { client } = useBridge();
  const epoch = useConnection((s) => s.epoch);
  const [clearError, setClearError] = useState<string>();

  if (!session) {
    if (!anySessions) return <ConnectHelp />;
    return (
      <div className="empty">
        <h2>Pick a session</h2>
        <p className="muted">Choose an app session on the left to see its plugins.</p>
      </div>
    );
  }

  const accepted = session.plugins.accepted.map((p) => p.id);
  const timeline = chosenPlugin === TIMELINE;
  const pluginId = timeline
    ? undefined
    : chosenPlugin && accepted.includes(chosenPlugin)
      ? chosenPlugin
      : // Network first, as DevTools opens on it; else the first plugin with a panel.
        ((accepted.includes('network') ? 'network' : accepted.find((id) => panels[id])) ?? accepted[0]);
  const plugin = plugins.find((p) => p.id === pluginId);
  const Panel = pluginId ? panels[pluginId] : undefined;

  const clear = async () => {
    try {
      await client.request('sessions.remove', { sessionId: session.id });
    } catch (e) {
      setClearError((e as Error).message);
    }
  };

  return (
    <>
      <header className="view-header">
        <div>
          <h2>
            {session.app.name}{' '}
            <span className="muted">· {timeline ? 'Timeline' : (plugin?.title ?? pluginId ?? 'no plugins')}</span>
          </h2>
          {session.offline ? (
            <div className="muted small">Imported file · {session.offline.source}</div>
          ) : (
            <div className="muted small" title={session.device.runtime}>
              {session.device.page?.title && `${session.device.page.title} · `}
              {session.device.page?.url && (
                <span title={session.device.page.url}>{shortUrl(session.device.page.url)} · </span>
              )}
              {session.device.name} · {session.device.platform} · {session.remoteAddress} ·{' '}
              {session.security === 'lan' ? 'LAN (paired)' : 'loopback'}
              {session.protocolErrors > 0 && ` · ${session.protocolErrors.toLocaleString()} protocol errors`}
              {session.droppedNotifications > 0 &&
                ` · ${session.droppedNotifications.toLocaleString()} events dropped while offline`}
            </div>
          )}
        </div>
        <span className="spacer" />
        {returnTo === TIMELINE && !timeline && (
          <button type="button" onClick={() => selectPlugin(TIMELINE)} data-testid="back-to-timeline">
            ← Back to the timeline
          </button>
        )}
        {!session.active && (
          <button type="button" className="danger" onClick={() => void clear()}>
            Clear session
          </button>
        )}
      </header>
      {session.offline && (
        <div className="banner info" data-testid="offline-banner">
          Offline: read from {session.offline.source}. No app is behind this session; clear it when done.
        </div>
      )}
      {!session.active && !session.offline && (
        <div className="banner warn" data-testid="inactive-banner">
          The app disconnected
          {session.disconnectedAt ? ` at ${formatTimeOfDay(session.disconnectedAt)}` : ''}. Its data is kept; actions
          that need the app wait until it reconnects.
        </div>
      )}
      {clearError && <div className="banner error">{clearError}</div>}
      {session.plugins.incompatible.length > 0 && (
        <div className="banner warn">
          {session.plugins.incompatible.map((p) => `${p.id} ${p.version}: ${p.reason}`).join(' · ')}
        </div>
      )}
      <div className="panel-host">
        {timeline ? (
          <ErrorBoundary key={`${session.id}/timeline/${epoch}`} what="timeline">
            <TimelineView session={session} />
          </ErrorBoundary>
        ) : Panel && plugin ? (
          <ErrorBoundary key={`${session.id}/${pluginId}/${epoch}`} what={`${plugin.title} panel`}>
            <Panel session={session} plugin={plugin} />
          </ErrorBoundary>
        ) : (
          <NoPanel pluginId={pluginId} />
        )}
      </div>
    </>
  );
}

function NoPanel({ pluginId }: { pluginId?: string }) {
  const tools = useMcp((s) => s.tools).filter((t) => t.plugin === pluginId);
  const selectTool = useNav((s) => s.selectTool);
  if (!pluginId) {
    return (
      <div className="empty">
        <h2>This app offers no plugins</h2>
        <p className="muted">Pass plugins to connect(), e.g. plugins: [example(), network()].</p>
      </div>
    );
  }
  return (
    <div className="empty">
      <h2>The {pluginId} plugin has no panel here</h2>
      {tools.length > 0 && (
        <>
          <p className="muted">Its tools can be run from the tools browser:</p>
          <ul>
            {tools.map((t) => (
              <li key={t.name}>
                <button type="button" className="link" onClick={() => selectTool(t.name)}>
                  {t.name}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
