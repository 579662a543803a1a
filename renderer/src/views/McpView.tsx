import { useEffect, useState } from 'react';
import type { ListedPlugins } from '../../../shared/bridge.js';
import { useBridge } from '../bridge/context.js';
import { CopyButton } from '../components/CopyButton.js';
import { httpConfigs, stdioConfigs, TOKEN_PLACEHOLDER } from '../mcp/configs.js';
import { useConnection } from '../stores/connection.js';
import { useMcp } from '../stores/mcp.js';
import { formatTimeOfDay } from '../time.js';

/** The MCP server: status, URL, the token (hidden until revealed) and copy-ready client configs. */
export function McpView() {
  const { client } = useBridge();
  const status = useMcp((s) => s.status);
  const token = useMcp((s) => s.token);
  const setToken = useMcp((s) => s.setToken);
  const [revealed, setRevealed] = useState(false);
  const [error, setError] = useState<string>();

  const fetchToken = async () => {
    try {
      const { token } = await client.request('mcp.token', {});
      setToken(token);
      return token;
    } catch (e) {
      setError((e as Error).message);
      return undefined;
    }
  };
  const reveal = async () => {
    if (revealed) return setRevealed(false);
    if ((token ?? (await fetchToken())) !== undefined) setRevealed(true);
  };

  if (!status) return <p className="view muted">Loading…</p>;
  const shownToken = revealed && token ? token : TOKEN_PLACEHOLDER;

  return (
    <div className="view stack" style={{ maxWidth: 860 }} data-testid="mcp-view">
      <section className="card stack" aria-label="MCP server status">
        <div className="row">
          <span className={`dot ${status.running ? 'on' : 'off'}`} aria-hidden="true" />
          <h2>{status.running ? 'MCP server running' : 'MCP server not running'}</h2>
        </div>
        {status.error && <div className="banner error">{status.error}</div>}
        <dl className="kv">
          <dt>URL</dt>
          <dd className="row">
            <code data-testid="mcp-url">{status.url ?? '—'}</code>
            {status.url && <CopyButton text={status.url} />}
          </dd>
          <dt>Auth</dt>
          <dd>{status.auth === 'token' ? 'Bearer token required' : 'none (started with --mcp-auth none)'}</dd>
          {status.auth === 'token' && (
            <>
              <dt>Token</dt>
              <dd className="row">
                <code data-testid="mcp-token">{revealed && token ? token : '•'.repeat(24)}</code>
                <button type="button" onClick={() => void reveal()}>
                  {revealed ? 'Hide' : 'Reveal'}
                </button>
                <CopyButton get={async () => token ?? (await fetchToken())} label="Copy token" />
              </dd>
            </>
          )}
          <dt>Clients</dt>
          <dd>
            {status.clients.length === 0 ? (
              <span className="muted">none connected</span>
            ) : (
              <ul style={{ margin: 0, paddingLeft: 18 }}>
                {status.clients.map((c) => (
                  <li key={c.id}>
                    {c.name} {c.version}{' '}
                    <span className="muted small">
                      · {c.surface} · since {formatTimeOfDay(c.connectedAt)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </dl>
        {error && <div className="banner error">{error}</div>}
      </section>
      <ListedPluginsCard />
      <WindowAccess />

      <h2>Connect an AI agent</h2>
      <p className="muted">
        These start <code>porthole mcp</code>, which finds this running inspector and serves its tools over stdio. No
        token needed.
      </p>
      {stdioConfigs(status.stdio).map((config) => (
        <Config key={config.id} {...config} />
      ))}
      {status.url && (
        <>
          <h3>Or over HTTP</h3>
          {httpConfigs(status.url, status.auth, shownToken).map((config) => (
            <Config
              key={config.id}
              {...config}
              copy={
                status.auth === 'token' && config.needsToken !== false
                  ? async () => {
                      const t = token ?? (await fetchToken());
                      return t ? config.text.replace(shownToken, t) : undefined;
                    }
                  : undefined
              }
            />
          ))}
        </>
      )}
    </div>
  );
}

/**
 * Which plugins' tools agents see: a plugin is listed once an app offered it to this inspector; the
 * person can list one before that (or stop listing one they enabled).
 */
function ListedPluginsCard() {
  const { client } = useBridge();
  const tools = useMcp((s) => s.tools);
  const [listed, setListed] = useState<ListedPlugins>();
  const [error, setError] = useState<string>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again whenever the tool list changes (an app offered a plugin)
  useEffect(() => {
    client.request('mcp.plugins', {}).then(setListed, (e: Error) => setError(e.message));
  }, [client, tools]);
  if (!listed || listed.all) return null;
  const enable = (id: string, enabled: boolean) =>
    client.request('mcp.enablePlugin', { id, enabled }).then(setListed, (e: Error) => setError(e.message));
  return (
    <section className="card stack" aria-label="Plugins listed to agents" data-testid="listed-plugins">
      <h2>Plugins listed to agents</h2>
      <p className="muted">
        Agents see a plugin's tools once an app has offered it to this inspector. Tick one to list its tools before any
        app does. A client can narrow its list with <code>?plugins=</code> or <code>porthole mcp --plugins</code>.
      </p>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {listed.plugins.map((p) => (
          <li key={p.id}>
            <label className="row">
              <input
                type="checkbox"
                checked={p.offered || p.enabled}
                disabled={p.offered}
                onChange={(e) => void enable(p.id, e.currentTarget.checked)}
              />
              <code>{p.id}</code>
              {p.offered && <span className="muted small">offered by an app</span>}
            </label>
          </li>
        ))}
      </ul>
      {error && <div className="banner error">{error}</div>}
    </section>
  );
}

/**
 * Headless mode: who may open this window. Links work once; renewing the UI key ends every
 * browser's access (this one comes straight back through a new one-time link).
 */
function WindowAccess() {
  const { client } = useBridge();
  const mode = useConnection((s) => s.core?.mode);
  const [error, setError] = useState<string>();
  if (mode !== 'headless') return null;
  const renew = async () => {
    try {
      const { path } = await client.request('ui.newLink', {});
      window.location.assign(path);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section className="card stack" aria-label="Window access" data-testid="window-access">
      <h2>Window access</h2>
      <p className="muted">
        A link to this window works once: opening it gives this browser access until the browser closes, and a copied
        link is of no use after that. <code>porthole ui</code> opens a fresh link. Renewing the UI key ends the access
        of every browser that opened the window (this one opens a new link at once).
      </p>
      <div className="row">
        <button type="button" data-testid="renew-ui-key" onClick={() => void renew()}>
          Renew UI key
        </button>
      </div>
      {error && <div className="banner error">{error}</div>}
    </section>
  );
}

function Config({
  client,
  where,
  text,
  copy,
}: {
  client: string;
  where: string;
  text: string;
  copy?: () => Promise<string | undefined>;
}) {
  return (
    <section className="stack" style={{ gap: 4 }} aria-label={`${client} config`}>
      <div>
        <strong>{client}</strong> <span className="muted">{where}</span>
      </div>
      <div className="snippet">
        <CopyButton className="copy" text={copy ? undefined : text} get={copy} />
        <pre>
          <code>{text}</code>
        </pre>
      </div>
    </section>
  );
}
