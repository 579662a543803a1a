import { useEffect, useState } from 'react';
import { JsonTree } from '../../../renderer/src/components/JsonTree.js';
import { type PanelProps, usePanelClient, usePluginEvents } from '../../../renderer/src/panel-kit.js';
import { SchemaForm } from '../../../renderer/src/tools/SchemaForm.js';
import { type ActionView, actionsProtocol } from '../protocol.js';

/** The app's debug actions: each with a form for its arguments (from its JSON Schema) and its last result. */
export default function ActionsPanel({ session }: PanelProps) {
  const api = usePanelClient(actionsProtocol, session.id);
  const [actions, setActions] = useState<ActionView[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    api.call('list', {}).then(
      (r) => setActions(r.actions),
      (e: Error) => setError(e.message),
    );
  }, [api]);
  usePluginEvents(actionsProtocol, session.id, (events) => {
    const last = events.filter((e) => e.event === 'declared').at(-1);
    if (last) setActions(last.data.actions);
  });

  return (
    <div className="view stack" data-testid="actions-panel">
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      {actions === undefined ? (
        <p className="muted">Loading…</p>
      ) : actions.length === 0 ? (
        <p className="muted">
          The app declares no debug actions. In the app:{' '}
          <code>{'actions({ resetCart: { description: "Empties the cart", run: () => cart.clear() } })'}</code>
        </p>
      ) : (
        actions.map((action) => (
          <ActionCard
            key={action.name}
            action={action}
            active={session.active}
            run={(args) => api.call('run', { name: action.name, args: args as Record<string, never> })}
          />
        ))
      )}
    </div>
  );
}

type RunAnswer = { value?: unknown; error?: string; ms: number };

function ActionCard({
  action,
  active,
  run,
}: {
  action: ActionView;
  active: boolean;
  run(args: Record<string, unknown>): Promise<RunAnswer>;
}) {
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<RunAnswer>();
  const [confirming, setConfirming] = useState<Record<string, unknown>>();
  const go = async (args: Record<string, unknown>) => {
    if (action.destructive && !confirming) {
      setConfirming(args);
      return;
    }
    setConfirming(undefined);
    setBusy(true);
    try {
      setAnswer(await run(args));
    } catch (e) {
      setAnswer({ error: (e as Error).message, ms: 0 });
    } finally {
      setBusy(false);
    }
  };
  const headingId = `action-${action.name}`;
  return (
    <section className="card stack" aria-labelledby={headingId} data-testid="action-card">
      <div className="row">
        <h3 id={headingId} className="mono">
          {action.name}
        </h3>
        {action.destructive && <span className="badge failed">destructive</span>}
      </div>
      {action.description && <p className="muted">{action.description}</p>}
      {action.problem ? (
        <div className="banner error">{action.problem}</div>
      ) : !action.params ? (
        <div className="row">
          <button type="button" className="primary" disabled={busy || !active} onClick={() => void go({})}>
            {busy ? 'Running…' : 'Run'}
          </button>
          <span className="muted small">No arguments.</span>
        </div>
      ) : (
        <SchemaForm
          schema={action.params}
          onSubmit={(args) => void go(args)}
          busy={busy || !active}
          submitLabel={busy ? 'Running…' : 'Run'}
        />
      )}
      {confirming && (
        <div className="banner warn row" role="alert">
          <span>{action.name} deletes or overwrites data in the app. Run it?</span>
          <button type="button" className="danger" onClick={() => void go(confirming)}>
            Run it
          </button>
          <button type="button" onClick={() => setConfirming(undefined)}>
            Cancel
          </button>
        </div>
      )}
      {answer &&
        (answer.error ? (
          <div className="banner error" role="alert">
            {answer.error}
          </div>
        ) : (
          <div className="pane" data-testid="action-result">
            <p className="muted small">Returned in {answer.ms} ms</p>
            <JsonTree value={answer.value} label={`Result of ${action.name}`} />
          </div>
        ))}
    </section>
  );
}
