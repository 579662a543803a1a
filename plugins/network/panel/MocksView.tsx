import { type InputHTMLAttributes, useState } from 'react';
import type { PanelClient } from '../../../renderer/src/panel-kit.js';
import type { MockConfigView, MockRule, NetworkProtocol } from '../protocol.js';
import {
  type DraftField,
  describeAction,
  describeMatch,
  draftFromRule,
  EMPTY_DRAFT,
  type RuleDraft,
  ruleFromDraft,
} from './mock-form.js';

export interface EditorState {
  /** The rule being edited, or undefined for a new one. */
  id?: string;
  draft: RuleDraft;
}

/** The app's mock rules: on/off, order, hits, sync with the app, and an editor with validation. */
export function MocksView({
  api,
  config,
  active,
  editor,
  setEditor,
  onApplied,
}: {
  api: PanelClient<NetworkProtocol>;
  config?: MockConfigView;
  active: boolean;
  editor?: EditorState;
  setEditor(editor: EditorState | undefined): void;
  /** A change made here reached the app. */
  onApplied(): void;
}) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      onApplied();
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  };

  if (!config) return <p className="pane muted">Loading mock rules…</p>;
  const rules = config.rules;
  const move = (index: number, by: number) => {
    const next = rules.slice();
    const [rule] = next.splice(index, 1);
    next.splice(index + by, 0, rule!);
    return run(() => api.call('setMockRules', { rules: next }));
  };

  return (
    <div className="view stack" data-testid="mocks-view">
      <div className="row">
        <label className="row">
          <input
            type="checkbox"
            checked={config.enabled}
            disabled={busy}
            onChange={(e) => void run(() => api.call('setMockingEnabled', { enabled: e.target.checked }))}
          />
          Mocking enabled
        </label>
        <SyncState config={config} active={active} />
        <span className="spacer" />
        <button type="button" className="primary" disabled={busy} onClick={() => setEditor({ draft: EMPTY_DRAFT })}>
          New rule
        </button>
      </div>
      {error && !editor && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      {editor && (
        <RuleEditor
          key={editor.id ?? 'new'}
          editor={editor}
          busy={busy}
          error={error}
          onCancel={() => setEditor(undefined)}
          onSave={async (rule) => {
            const ok = await run(() =>
              editor.id ? api.call('updateMockRule', { id: editor.id, patch: rule }) : api.call('addMockRule', rule),
            );
            if (ok) setEditor(undefined);
          }}
        />
      )}
      {rules.length === 0 ? (
        <div className="empty" style={{ margin: '20px 0' }}>
          <h2>No mock rules</h2>
          <p className="muted">
            A rule answers the app's matching requests itself (a status, headers and a body, or a network error) without
            reaching the server. Create one here, or pick a request and press "Mock this". Rules are kept per app and
            pushed to it whenever it connects.
          </p>
        </div>
      ) : (
        <ol className="rules" aria-label="Mock rules">
          {rules.map((rule, i) => (
            <li key={rule.id} className={`rule card${rule.enabled ? '' : ' disabled'}`} data-testid="mock-rule">
              <div className="row">
                <input
                  type="checkbox"
                  aria-label={`Enable ${rule.name ?? rule.id}`}
                  checked={rule.enabled}
                  disabled={busy}
                  onChange={(e) =>
                    void run(() => api.call('updateMockRule', { id: rule.id, patch: { enabled: e.target.checked } }))
                  }
                />
                <strong>{rule.name || rule.id}</strong>
                <span className="badge" data-testid="mock-hits" title="Requests this rule answered in this session">
                  {config.hits[rule.id] ?? 0} {config.hits[rule.id] === 1 ? 'hit' : 'hits'}
                </span>
                <span className="spacer" />
                <button type="button" aria-label="Move up" disabled={busy || i === 0} onClick={() => void move(i, -1)}>
                  ↑
                </button>
                <button
                  type="button"
                  aria-label="Move down"
                  disabled={busy || i === rules.length - 1}
                  onClick={() => void move(i, 1)}
                >
                  ↓
                </button>
                <button type="button" onClick={() => setEditor({ id: rule.id, draft: draftFromRule(rule) })}>
                  Edit
                </button>
                <button
                  type="button"
                  className="danger"
                  disabled={busy}
                  onClick={() => void run(() => api.call('removeMockRule', { id: rule.id }))}
                >
                  Delete
                </button>
              </div>
              <RuleSummary rule={rule} />
            </li>
          ))}
        </ol>
      )}
      <p className="muted small">Rules are tried in order; the first enabled rule that matches answers.</p>
    </div>
  );
}

function RuleSummary({ rule }: { rule: MockRule }) {
  return (
    <div className="muted small">
      {describeMatch(rule.match)} → {describeAction(rule.action)}
    </div>
  );
}

function SyncState({ config, active }: { config: MockConfigView; active: boolean }) {
  const { sync } = config;
  if (sync.state === 'failed') {
    return (
      <span className="status-failed" data-testid="mock-sync" title={sync.error}>
        Not applied in the app: {sync.error}
      </span>
    );
  }
  if (sync.state === 'applied' && sync.appliedRevision === config.revision) {
    return (
      <span className="status-ok small" data-testid="mock-sync">
        ✓ Applied in the app (revision {config.revision}
        {sync.load ? `, load ${sync.load}` : ''})
        {sync.missed ? (
          <span className="status-failed">
            {' '}
            · {sync.missed} request{sync.missed === 1 ? '' : 's'} of this load went out before the rules
          </span>
        ) : null}
      </span>
    );
  }
  return (
    <span className="muted small" data-testid="mock-sync">
      {active ? 'Applying…' : 'App not connected: rules are pushed when it connects'}
    </span>
  );
}

/** The draft's free-text fields. */
type TextField = { [K in DraftField]: RuleDraft[K] extends string ? K : never }[DraftField];

function RuleEditor({
  editor,
  busy,
  error,
  onSave,
  onCancel,
}: {
  editor: EditorState;
  busy: boolean;
  /** The last save's failure (the app refused it, a bad regex, …). */
  error?: string;
  onSave(rule: NonNullable<ReturnType<typeof ruleFromDraft>['rule']>): Promise<void>;
  onCancel(): void;
}) {
  const [draft, setDraft] = useState(editor.draft);
  const [errors, setErrors] = useState<Partial<Record<DraftField, string>>>({});
  const set = (patch: Partial<RuleDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const err = (field: DraftField) => errors[field] && <span className="error">{errors[field]}</span>;
  const invalid = (field: DraftField) => (errors[field] ? true : undefined);
  /** A labelled one-line text input bound to a draft field, with its validation error. */
  const textField = (
    field: TextField,
    id: string,
    label: string,
    extra: Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'> = {},
  ) => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        value={draft[field]}
        onChange={(e) => set({ [field]: e.target.value })}
        aria-invalid={invalid(field)}
        {...extra}
      />
      {err(field)}
    </div>
  );

  /** A "Name: value" per line field (headers, trailers). */
  const fieldLines = (field: 'headers' | 'trailers', id: string, label: string, placeholder: string) => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        className="mono"
        rows={2}
        value={draft[field]}
        placeholder={placeholder}
        onChange={(e) => set({ [field]: e.target.value })}
        aria-invalid={invalid(field)}
      />
      {err(field)}
    </div>
  );

  const save = () => {
    const result = ruleFromDraft(draft);
    setErrors(result.errors);
    if (result.rule) void onSave(result.rule);
  };

  return (
    <form
      className="card form"
      aria-label={editor.id ? 'Edit mock rule' : 'New mock rule'}
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
      noValidate
    >
      <h3>{editor.id ? 'Edit rule' : 'New rule'}</h3>
      <div className="grid-2">
        {textField('name', 'rule-name', 'Name')}
        <div className="field">
          <label htmlFor="rule-method">Method</label>
          <select id="rule-method" value={draft.method} onChange={(e) => set({ method: e.target.value })}>
            <option value="">Any</option>
            {['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'].map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </div>
      </div>
      <div className="grid-url">
        <div className="field">
          <label htmlFor="rule-url-kind">URL</label>
          <select
            id="rule-url-kind"
            value={draft.urlKind}
            onChange={(e) => set({ urlKind: e.target.value as RuleDraft['urlKind'] })}
          >
            <option value="contains">contains</option>
            <option value="exact">is exactly</option>
            <option value="glob">matches glob (*, ?)</option>
            <option value="regex">matches regex</option>
          </select>
        </div>
        {textField('urlValue', 'rule-url', 'URL pattern', { className: 'mono', placeholder: '/api/cart' })}
        {draft.urlKind === 'regex' && textField('urlFlags', 'rule-flags', 'Flags', { placeholder: 'i' })}
      </div>
      {textField('graphql', 'rule-graphql', 'GraphQL operation (optional)', {
        className: 'mono',
        placeholder: 'GetCart',
      })}
      <div className="field">
        <span className="label">Answer with</span>
        <div className="row">
          <label className="row">
            <input
              type="radio"
              name="rule-action"
              checked={draft.action === 'respond'}
              onChange={() => set({ action: 'respond' })}
            />
            a response
          </label>
          <label className="row">
            <input
              type="radio"
              name="rule-action"
              checked={draft.action === 'networkError'}
              onChange={() => set({ action: 'networkError' })}
            />
            a network error
          </label>
          <label className="row">
            <input
              type="radio"
              name="rule-action"
              checked={draft.action === 'websocket'}
              onChange={() => set({ action: 'websocket' })}
            />
            WebSocket messages
          </label>
        </div>
      </div>
      {draft.action === 'respond' ? (
        <>
          <div className="grid-2">
            {textField('status', 'rule-status', 'Status', { inputMode: 'numeric' })}
            {textField('statusText', 'rule-status-text', 'Status text')}
          </div>
          {fieldLines('headers', 'rule-headers', 'Headers', 'content-type: application/json')}
          <div className="field">
            <label htmlFor="rule-body-type">Body</label>
            <select
              id="rule-body-type"
              value={draft.bodyType}
              onChange={(e) => set({ bodyType: e.target.value as RuleDraft['bodyType'] })}
            >
              <option value="none">none</option>
              <option value="json">JSON</option>
              <option value="text">text</option>
              <option value="base64">binary (base64)</option>
            </select>
            {draft.bodyType !== 'none' && (
              <textarea
                id="rule-body"
                aria-label="Body content"
                className="mono"
                rows={6}
                value={draft.body}
                spellCheck={false}
                onChange={(e) => set({ body: e.target.value })}
                aria-invalid={invalid('body')}
              />
            )}
            {err('body')}
          </div>
          {fieldLines('trailers', 'rule-trailers', 'Trailers (HTTP/2, after the body)', 'grpc-status: 14')}
          <div className="grid-2">
            {textField('bytesPerSecond', 'rule-pace', 'Throttle body (bytes/s)', { inputMode: 'numeric' })}
            {textField('cutAfter', 'rule-cut', 'Cut the body after (bytes)', { inputMode: 'numeric' })}
          </div>
          {draft.cutAfter.trim() !== '' && (
            <div className="field">
              <label htmlFor="rule-cut-end">Then</label>
              <select
                id="rule-cut-end"
                value={draft.cutEnd}
                onChange={(e) => set({ cutEnd: e.target.value as RuleDraft['cutEnd'] })}
              >
                <option value="stall">stall (the body never ends)</option>
                <option value="reset">reset the connection (ECONNRESET)</option>
              </select>
            </div>
          )}
        </>
      ) : draft.action === 'websocket' ? (
        <>
          <div className="field">
            <label htmlFor="rule-socket-messages">Server messages (one per line; +500 waits 500 ms first)</label>
            <textarea
              id="rule-socket-messages"
              className="mono"
              rows={5}
              value={draft.socketMessages}
              spellCheck={false}
              placeholder={'{"type":"hello"}\n+1000 {"type":"price","value":10}'}
              onChange={(e) => set({ socketMessages: e.target.value })}
              aria-invalid={invalid('socketMessages')}
            />
            {err('socketMessages')}
          </div>
          <div className="grid-2">
            {textField('closeCode', 'rule-close-code', 'Then close with code (empty: stay open)', {
              inputMode: 'numeric',
            })}
            {textField('closeReason', 'rule-close-reason', 'Close reason')}
          </div>
        </>
      ) : (
        <div className="grid-2">
          {textField('errorMessage', 'rule-error', 'Error message', { placeholder: 'mocked network error' })}
          {textField('errorCode', 'rule-error-code', 'Error code', { className: 'mono', placeholder: 'ECONNRESET' })}
        </div>
      )}
      <div className="grid-2">
        {textField('delayMs', 'rule-delay', 'Delay (ms)', { inputMode: 'numeric' })}
        <label className="row" style={{ alignSelf: 'end' }}>
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
          Enabled
        </label>
      </div>
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Applying…' : editor.id ? 'Save rule' : 'Create rule'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
