import { useConnection } from '../stores/connection.js';
import { CopyButton } from './CopyButton.js';

/** How to connect an app: the agent snippet with this inspector's debuggee URL. */
export function ConnectHelp() {
  const url = useConnection((s) => s.core?.debuggeeUrl) || 'ws://127.0.0.1:7360';
  const snippet = `import { connect } from '@porthole/agent';
import { example } from '@porthole/agent/example';
import { network } from '@porthole/agent/network';

connect({
  url: '${url}',
  app: { id: 'com.example.my-app', name: 'My App' },
  plugins: [example(), network()],
});`;
  return (
    <div className="empty" data-testid="connect-help">
      <h2>No app connected yet</h2>
      <p>
        Porthole inspects apps that embed its small agent. Add these lines where your app starts (a web page, a Node
        service, React Native or Electron), run the app, and it shows up on the left.
      </p>
      <div className="snippet">
        <CopyButton className="copy" text={snippet} />
        <pre>
          <code>{snippet}</code>
        </pre>
      </div>
      <ul className="muted">
        <li>
          The app connects to <code>{url}</code>. A browser page must be served from localhost, or started with{' '}
          <code>--allow-origin</code>.
        </li>
        <li>
          Another machine on your network? Start the inspector with <code>--lan</code> and pass the pairing token it
          prints as <code>pairingToken</code>.
        </li>
        <li>
          Just looking around? <code>npm run demo</code> starts a demo service and page that connect here.
        </li>
      </ul>
    </div>
  );
}
