import { useEffect, useRef, useState } from 'react';
import type { AskAnswer, PermissionAsk } from '../../../shared/permissions.js';
import { useBridge } from '../bridge/context.js';
import { inertText } from '../inert-text.js';
import { callTarget, sessionDistinctions, sessionName } from '../session-names.js';
import { usePermissions } from '../stores/permissions.js';
import { useSessions } from '../stores/sessions.js';
import { JsonTree } from './JsonTree.js';

/**
 * The question "may this agent run this tool?" as a modal dialog, oldest question first: the
 * tool, the client, the app and device it acts on, what it will change and the arguments; Allow
 * once / Allow for this session / Deny. Escape denies. For a destructive tool Deny is the default
 * button (it has the focus, so Enter denies); otherwise the dialog itself has the focus, so a key
 * pressed while typing elsewhere answers nothing. The agent's call waits until the answer (or the
 * timeout, a denial); then the focus goes back where it was.
 */
export function AskDialog() {
  const ask = usePermissions((s) => s.asks[0]);
  const waiting = usePermissions((s) => s.asks.length);
  if (!ask) return null;
  return <Ask key={ask.id} ask={ask} waiting={waiting} />;
}

function Ask({ ask, waiting }: { ask: PermissionAsk; waiting: number }) {
  const { client } = useBridge();
  const settled = usePermissions((s) => s.settled);
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const deny = useRef<HTMLButtonElement>(null);
  const left = useSecondsLeft(ask.expiresAt);
  const sessions = useSessions((s) => s.sessions);
  const target = callTarget(sessions, ask.plugin, ask.args);

  // biome-ignore lint/correctness/useExhaustiveDependencies: opened once per question
  useEffect(() => {
    const d = dialog.current;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    if (d && !d.open) d.showModal();
    if (ask.destructive) deny.current?.focus();
    else d?.focus();
    return () => {
      d?.close();
      // The dialog is gone (answered, timed out, answered elsewhere): the focus goes back where it was.
      const back = before?.isConnected && before !== document.body ? before : document.querySelector('main');
      (back as HTMLElement | null)?.focus({ preventScroll: true });
    };
  }, []);

  const answer = async (value: AskAnswer) => {
    setBusy(true);
    try {
      await client.request('permissions.answer', { askId: ask.id, answer: value });
      settled(ask.id);
    } catch (e) {
      // Already settled elsewhere (timed out, another window): the settled event closes it.
      setError((e as Error).message);
      setBusy(false);
    }
  };

  const who = ask.client ? inertText(`${ask.client.name} ${ask.client.version}`) : 'An MCP client';
  return (
    <dialog
      ref={dialog}
      className="ask-dialog"
      aria-labelledby="ask-title"
      aria-describedby="ask-change"
      data-testid="ask-dialog"
      tabIndex={-1}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) void answer('deny');
      }}
    >
      <h2 id="ask-title">
        {who} wants to run <span className="mono">{ask.tool}</span>
      </h2>
      <p id="ask-change" className={ask.destructive ? 'ask-change destructive' : 'ask-change'}>
        {ask.change}
      </p>
      <dl className="kv">
        <dt>Tool</dt>
        <dd>
          {ask.title} <span className="muted small">({ask.plugin ?? 'inspector'})</span>
        </dd>
        <dt>Client</dt>
        <dd>
          {who} <span className="muted small">over {ask.surface === 'mcp-stdio' ? 'stdio' : 'HTTP'}</span>
        </dd>
        {target.kind !== 'inspector' && (
          <>
            <dt>App</dt>
            <dd data-testid="ask-app">
              {target.kind === 'session' ? (
                <>
                  {sessionName(target.session, sessionDistinctions(Object.values(sessions)).get(target.session.id))}
                  {!target.session.active && <span className="muted small"> (disconnected)</span>}
                </>
              ) : (
                <span className="muted">{target.text}</span>
              )}
            </dd>
          </>
        )}
      </dl>
      <h3>Arguments</h3>
      <div className="card ask-args">
        <JsonTree value={ask.args} expandDepth={4} label="Arguments" />
      </div>
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      <p className="muted small" aria-live="off">
        {left > 0 ? `No answer in ${left} s denies it.` : 'Time is up: denied.'}
        {waiting > 1 ? ` ${waiting - 1} more question${waiting > 2 ? 's' : ''} waiting.` : ''}
      </p>
      <div className="row wrap ask-buttons">
        <button
          type="button"
          className={ask.destructive ? undefined : 'primary'}
          disabled={busy}
          onClick={() => void answer('allow-once')}
        >
          Allow once
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={() => void answer('allow-session')}
          title={`Allow ${ask.tool} for ${ask.client?.name ?? 'this client'} until the inspector stops`}
        >
          Allow for this session
        </button>
        <span className="spacer" />
        <button
          ref={deny}
          type="button"
          className={ask.destructive ? 'primary' : 'danger'}
          disabled={busy}
          data-default={ask.destructive || undefined}
          onClick={() => void answer('deny')}
        >
          Deny
        </button>
      </div>
    </dialog>
  );
}

function useSecondsLeft(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, Math.ceil((until - now) / 1000));
}
