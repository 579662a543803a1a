import type { KeyboardEvent } from 'react';
import type { SessionInfo } from '../../../shared/session.js';
import { sessionDistinctions, sessionName } from '../session-names.js';
import { useConnection } from '../stores/connection.js';
import { useHistory } from '../stores/history.js';
import { useMcp } from '../stores/mcp.js';
import { TIMELINE, useNav } from '../stores/nav.js';
import { usePermissions } from '../stores/permissions.js';
import { groupSessions, useSessions } from '../stores/sessions.js';
import { formatTimeOfDay } from '../time.js';
import { shortUrl } from '../url.js';

/** Up/Down move between the sidebar's entries. */
function onArrows(e: KeyboardEvent<HTMLElement>): void {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  const items = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('.nav-item')];
  const index = items.indexOf(document.activeElement as HTMLButtonElement);
  const next = items[index + (e.key === 'ArrowDown' ? 1 : -1)];
  if (next) {
    e.preventDefault();
    next.focus();
  }
}

export function Sidebar() {
  return (
    <nav className="sidebar" aria-label="Sessions and MCP" onKeyDown={onArrows}>
      <SessionTree />
      <McpNav />
    </nav>
  );
}

function SessionTree() {
  const sessions = useSessions((s) => s.sessions);
  const groups = groupSessions(sessions);
  const distinctions = sessionDistinctions(Object.values(sessions));
  const loaded = useConnection((s) => s.core !== undefined);
  const total = Object.keys(sessions).length;
  const active = Object.values(sessions).filter((s) => s.active).length;
  return (
    <section aria-label="Apps">
      <div className="nav-section">
        Apps{' '}
        <span className="muted">
          {total > 0 ? `${active.toLocaleString()} active · ${(total - active).toLocaleString()} inactive` : ''}
        </span>
      </div>
      <LanStatus />
      {groups.length === 0 && <div className="device">{loaded ? 'No app connected' : 'Not known yet'}</div>}
      {groups.map(({ device, apps }) => (
        <div key={device.id} data-testid="device-group">
          <div className="device" title={device.runtime}>
            <PlatformIcon platform={device.platform} /> {device.name}
            <span className="muted">· {device.platform}</span>
          </div>
          {apps.map(({ app, sessions: list }) => (
            <div key={app.id} data-testid="app-group">
              <div className="app-name">
                {app.icon && <img src={app.icon} alt="" />}
                {app.name}
                {app.version && <span className="muted small">{app.version}</span>}
              </div>
              {list.map((session) => (
                <SessionRow key={session.id} session={session} distinction={distinctions.get(session.id)} />
              ))}
            </div>
          ))}
        </div>
      ))}
    </section>
  );
}

/** With `--lan`: which apps are paired from the LAN now, and the pairing attempts refused. */
function LanStatus() {
  const pairing = useConnection((s) => s.link?.pairing);
  const sessions = useSessions((s) => s.sessions);
  if (!pairing) return null;
  const paired = Object.values(sessions).filter((s) => s.security === 'lan' && s.active);
  const last = pairing.lastRefused;
  return (
    <div className="device lan-status small" data-testid="lan-status">
      <div>
        <span className="badge lan">LAN</span> pairing on ·{' '}
        {paired.length === 0
          ? 'no app paired'
          : `paired: ${paired.map((s) => `${s.app.name} (${s.remoteAddress})`).join(', ')}`}
      </div>
      {pairing.refused > 0 && (
        <div className="muted" data-testid="lan-refused">
          {pairing.refused} refused
          {last && ` · last from ${last.address} at ${formatTimeOfDay(last.at)}`}
          {pairing.waiting > 0 && ` · ${pairing.waiting} address${pairing.waiting === 1 ? '' : 'es'} waiting`}
        </div>
      )}
    </div>
  );
}

function SessionRow({ session, distinction }: { session: SessionInfo; distinction?: string }) {
  const selected = useNav((s) => s.view === 'sessions' && s.sessionId === session.id);
  const pluginId = useNav((s) => s.pluginId);
  const selectSession = useNav((s) => s.selectSession);
  const selectPlugin = useNav((s) => s.selectPlugin);
  const plugins = useSessions((s) => s.plugins);
  const since = new Date(
    session.active ? session.lastConnectedAt : (session.disconnectedAt ?? session.firstConnectedAt),
  );
  const page = session.offline ? { title: session.offline.source, url: undefined } : session.device.page;
  const state = session.offline ? 'Offline' : session.active ? 'Active' : 'Inactive';
  // A page's title and URL already tell its tabs apart; a process says its pid (or what else differs).
  const extra = page ? undefined : distinction;
  const security = session.offline ? 'imported file' : session.security === 'lan' ? 'LAN' : 'loopback';
  return (
    <>
      <button
        type="button"
        className={`nav-item session-item${session.active ? '' : ' inactive'}`}
        aria-current={selected}
        data-testid="session"
        data-active={session.active}
        onClick={() => selectSession(session.id)}
        title={
          session.offline
            ? `Imported from ${session.offline.source}`
            : [session.device.page?.url, `${session.remoteAddress} · ${session.connections} connection(s)`]
                .filter(Boolean)
                .join('\n')
        }
      >
        <span className={`dot ${session.active ? 'on' : 'off'}`} aria-hidden="true" />
        {/* The visible text names the state and page; screen readers hear the app (and what tells it apart) first. */}
        <span className="visually-hidden">{sessionName(session, distinction)}: </span>
        <span className="session-text">
          <span className="row" style={{ gap: 6 }}>
            <span>{state}</span>
            <span className="muted small">{formatTimeOfDay(since.getTime())}</span>
          </span>
          {(page || extra) && (
            <span className="session-page small" data-testid="session-page">
              {page?.title && <span className="page-title">{page.title}</span>}
              {page?.url && <span className="muted page-url">{shortUrl(page.url)}</span>}
              {extra && (
                <span className="page-title" data-testid="session-distinction">
                  {extra}
                </span>
              )}
            </span>
          )}
        </span>
        <span className="count">
          {session.offline ? (
            <span className="badge" title={`Read from ${session.offline.source}`}>
              HAR
            </span>
          ) : session.security === 'lan' ? (
            <span className="badge lan" title="Connected over the local network with the pairing token">
              LAN
            </span>
          ) : (
            <span className="badge" title="Connected from this machine">
              loopback
            </span>
          )}
        </span>
      </button>
      {selected && (
        <button
          type="button"
          className="nav-item plugin-item"
          aria-current={pluginId === TIMELINE}
          data-testid="timeline-item"
          title="Everything this session's plugins saw, in time order"
          onClick={() => selectPlugin(TIMELINE)}
        >
          Timeline
        </button>
      )}
      {selected &&
        session.plugins.accepted.map((offer) => {
          const plugin = plugins.find((p) => p.id === offer.id);
          return (
            <button
              type="button"
              key={offer.id}
              className="nav-item plugin-item"
              aria-current={pluginId === offer.id}
              data-testid="plugin"
              onClick={() => selectPlugin(offer.id)}
            >
              {plugin?.title ?? offer.id}
              <span className="count muted small">{offer.version}</span>
            </button>
          );
        })}
      {selected &&
        session.plugins.incompatible.map((p) => (
          <div key={p.id} className="nav-item plugin-item muted small" title={p.reason}>
            {p.id} (incompatible)
          </div>
        ))}
    </>
  );
}

function McpNav() {
  const view = useNav((s) => s.view);
  const show = useNav((s) => s.show);
  const status = useMcp((s) => s.status);
  const toolCount = useMcp((s) => s.tools.length);
  const failed = useHistory((s) => s.calls.filter((c) => c.status === 'failed').length);
  const readOnly = usePermissions((s) => s.view?.policy.readOnly === true);
  const asks = usePermissions((s) => s.asks.length);
  return (
    <section aria-label="MCP">
      <div className="nav-section">AI agents (MCP)</div>
      <button type="button" className="nav-item" aria-current={view === 'mcp'} onClick={() => show('mcp')}>
        <span className={`dot ${status?.running ? 'on' : 'off'}`} aria-hidden="true" />
        MCP server
        <span className="count muted small">
          {!status
            ? 'unknown'
            : status.running
              ? `${status.clients.length.toLocaleString()} client${status.clients.length === 1 ? '' : 's'}`
              : 'off'}
        </span>
      </button>
      <button type="button" className="nav-item" aria-current={view === 'tools'} onClick={() => show('tools')}>
        Tools <span className="count muted small">{toolCount ? toolCount.toLocaleString() : ''}</span>
      </button>
      <button type="button" className="nav-item" aria-current={view === 'history'} onClick={() => show('history')}>
        Call history
        {failed > 0 && (
          <span
            className="count badge failed"
            title={`${failed.toLocaleString()} failed call${failed === 1 ? '' : 's'}`}
          >
            {failed.toLocaleString()} failed
          </span>
        )}
      </button>
      <button
        type="button"
        className="nav-item"
        aria-current={view === 'permissions'}
        onClick={() => show('permissions')}
      >
        Permissions
        {asks > 0 ? (
          <span className="count badge accent">{asks} waiting</span>
        ) : readOnly ? (
          <span className="count badge" title="AI agents cannot change anything">
            read-only
          </span>
        ) : null}
      </button>
    </section>
  );
}

/** Small line icons; emoji fonts are not everywhere. */
function PlatformIcon({ platform }: { platform: SessionInfo['device']['platform'] }) {
  const paths: Record<SessionInfo['device']['platform'], string> = {
    browser: 'M2 3h12v10H2zM2 6h12',
    node: 'M8 1.5l5.5 3.2v6.6L8 14.5l-5.5-3.2V4.7z',
    'react-native': 'M5 1.5h6v13H5zM7 12.5h2',
    electron: 'M1.5 2.5h13v9h-13zM5.5 14h5M8 11.5V14',
    other: 'M8 3a5 5 0 100 10A5 5 0 008 3z',
  };
  return (
    <svg
      width="13"
      height="13"
      viewBox="0 0 16 16"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
    >
      <path d={paths[platform]} />
    </svg>
  );
}
