import { type FormEvent, useEffect, useId, useState } from 'react';
import type { PanelClient } from '../../../renderer/src/panel-kit.js';
import type { Read, RedactionRules, StateProtocol } from '../protocol.js';

const REDACTED = '[redacted]';
const KINDS = [
  {
    kind: 'paths',
    title: 'State paths',
    placeholder: 'auth.user.ssn',
    hint: 'Dotted paths from the root of a state (array items add no part).',
  },
  {
    kind: 'keys',
    title: 'Key names',
    placeholder: 'creditCard',
    hint: 'Hidden at any depth, beside the default secret names (password, token, secret, apiKey…).',
  },
] as const;

/**
 * The "Agent view": what state_get (of a store or a query) answers an AI agent for this read (the host
 * runs the tool as MCP runs it), how many values are hidden, and the redaction rules, edited here.
 */
export function AgentView({ api, read }: { api: PanelClient<StateProtocol>; read: Read }) {
  const [view, setView] = useState<{ rules: RedactionRules; result: Record<string, unknown> }>();
  const [error, setError] = useState<string>();
  const { store, query, path } = read;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the read's parts are what changes
  useEffect(() => {
    let live = true;
    api.call('agentView', read).then(
      (answer) => {
        if (!live) return;
        setView(answer);
        setError(undefined);
      },
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [api, store, JSON.stringify(query), path]);

  const save = async (rules: RedactionRules) => {
    await api.call('setRules', rules);
    setView(await api.call('agentView', read));
  };
  if (error) return <div className="banner error">{error}</div>;
  if (!view) return <p className="muted">Loading…</p>;
  const text = JSON.stringify(view.result, null, 2);
  const hidden = text.split(REDACTED).length - 1;
  return (
    <div className="stack" data-testid="state-agent-view">
      <p className="small muted">
        What an AI agent gets from <code>{query !== undefined ? 'state_get { query }' : 'state_get'}</code> for this
        path (and in action payloads and diffs), after the rules below. The window shows everything.{' '}
        <strong data-testid="state-agent-hidden">
          {hidden === 0 ? 'Nothing is hidden.' : `${hidden} value${hidden === 1 ? '' : 's'} hidden.`}
        </strong>
      </p>
      <pre className="st-code" data-testid="state-agent-result">
        {text}
      </pre>
      <section aria-label="Redaction rules" className="st-rules">
        {KINDS.map((k) => (
          <RuleList key={k.kind} {...k} rules={view.rules} onSave={save} />
        ))}
      </section>
    </div>
  );
}

function RuleList({
  kind,
  title,
  placeholder,
  hint,
  rules,
  onSave,
}: (typeof KINDS)[number] & { rules: RedactionRules; onSave(rules: RedactionRules): Promise<void> }) {
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string>();
  const ids = useId();
  const entries = rules[kind];
  const change = async (next: string[]) => {
    setError(undefined);
    try {
      await onSave({ ...rules, [kind]: next });
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    }
  };
  const add = async (e: FormEvent) => {
    e.preventDefault();
    const value = draft.trim();
    if (!value || entries.includes(value)) return;
    if (await change([...entries, value])) setDraft('');
  };
  return (
    <fieldset className="stack" data-testid={`state-redaction-${kind}`}>
      <legend>{title}</legend>
      <p className="small muted" id={`${ids}-hint`}>
        {hint}
      </p>
      {entries.length > 0 && (
        <ul className="plain-list">
          {entries.map((entry) => (
            <li key={entry} className="row">
              <code className="small">{entry}</code>
              <span className="spacer" />
              <button
                type="button"
                className="link small"
                aria-label={`Remove ${entry}`}
                onClick={() => void change(entries.filter((x) => x !== entry))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="row" onSubmit={(e) => void add(e)}>
        <label className="visually-hidden" htmlFor={`${ids}-input`}>
          Add to {title.toLowerCase()}
        </label>
        <input
          id={`${ids}-input`}
          className="mono small"
          value={draft}
          placeholder={placeholder}
          aria-describedby={`${ids}-hint`}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit" disabled={!draft.trim()}>
          Add
        </button>
      </form>
      {error && (
        <p className="small st-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
