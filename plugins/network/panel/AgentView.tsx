import { type FormEvent, useEffect, useId, useState } from 'react';
import type { PanelClient } from '../../../renderer/src/panel-kit.js';
import {
  type AgentView as AgentViewAnswer,
  type NetworkProtocol,
  REDACTED,
  type RedactionKind,
  type RedactionRules,
  type Transaction,
} from '../protocol.js';

const KINDS: { kind: RedactionKind; title: string; placeholder: string; hint: string }[] = [
  { kind: 'headers', title: 'Headers', placeholder: 'x-session-id', hint: 'Header names, any case.' },
  { kind: 'query', title: 'Query parameters', placeholder: 'sig', hint: 'Parameter names in URLs and form bodies.' },
  {
    kind: 'bodyFields',
    title: 'JSON body fields',
    placeholder: 'user.ssn',
    hint: 'A key at any depth (password) or a dotted path from the root (user.ssn).',
  },
  {
    kind: 'patterns',
    title: 'Token patterns',
    placeholder: 'sk-[A-Za-z0-9]+',
    hint: 'RE2 regular expressions, (?i) for any case; matches are hidden in URLs, header values and text bodies.',
  },
];

/**
 * The "Agent view" tab: the request as the window has it beside what network_get_transaction gives
 * an MCP client (the host runs the tool itself), and the app's redaction rules, edited here.
 */
export function AgentView({ api, tx }: { api: PanelClient<NetworkProtocol>; tx: Transaction }) {
  const [view, setView] = useState<AgentViewAnswer>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let live = true;
    api
      .call('agentView', { id: tx.id })
      .then((answer) => {
        if (!live) return;
        setView(answer);
        setError(undefined);
      })
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [api, tx]);

  const save = async (rules: RedactionRules) => {
    await api.call('setRedactionRules', rules);
    setView(await api.call('agentView', { id: tx.id }));
  };

  if (error) return <div className="banner error">{error}</div>;
  if (!view) return <p className="muted">Loading…</p>;
  const agentText = JSON.stringify(view.result, null, 2);
  const personText = JSON.stringify(tx, null, 2);
  const hidden = Math.max(0, count(agentText, REDACTED) - count(personText, REDACTED));
  return (
    <div className="stack agent-view">
      <p className="small muted">
        What an AI agent gets from <code>network_get_transaction</code> (and the list, HAR export and replay tools, and
        HAR files you save), after the redaction rules below. The window always shows everything.{' '}
        <strong data-testid="agent-view-hidden">
          {hidden === 0 ? 'Nothing is hidden.' : `${hidden} value${hidden === 1 ? '' : 's'} hidden.`}
        </strong>
      </p>
      <div className="agent-view-columns">
        <section aria-label="What you see" className="stack">
          <h3>What you see</h3>
          <pre className="code-block" data-testid="agent-view-person">
            {personText}
          </pre>
        </section>
        <section aria-label="What the agent receives" className="stack">
          <h3>What the agent receives</h3>
          <pre className="code-block" data-testid="agent-view-agent">
            {agentText}
          </pre>
        </section>
      </div>
      <RulesEditor rules={view.rules} onSave={save} />
    </div>
  );
}

function RulesEditor({ rules, onSave }: { rules: RedactionRules; onSave(rules: RedactionRules): Promise<void> }) {
  return (
    <section aria-label="Redaction rules" className="stack">
      <h3>Redaction rules for this app</h3>
      <div className="agent-view-rules">
        {KINDS.map((k) => (
          <RuleList key={k.kind} {...k} rules={rules} onSave={onSave} />
        ))}
      </div>
    </section>
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
  const [busy, setBusy] = useState(false);
  const ids = useId();
  const entries = rules[kind];

  const change = async (next: string[]) => {
    setBusy(true);
    setError(undefined);
    try {
      await onSave({ ...rules, [kind]: next });
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const add = async (e: FormEvent) => {
    e.preventDefault();
    const value = draft.trim();
    if (!value) return;
    if (entries.includes(value)) {
      setError(`"${value}" is already in the list.`);
      return;
    }
    if (await change([...entries, value])) setDraft('');
  };

  return (
    <fieldset className="stack agent-view-kind" data-testid={`redaction-${kind}`}>
      <legend>{title}</legend>
      <p className="small muted" id={`${ids}-hint`}>
        {hint}
      </p>
      {entries.length === 0 ? (
        <p className="small muted">None.</p>
      ) : (
        <ul className="agent-view-entries">
          {entries.map((entry) => (
            <li key={entry} className="row">
              <code className="small">{entry}</code>
              <span className="spacer" />
              <button
                type="button"
                className="link small"
                aria-label={`Remove ${title.toLowerCase()} rule ${entry}`}
                disabled={busy}
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
          aria-describedby={`${ids}-hint${error ? ` ${ids}-error` : ''}`}
          aria-invalid={error ? true : undefined}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit" disabled={busy || !draft.trim()}>
          Add
        </button>
      </form>
      {error && (
        <p className="small error-text" role="alert" id={`${ids}-error`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

function count(text: string, what: string): number {
  return text.split(what).length - 1;
}
