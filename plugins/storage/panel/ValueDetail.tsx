import { useEffect, useId, useState } from 'react';
import { JsonTree } from '../../../renderer/src/components/JsonTree.js';
import { toDisplay } from '../../../renderer/src/components/serialized-value.js';
import type { PanelClient } from '../../../renderer/src/panel-kit.js';
import type { StorageProtocol, ValueView } from '../protocol.js';
import { editableText, formatSize, hasTaggedParts } from './model.js';

type Tab = 'value' | 'agent';

/**
 * One key's value: a JSON tree (or the text), what else the app knows of it, what an AI agent gets
 * (Agent view), and edit and delete for the person at the window.
 */
export function ValueDetail({
  api,
  area,
  itemKey,
  version,
  readOnly,
  onRemoved,
  onClose,
}: {
  api: PanelClient<StorageProtocol>;
  area: string;
  itemKey: string;
  /** Changes when the app wrote this key: the value is read again. */
  version: number;
  readOnly: boolean;
  onRemoved(): void;
  onClose(): void;
}) {
  const [view, setView] = useState<ValueView>();
  const [agent, setAgent] = useState<Record<string, unknown>>();
  const [tab, setTab] = useState<Tab>('value');
  const [error, setError] = useState<string>();
  const [editing, setEditing] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const editorId = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: version means the app changed the value
  useEffect(() => {
    let live = true;
    setError(undefined);
    api.call('get', { area, key: itemKey }).then(
      (v) => live && setView(v),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [api, area, itemKey, version]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: version means the app changed the value
  useEffect(() => {
    if (tab !== 'agent') return;
    let live = true;
    api.call('agentView', { area, key: itemKey }).then(
      (v) => live && setAgent(v.answer),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [api, area, itemKey, tab, version]);

  const save = async () => {
    if (editing === undefined) return;
    setBusy(true);
    setError(undefined);
    try {
      const change = await api.call('set', { area, key: itemKey, value: editing });
      setEditing(undefined);
      setView((await api.call('get', { area, key: change.after.key })) ?? undefined);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await api.call('remove', { area, key: itemKey });
      onRemoved();
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };

  const tagged = view?.type === 'value' && hasTaggedParts(view.value);
  const hidden = typeof agent?.note === 'string' && /hidden from AI agents/.test(agent.note) ? agent.note : undefined;
  return (
    <section className="st-detail" aria-label={`Value of ${itemKey}`} data-testid="storage-detail">
      <div className="st-detail-head">
        <h3 className="st-detail-key mono" title={itemKey}>
          {itemKey}
        </h3>
        {view?.size !== undefined && <span className="muted">{formatSize(view.size)}</span>}
        <span className="spacer" />
        {!readOnly && editing === undefined && view?.found && (
          <button type="button" onClick={() => setEditing(editableText(view))} data-testid="storage-edit">
            Edit
          </button>
        )}
        {!readOnly &&
          view?.found &&
          (confirming ? (
            <>
              <button
                type="button"
                className="danger"
                disabled={busy}
                onClick={() => void remove()}
                data-testid="storage-delete-confirm"
              >
                Delete {itemKey.length > 30 ? 'it' : `“${itemKey}”`}
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </>
          ) : (
            <button type="button" onClick={() => setConfirming(true)} data-testid="storage-delete">
              Delete
            </button>
          ))}
        <button type="button" aria-label="Close the value" onClick={onClose}>
          ✕
        </button>
      </div>
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      {editing !== undefined ? (
        <div className="st-editor stack">
          <label htmlFor={editorId}>
            New value{' '}
            <span className="muted small">
              {area.startsWith('indexedDB/') ? '(JSON, stored parsed)' : '(written as this text)'}
            </span>
          </label>
          {tagged && (
            <div className="banner warn">
              This record holds dates, binary data or other values JSON cannot write back as they were: saving writes
              them as the plain JSON below.
            </div>
          )}
          <textarea
            id={editorId}
            className="mono"
            rows={10}
            value={editing}
            onChange={(e) => setEditing(e.target.value)}
            data-testid="storage-editor"
          />
          <div className="row">
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() => void save()}
              data-testid="storage-save"
            >
              Save
            </button>
            <button type="button" onClick={() => setEditing(undefined)}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <>
          <div className="tabs" role="tablist" aria-label="Value views">
            {(['value', 'agent'] as const).map((t) => (
              <button
                key={t}
                type="button"
                role="tab"
                aria-selected={tab === t}
                onClick={() => setTab(t)}
                data-testid={`storage-tab-${t}`}
              >
                {t === 'value' ? 'Value' : 'Agent view'}
              </button>
            ))}
          </div>
          <div className="st-detail-body" role="tabpanel" aria-label={tab === 'value' ? 'Value' : 'Agent view'}>
            {tab === 'value' ? (
              <ValueBody view={view} />
            ) : (
              <div className="stack">
                <p className="small muted">
                  What an AI agent gets from <code>storage_get</code>: secret-looking keys, fields and tokens are
                  replaced by <code>[redacted]</code>. The window shows everything.{' '}
                  <strong data-testid="storage-agent-hidden">{hidden ?? 'Nothing is hidden.'}</strong>
                </p>
                {agent ? <JsonTree value={agent} label="What the agent receives" /> : <p className="muted">Loading…</p>}
              </div>
            )}
          </div>
        </>
      )}
    </section>
  );
}

function ValueBody({ view }: { view: ValueView | undefined }) {
  if (!view) return <p className="muted">Loading…</p>;
  if (!view.found) return <p className="muted">This key is gone: the app removed it.</p>;
  return (
    <div className="stack" data-testid="storage-value">
      {view.note && <p className="small muted">{view.note}</p>}
      {view.text !== undefined ? (
        <pre className="st-text mono">
          {view.text}
          {view.length !== undefined && view.length > (view.offset ?? 0) + view.text.length && (
            <span className="muted">
              {'\n'}… {(view.length - view.text.length).toLocaleString()} more characters (storage_get with file: true
              writes it whole)
            </span>
          )}
        </pre>
      ) : (
        <JsonTree value={toDisplay(view.value)} label="Value" expandDepth={3} />
      )}
      {view.meta && (
        <details open>
          <summary>{view.meta.status !== undefined ? 'Response' : 'Attributes'}</summary>
          <JsonTree value={view.meta} label="Attributes" />
        </details>
      )}
    </div>
  );
}
