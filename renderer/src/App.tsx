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
        <ErrorBoundary key={view} what={`${view} view`}>
          {view === 'sessions' && <SessionView />}
          {view === 'mcp' && <McpView />}
          {view === 'tools' && <ToolsView />}
          {view === 'history' && <HistoryView />}
          {view === 'permissions' && <PermissionsView />}
        </ErrorBoundary>
      </main>
      <Notices />
      <AskDialog />
    </div>
  );
}

function TopBar() {
  const theme = useNav((s) => s.theme);
  const setTheme = useNav((s) => s.setTheme);
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
        title="Switch between light and dark"
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
