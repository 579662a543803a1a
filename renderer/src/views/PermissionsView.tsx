import { useState } from 'react';
import {
  effectivePermission,
  type Permission,
  type PermissionPolicy,
  type PermissionPreset,
  type ToolPermissionView,
  type PermissionsView as View,
} from '../../../shared/permissions.js';
import { useBridge } from '../bridge/context.js';
import { useMcp } from '../stores/mcp.js';
import { usePermissions, withPolicy } from '../stores/permissions.js';
import { formatTimeOfDay } from '../time.js';

const CHOICES: { value: Permission; label: string }[] = [
  { value: 'allow', label: 'Allow' },
  { value: 'ask', label: 'Ask me' },
  { value: 'deny', label: 'Deny' },
];

/** Why a tool has its permission, for the person reading the table. */
function sourceNote(tool: ToolPermissionView, scoped: boolean): string | undefined {
  switch (tool.source) {
    case 'read-only':
      return 'denied by the read-only switch';
    case 'client-read-only':
      return 'denied: this client is read-only';
    case 'default':
      return 'default';
    case 'tool':
      return scoped ? 'as for all clients' : undefined;
    case 'client':
      return scoped ? 'set for this client' : undefined;
  }
}

/** The tools as one client sees them, by the same rules the core applies. */
function forClient(view: View, client: string): ToolPermissionView[] {
  const own = Object.hasOwn(view.policy.clients, client) ? view.policy.clients[client]?.tools : undefined;
  return view.tools.map((tool) => {
    const { permission, source } = effectivePermission(
      view.policy,
      { name: tool.name, annotations: { readOnlyHint: tool.readOnly }, defaultPermission: tool.defaultPermission },
      client,
    );
    const setting = own && Object.hasOwn(own, tool.name) ? own[tool.name] : undefined;
    return { ...tool, permission, source, setting };
  });
}

/**
 * What AI agents (MCP clients) may do, tool by tool: the read-only switch, "ask before changes",
 * and allow / ask / deny per tool. The window's own tools browser is never restricted.
 */
export function PermissionsView() {
  const { client } = useBridge();
  const view = usePermissions((s) => s.view);
  const setView = usePermissions((s) => s.setView);
  const [error, setError] = useState<string>();
  const [scope, setScope] = useState('');
  const mcpClients = useMcp((s) => s.status?.clients);
  const connected = mcpClients?.map((c) => c.name) ?? [];

  if (!view) return <p className="view muted">Loading…</p>;
  const { policy } = view;

  const save = async (next: PermissionPolicy) => {
    setError(undefined);
    setView(withPolicy(view, next));
    try {
      setView(await client.request('permissions.set', { policy: next }));
    } catch (e) {
      setError(`Could not save the permissions: ${(e as Error).message}`);
      setView(view);
    }
  };
  const preset = async (name: PermissionPreset) => {
    try {
      setError(undefined);
      setView(await client.request('permissions.preset', { preset: name }));
    } catch (e) {
      setError(`Could not apply the preset: ${(e as Error).message}`);
    }
  };
  const setTool = (name: string, permission: Permission | undefined) => {
    if (!scope) return save({ ...policy, tools: { ...policy.tools, [name]: permission ?? 'allow' } });
    const entry = policy.clients[scope] ?? { readOnly: false, tools: {} };
    const tools = { ...entry.tools };
    if (permission) tools[name] = permission;
    else delete tools[name];
    return save({ ...policy, clients: { ...policy.clients, [scope]: { ...entry, tools } } });
  };

  const clientNames = [...new Set([...Object.keys(policy.clients), ...connected])].sort();
  const shown = scope ? forClient(view, scope) : view.tools;
  const changing = shown.filter((t) => !t.readOnly);
  const reading = shown.filter((t) => t.readOnly);

  return (
    <div className="view stack" style={{ maxWidth: 960 }} data-testid="permissions-view">
      <div className="view-header">
        <h2>Permissions for AI agents</h2>
      </div>
      <p className="muted">
        What MCP clients may do in this inspector. <strong>Allow</strong> runs the tool at once, <strong>Ask me</strong>{' '}
        shows you the call here first, <strong>Deny</strong> hides the tool from agents and refuses calls to it. The
        tools browser in this window is never restricted.
      </p>
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}

      <section className="card stack" aria-label="Switches">
        <label className="switch-row">
          <input
            type="checkbox"
            role="switch"
            checked={policy.readOnly}
            aria-checked={policy.readOnly}
            aria-describedby="read-only-hint"
            onChange={(e) => void save({ ...policy, readOnly: e.target.checked })}
          />
          <span>
            <strong>Read-only for AI agents</strong>
            <span id="read-only-hint" className="muted small block">
              Denies every tool that changes the app or stored data ({changing.length.toLocaleString()} tools); reading
              stays allowed.
            </span>
          </span>
        </label>
        <div className="row wrap">
          <button type="button" onClick={() => void preset('ask-before-changes')}>
            Ask before changes
          </button>
          <span className="muted small">Sets every tool that changes something to “Ask me”.</span>
          <span className="spacer" />
          <button type="button" onClick={() => void preset('defaults')}>
            Reset to defaults
          </button>
        </div>
        <div className="row wrap">
          <label className="row">
            Ask timeout
            <select
              value={policy.askTimeoutMs}
              onChange={(e) => void save({ ...policy, askTimeoutMs: Number(e.target.value) })}
            >
              {[...new Set([15_000, 30_000, 60_000, 120_000, 300_000, policy.askTimeoutMs])]
                .sort((a, b) => a - b)
                .map((ms) => (
                  <option key={ms} value={ms}>
                    {ms >= 60_000 ? `${ms / 60_000} min` : `${ms / 1000} s`}
                  </option>
                ))}
            </select>
          </label>
          <span className="muted small">No answer in time is a denial.</span>
          <span className="spacer" />
          <label className="row">
            With no window open, “Ask me” tools are
            <select
              value={policy.headlessAsk}
              onChange={(e) => void save({ ...policy, headlessAsk: e.target.value as PermissionPolicy['headlessAsk'] })}
            >
              <option value="deny">denied</option>
              <option value="allow">allowed</option>
            </select>
          </label>
        </div>
      </section>

      {clientNames.length > 0 && (
        <label className="row">
          Show and set for
          <select value={scope} onChange={(e) => setScope(e.target.value)} data-testid="permission-scope">
            <option value="">all clients</option>
            {clientNames.map((name) => (
              <option key={name} value={name}>
                the client “{name}”
              </option>
            ))}
          </select>
        </label>
      )}
      <ToolTable
        title="Tools that change the app or stored data"
        tools={changing}
        scoped={!!scope}
        onChange={setTool}
      />
      <ToolTable title="Tools that only read" tools={reading} scoped={!!scope} onChange={setTool} />
      <Clients view={view} save={save} />
    </div>
  );
}

function ToolTable({
  title,
  tools,
  scoped,
  onChange,
}: {
  title: string;
  tools: ToolPermissionView[];
  /** Showing one client's view: its own entries, and a way back to the global one. */
  scoped: boolean;
  onChange(name: string, permission: Permission | undefined): void;
}) {
  if (tools.length === 0) return null;
  return (
    <section className="card" aria-label={title}>
      <h3>{title}</h3>
      <table className="table" data-testid="permission-table">
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Plugin</th>
            <th scope="col">Agents may</th>
          </tr>
        </thead>
        <tbody>
          {tools.map((tool) => (
            <tr key={tool.name} data-testid="permission-row" data-tool={tool.name} data-permission={tool.permission}>
              <td>
                <span className="mono">{tool.name}</span>
                <span className="muted small block">
                  {tool.title}
                  {tool.destructive ? ' · may delete or overwrite data' : ''}
                  {tool.asksFor && tool.permission === 'allow' && tool.source === 'default'
                    ? ` · asks for ${tool.asksFor}`
                    : ''}
                </span>
              </td>
              <td>{tool.plugin ?? 'inspector'}</td>
              <td>
                <fieldset
                  className="segmented"
                  disabled={tool.source === 'read-only' || tool.source === 'client-read-only'}
                >
                  <legend className="visually-hidden">What agents may do with {tool.name}</legend>
                  {CHOICES.map((choice) => (
                    <label key={choice.value} data-choice={choice.value}>
                      <input
                        type="radio"
                        name={`permission-${tool.name}`}
                        value={choice.value}
                        checked={tool.permission === choice.value}
                        onChange={() => onChange(tool.name, choice.value)}
                      />
                      {choice.label}
                    </label>
                  ))}
                </fieldset>
                {sourceNote(tool, scoped) && <span className="muted small block">{sourceNote(tool, scoped)}</span>}
                {scoped && tool.setting && (
                  <button type="button" className="link small" onClick={() => onChange(tool.name, undefined)}>
                    Use the setting for all clients
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Per-client entries (stricter rules for one MCP client name) and the "for this session" answers in force. */
function Clients({ view, save }: { view: View; save(policy: PermissionPolicy): Promise<void> }) {
  const { policy, grants } = view;
  const [name, setName] = useState('');
  const clients = Object.entries(policy.clients);
  const setClient = (client: string, entry: PermissionPolicy['clients'][string] | undefined) => {
    const next = { ...policy.clients };
    if (entry) next[client] = entry;
    else delete next[client];
    return save({ ...policy, clients: next });
  };
  return (
    <section className="card stack" aria-label="Clients">
      <h3>Per client</h3>
      <p className="muted small">
        A client is named by what it says when it connects (see the MCP server page). Its own entries replace the ones
        for all clients; choose the client in “Show and set for” above to set them tool by tool.
      </p>
      {clients.length > 0 && (
        <ul className="plain-list">
          {clients.map(([client, entry]) => (
            <li key={client} className="row wrap" data-testid="client-policy">
              <strong>{client}</strong>
              <label className="row">
                <input
                  type="checkbox"
                  checked={entry.readOnly}
                  onChange={(e) => void setClient(client, { ...entry, readOnly: e.target.checked })}
                />
                read-only
              </label>
              {Object.keys(entry.tools).length > 0 && (
                <span className="muted small">
                  {Object.entries(entry.tools)
                    .map(([tool, p]) => `${tool}: ${p}`)
                    .join(', ')}
                </span>
              )}
              <button type="button" className="link" onClick={() => void setClient(client, undefined)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          const client = name.trim();
          if (!client) return;
          void setClient(client, { readOnly: true, tools: policy.clients[client]?.tools ?? {} });
          setName('');
        }}
      >
        <label className="row">
          Client name
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. claude-code" />
        </label>
        <button type="submit" disabled={!name.trim()}>
          Make read-only
        </button>
      </form>
      <h3>Allowed for this session</h3>
      {grants.length === 0 ? (
        <p className="muted small">
          None. “Allow for this session” answers are kept until the inspector stops or the permissions change.
        </p>
      ) : (
        <ul className="plain-list" data-testid="session-grants">
          {grants.map((g) => (
            <li key={`${g.client}\n${g.tool}`}>
              <span className="mono">{g.tool}</span> for <strong>{g.client}</strong>{' '}
              <span className="muted small">since {formatTimeOfDay(g.grantedAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
