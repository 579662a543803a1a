import { type KeyboardEvent, useEffect, useState } from 'react';
import type { ToolInfo, ToolRunResult } from '../../../shared/bridge.js';
import { useBridge } from '../bridge/context.js';
import { JsonTree } from '../components/JsonTree.js';
import { ResultView } from '../components/ResultView.js';
import { searchTools, useMcp } from '../stores/mcp.js';
import { useNav } from '../stores/nav.js';
import { useSessions } from '../stores/sessions.js';
import { SchemaForm } from '../tools/SchemaForm.js';

/** Every MCP tool: search, read its schemas and annotations, run it from a form. */
export function ToolsView() {
  const tools = useMcp((s) => s.tools);
  const loaded = useMcp((s) => s.toolsLoaded);
  const toolName = useNav((s) => s.toolName);
  const selectTool = useNav((s) => s.selectTool);
  const [query, setQuery] = useState('');
  const found = searchTools(tools, query);
  // Nothing chosen yet: open on a tool that only reads, never on one that deletes or changes something.
  const tool = tools.find((t) => t.name === toolName) ?? found.find((t) => t.annotations.readOnlyHint) ?? found[0];

  const onKeys = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const index = found.findIndex((t) => t.name === tool?.name);
    const next = found[Math.max(0, Math.min(found.length - 1, index + (e.key === 'ArrowDown' ? 1 : -1)))];
    if (next) selectTool(next.name);
  };

  return (
    <div className="split">
      <div>
        <div className="filters">
          <input
            type="search"
            placeholder="Search tools (press /)"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            aria-label="Search tools"
            onKeyDown={onKeys}
            data-filter
          />
          <span className="muted small">
            {found.length.toLocaleString()} of {tools.length.toLocaleString()}
          </span>
        </div>
        {!loaded && <p className="pane muted">Loading tools…</p>}
        <div role="listbox" aria-label="Tools" tabIndex={-1} onKeyDown={onKeys}>
          {found.map((t) => (
            <button
              type="button"
              role="option"
              key={t.name}
              className="list-item"
              aria-selected={t.name === tool?.name}
              onClick={() => selectTool(t.name)}
            >
              <div className="row">
                <strong className="mono">{t.name}</strong>
                <span className="spacer" />
                <span className="badge">{t.plugin ?? 'inspector'}</span>
              </div>
              <div className="muted small">{t.title}</div>
            </button>
          ))}
        </div>
      </div>
      <div>{tool ? <ToolDetail key={tool.name} tool={tool} /> : <p className="pane muted">No tool matches.</p>}</div>
    </div>
  );
}

function ToolDetail({ tool }: { tool: ToolInfo }) {
  const { client } = useBridge();
  const sessions = useSessions((s) => s.sessions);
  const selectCall = useNav((s) => s.selectCall);
  // "Run again" from the call history prefills the form once.
  const [initialArgs] = useState(() => useNav.getState().toolArgs);
  useEffect(() => {
    if (useNav.getState().toolArgs) useNav.setState({ toolArgs: undefined });
  }, []);
  const [run, setRun] = useState<{ result: ToolRunResult; callId?: string; ms: number }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const a = tool.annotations;

  const choices = Object.values(sessions)
    .filter((s) => !tool.plugin || s.plugins.accepted.some((p) => p.id === tool.plugin))
    .map((s) => ({ id: s.id, label: `${s.app.name} · ${s.device.name}${s.active ? '' : ' (inactive)'}` }));

  const execute = async (args: Record<string, unknown>) => {
    setBusy(true);
    setError(undefined);
    const started = performance.now();
    try {
      const answer = await client.request('tools.run', { name: tool.name, args });
      setRun({ ...answer, ms: performance.now() - started });
    } catch (e) {
      setRun(undefined);
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="pane stack" data-testid="tool-detail">
      <div>
        <h2 className="mono">{tool.name}</h2>
        <div className="muted">{tool.title}</div>
      </div>
      <div className="row" data-testid="annotations">
        <span className="badge">{tool.plugin ? `${tool.plugin} plugin` : 'inspector'}</span>
        {a.readOnlyHint && <span className="badge ok">read-only</span>}
        {a.destructiveHint && <span className="badge failed">destructive</span>}
        {a.idempotentHint && <span className="badge">idempotent</span>}
        {a.openWorldHint && <span className="badge">open world</span>}
        {a.readOnlyHint === false && !a.destructiveHint && <span className="badge">changes state</span>}
      </div>
      <p style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{tool.description}</p>
      <section className="card">
        <SchemaForm
          schema={tool.inputSchema}
          onSubmit={(args) => void execute(args)}
          busy={busy}
          destructive={a.destructiveHint === true}
          submitLabel={a.destructiveHint ? 'Run (destructive)' : 'Run'}
          sessions={choices}
          initialArgs={initialArgs}
        />
      </section>
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      {run && (
        <div className="stack">
          <ResultView result={run.result} durationMs={run.ms} />
          {run.callId && (
            <div>
              <button type="button" className="link" onClick={() => selectCall(run.callId)}>
                Open in the call history
              </button>
            </div>
          )}
        </div>
      )}
      <details>
        <summary>Input schema</summary>
        <JsonTree value={tool.inputSchema} expandDepth={4} />
      </details>
      <details>
        <summary>Output schema</summary>
        {tool.outputSchema ? (
          <JsonTree value={tool.outputSchema} expandDepth={4} />
        ) : (
          <p className="muted">None declared: the tool answers with text or images.</p>
        )}
      </details>
    </div>
  );
}
