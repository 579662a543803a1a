import { type ReactNode, useId, useState } from 'react';
import type { ReplayRequest, Transaction } from '../protocol.js';
import { draftFromTransaction, keptBodyNote, type ReplayField, requestFromDraft } from './replay-form.js';

/** "Edit and resend": the captured request, editable, sent again from the app. */
export function ReplayForm({
  tx,
  onSend,
  onCancel,
}: {
  tx: Transaction;
  /** Sends the replay; a rejection is shown in the form. */
  onSend(request: ReplayRequest): Promise<void>;
  onCancel(): void;
}) {
  const [draft, setDraft] = useState(() => draftFromTransaction(tx));
  const [errors, setErrors] = useState<Partial<Record<ReplayField, string>>>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const ids = useId();
  const bodyNote = keptBodyNote(tx);
  const redacted = tx.request.headers.some((h) => h.value === '[redacted]');

  const send = async () => {
    const { request, errors: found } = requestFromDraft(tx, draft);
    setErrors(found);
    setFailure(undefined);
    if (!request) return;
    setBusy(true);
    try {
      await onSend(request);
    } catch (e) {
      setFailure((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const field = (name: ReplayField, label: string, control: (id: string, invalid?: true) => ReactNode) => {
    const id = `${ids}-${name}`;
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        {control(id, errors[name] ? true : undefined)}
        {errors[name] && (
          <span className="error" id={`${id}-error`}>
            {errors[name]}
          </span>
        )}
      </div>
    );
  };
  const described = (name: ReplayField) => (errors[name] ? `${ids}-${name}-error` : undefined);

  return (
    <form
      className="form replay-form"
      aria-label="Edit and resend"
      data-testid="replay-form"
      noValidate
      onKeyDown={(e) => {
        // Escape leaves the form, not the detail.
        if (e.key !== 'Escape' || e.defaultPrevented) return;
        e.preventDefault();
        e.stopPropagation();
        onCancel();
      }}
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <h3>Edit and resend</h3>
      <p className="muted small">
        The app sends it again with its own fetch (its cookies, origin and network stack); the new request shows up as a
        new row. Only what you change is edited.
      </p>
      <div className="replay-line">
        {field('method', 'Method', (id, invalid) => (
          <input
            id={id}
            type="text"
            className="mono"
            list={`${ids}-methods`}
            value={draft.method}
            aria-invalid={invalid}
            aria-describedby={described('method')}
            onChange={(e) => setDraft({ ...draft, method: e.target.value })}
          />
        ))}
        {field('url', 'URL', (id, invalid) => (
          <input
            id={id}
            type="text"
            className="mono"
            value={draft.url}
            spellCheck={false}
            aria-invalid={invalid}
            aria-describedby={described('url')}
            onChange={(e) => setDraft({ ...draft, url: e.target.value })}
          />
        ))}
      </div>
      <datalist id={`${ids}-methods`}>
        {['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'].map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      {field('headers', 'Headers (one "Name: value" per line)', (id, invalid) => (
        <textarea
          id={id}
          className="mono"
          rows={Math.min(10, Math.max(3, tx.request.headers.length + 1))}
          value={draft.headers}
          spellCheck={false}
          aria-invalid={invalid}
          aria-describedby={described('headers') ?? (redacted ? `${ids}-redacted` : undefined)}
          onChange={(e) => setDraft({ ...draft, headers: e.target.value })}
        />
      ))}
      {redacted && (
        <p className="muted small" id={`${ids}-redacted`}>
          A header left at [redacted] is not sent (the app hid its value); type a value to send one.
        </p>
      )}
      {field('body', 'Body', (id, invalid) => (
        <textarea
          id={id}
          className="mono"
          rows={6}
          value={draft.body}
          spellCheck={false}
          placeholder={bodyNote ? 'Type a body to send instead' : 'No body'}
          aria-invalid={invalid}
          aria-describedby={described('body') ?? (bodyNote ? `${ids}-body-note` : undefined)}
          onChange={(e) => setDraft({ ...draft, body: e.target.value })}
        />
      ))}
      {bodyNote && (
        <p className="muted small" id={`${ids}-body-note`}>
          {bodyNote}
        </p>
      )}
      {failure && (
        <div className="banner error" role="alert">
          {failure}
        </div>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Sending…' : 'Send'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
