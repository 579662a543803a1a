import { Component, type ReactNode } from 'react';

/** Keeps one broken panel or view from taking the whole window down. */
export class ErrorBoundary extends Component<{ children: ReactNode; what: string }, { error?: Error }> {
  override state: { error?: Error } = {};

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error) {
    console.error(`[porthole] ${this.props.what} crashed:`, error);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="empty">
        <h2>The {this.props.what} crashed</h2>
        <pre className="muted">{this.state.error.message}</pre>
        <div>
          <button type="button" onClick={() => this.setState({ error: undefined })}>
            Try again
          </button>
        </div>
      </div>
    );
  }
}
