import { useEffect } from 'react';
import { ActivityIndicator } from './components/ActivityIndicator.js';
import { AskDialog } from './components/AskDialog.js';
import { ErrorBoundary } from './components/ErrorBoundary.js';
import { Notices } from './components/Notices.js';
import { Sidebar } from './components/Sidebar.js';
import { useConnection } from './stores/connection.js';
import { useNav } from './stores/nav.js';
import { HistoryView } from './views/HistoryView.js';
import { McpView } from './views/McpView.js';
import { PermissionsView } from './views/PermissionsView.js';
import { SessionView } from './views/SessionView.js';
import { ToolsView } from './views/ToolsView.js';

/** `/` focuses the current view's filter; Escape leaves a text field. */
function useKeyboard(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A widget that handled the key (a suggestion list closing on Escape) keeps it.
      if (e.defaultPrevented) return;
      const target = e.target as HTMLElement;
      const typing = target.matches('input, textarea, select, [contenteditable]');
      if (e.key === '/' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
        const filter = document.querySelector<HTMLInputElement>('main [data-filter]');
        if (filter) {
          e.preventDefault();
          filter.focus();
          filter.select();
        }
      } else if (e.key === 'Escape' && typing) {
        target.blur();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

export function App() {
  const view = useNav((s) => s.view);
  const theme = useNav((s) => s.theme);
  const collapsed = useNav((s) => s.sidebarCollapsed);
  // What is shown while the bridge is down may be out of date: dimmed and not clickable.
  const stale = useConnection((s) => s.state !== 'open' && s.epoch > 0);
  // Never connected (a wrong token, the inspector not running): nothing it shows would be true.
  const neverConnected = useConnection((s) => s.state !== 'open' && !s.core);
  useKeyboard();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  return (
    <div className="app" data-stale={stale || undefined} data-sidebar={collapsed ? 'collapsed' : undefined}>
      <TopBar />
      {!collapsed && <Sidebar />}
      <main className="main">
        <ConnectionBanner />
        <StorageBanner />
        {neverConnected ? (
          <NotConnected />
        ) : (
          <ErrorBoundary key={view} what={`${view} view`}>
            {view === 'sessions' && <SessionView />}
            {view === 'mcp' && <McpView />}
            {view === 'tools' && <ToolsView />}
            {view === 'history' && <HistoryView />}
            {view === 'permissions' && <PermissionsView />}
          </ErrorBoundary>
        )}
      </main>
      <Notices />
      <AskDialog />
    </div>
  );
}

function TopBar() {
  const theme = useNav((s) => s.theme);
  const setTheme = useNav((s) => s.setTheme);
  const followsSystem = useNav((s) => s.themeFollowsSystem);
  const collapsed = useNav((s) => s.sidebarCollapsed);
  const setCollapsed = useNav((s) => s.setSidebarCollapsed);
  const core = useConnection((s) => s.core);
  return (
    <header className="topbar">
      <button
        type="button"
        className="icon-button"
        aria-label={collapsed ? 'Show the sidebar' : 'Hide the sidebar'}
        aria-expanded={!collapsed}
        title={collapsed ? 'Show the sidebar' : 'Hide the sidebar'}
        onClick={() => setCollapsed(!collapsed)}
      >
        <svg
          width="16"
          height="16"
          viewBox="0 0 16 16"
          aria-hidden="true"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
        >
          <path d="M2 3h12v10H2zM6 3v10" />
        </svg>
      </button>
      <h1 className="brand">
        <img src="./favicon.svg" alt="" />
        Porthole
        {core && <span className="muted small">{core.version}</span>}
      </h1>
      <span className="spacer" />
      <ActivityIndicator />
      <button
        type="button"
        onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
        title={
          followsSystem
            ? 'Switch between light and dark (now following the system)'
            : 'Switch between light and dark (switching back follows the system again)'
        }
        aria-label={`Switch to the ${theme === 'dark' ? 'light' : 'dark'} theme`}
      >
        {theme === 'dark' ? '☀ Light' : '☾ Dark'}
      </button>
    </header>
  );
}

/** While the data dir cannot be written: what is kept in memory meanwhile and what to do. */
function StorageBanner() {
  const storage = useConnection((s) => s.storage);
  if (!storage || storage.writable) return null;
  return (
    <div className="banner warn" role="status" data-testid="storage-banner">
      <strong>Not saving to disk.</strong> {storage.problems.map((p) => p.message).join(' ')}
    </div>
  );
}

function ConnectionBanner() {
  const state = useConnection((s) => s.state);
  const detail = useConnection((s) => s.detail);
  if (state === 'open') return null;
  return (
    <div className={`banner ${state === 'closed' ? 'error' : 'warn'}`} role="alert" data-testid="connection-banner">
      {state === 'connecting' ? 'Connecting to the inspector…' : `Not connected: ${detail ?? 'retrying'}`}
    </div>
  );
}

/** Before the first snapshot there is nothing true to show: no sessions, ports or MCP state, only why. */
function NotConnected() {
  const state = useConnection((s) => s.state);
  const detail = useConnection((s) => s.detail);
  if (state === 'connecting') {
    return (
      <div className="empty" role="status">
        <h2>Connecting to the inspector…</h2>
      </div>
    );
  }
  const badToken = detail?.includes('token');
  return (
    <div className="empty" data-testid="not-connected">
      <h2>{badToken ? 'This window cannot get into the inspector' : 'The inspector is not reachable'}</h2>
      <p>{detail}</p>
      <ul className="muted">
        {badToken ? (
          <>
            <li>
              Open the UI address the inspector printed when it started (<code>porthole serve</code>); it carries the
              token. The inspector also writes it as <code>uiUrl</code> in <code>instance.json</code> in its data
              folder.
            </li>
            <li>An address from an earlier run or another data folder carries another token.</li>
          </>
        ) : (
          <li>
            Start it with <code>npm start</code> or <code>porthole serve</code>; this window reconnects by itself.
          </li>
        )}
      </ul>
    </div>
  );
}
