import { useEffect } from 'react';
import { ActivityIndicator } from './components/ActivityIndicator.js';
import { ErrorBoundary } from './components/ErrorBoundary.js';
import { Notices } from './components/Notices.js';
import { Sidebar } from './components/Sidebar.js';
import { useConnection } from './stores/connection.js';
import { useNav } from './stores/nav.js';
import { HistoryView } from './views/HistoryView.js';
import { McpView } from './views/McpView.js';
import { SessionView } from './views/SessionView.js';
import { ToolsView } from './views/ToolsView.js';

/** `/` focuses the current view's filter; Escape leaves a text field. */
function useKeyboard(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
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
  // What is shown while the bridge is down may be out of date: dimmed and not clickable.
  const stale = useConnection((s) => s.state !== 'open' && s.epoch > 0);
  useKeyboard();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  return (
    <div className="app" data-stale={stale || undefined}>
      <TopBar />
      <Sidebar />
      <main className="main">
        <ConnectionBanner />
        <ErrorBoundary key={view} what={`${view} view`}>
          {view === 'sessions' && <SessionView />}
          {view === 'mcp' && <McpView />}
          {view === 'tools' && <ToolsView />}
          {view === 'history' && <HistoryView />}
        </ErrorBoundary>
      </main>
      <Notices />
    </div>
  );
}

function TopBar() {
  const theme = useNav((s) => s.theme);
  const setTheme = useNav((s) => s.setTheme);
  const core = useConnection((s) => s.core);
  return (
    <header className="topbar">
      <div className="brand">
        <img src="./favicon.svg" alt="" />
        Porthole
        {core && <span className="muted small">{core.version}</span>}
      </div>
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
