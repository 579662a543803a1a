import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { JsonTree } from '../../../renderer/src/components/JsonTree.js';
import { toDisplay } from '../../../renderer/src/components/serialized-value.js';
import { type PanelClient, usePluginEvents } from '../../../renderer/src/panel-kit.js';
import { formatClock } from '../../../renderer/src/time.js';
import { type ActionView, type ChangeMode, type StateProtocol, type StoreView, stateProtocol } from '../protocol.js';
import { AgentView } from './AgentView.js';
import { changeText } from './model.js';
import { StateTree } from './StateTree.js';

const KEPT = 2000;
type Api = PanelClient<StateProtocol>;

/** One store: its action timeline, the selected action's changes, its state, and dispatch / jump. */
export function StoreDetail({
  api,
  sessionId,
  store,
  connected,
  reveal,
}: {
  api: Api;
  sessionId: string;
  store: StoreView;
  connected: boolean;
  /** An action to select and focus (opened from the session's timeline); `n` changes per request. */
  reveal?: { seq: number; n: number };
}) {
  const [actions, setActions] = useState<ActionView[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [selected, setSelected] = useState<number>();
  const [filter, setFilter] = useState('');
  const [tab, setTab] = useState<'state' | 'agent'>('state');
  const [path, setPath] = useState('');
  const [message, setMessage] = useState<{ error?: boolean; text: string }>();
  const live = connected && store.active;

  useEffect(() => {
    api.call('actions', { store: store.id, limit: KEPT }).then(
      (answer) => {
        setActions(answer.actions);
        setLoaded(true);
      },
      (e: Error) => {
        setMessage({ error: true, text: e.message });
        setLoaded(true);
      },
    );
  }, [api, store.id]);
  usePluginEvents(stateProtocol, sessionId, (events) => {
    const added = events.flatMap((e) =>
      e.event === 'actions' ? e.data.actions.filter((a) => a.store === store.id) : [],
    );
    if (added.length) setActions((list) => [...list, ...added].slice(-KEPT));
  });

  const needle = filter.toLowerCase();
  const shown = useMemo(
    () => (needle ? actions.filter((a) => a.type.toLowerCase().includes(needle)) : actions),
    [actions, needle],
  );
  const action = actions.find((a) => a.seq === selected) ?? shown.at(-1);

  // The action asked for is selected once the list is here (the filter cleared if it hid it).
  const shownReveal = useRef<number>(undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per request, when the actions are loaded
  useEffect(() => {
    if (!reveal || !loaded || shownReveal.current === reveal.n) return;
    shownReveal.current = reveal.n;
    const found = actions.find((a) => a.seq === reveal.seq);
    if (!found) {
      setMessage({ text: `Action #${reveal.seq} is no longer kept (the oldest are dropped first).` });
      return;
    }
    if (needle && !found.type.toLowerCase().includes(needle)) setFilter('');
    setSelected(found.seq);
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`.st-actions [data-seq="${found.seq}"]`)?.focus());
  }, [reveal, loaded]);

  const change = async (mode: ChangeMode, value: unknown) => {
    setMessage(undefined);
    try {
      const result = await api.call('change', { store: store.id, mode, value });
      setMessage({ text: result.note ?? `${mode === 'jump' ? 'Jumped' : mode === 'set' ? 'Set' : 'Dispatched'}.` });
    } catch (e) {
      setMessage({ error: true, text: (e as Error).message });
    }
  };

  return (
    <div className="st-detail">
      <section className="st-timeline" aria-label={`Actions of ${store.name}`}>
        <div className="filters">
          <input
            type="search"
            aria-label="Filter actions by type"
            placeholder="Filter by type"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
          <span className="small muted">
            {shown.length.toLocaleString()} of {store.actions.toLocaleString()}
            {store.dropped ? ` · ${store.dropped.toLocaleString()} dropped` : ''}
          </span>
        </div>
        <Timeline actions={shown} selected={action?.seq} onSelect={setSelected} />
        {store.note && <p className="small muted st-note">{store.note}</p>}
      </section>
      <section className="st-side" aria-label="Action and state">
        {action && (
          <ActionDetail
            action={action}
            canJump={live && store.can.jump}
            onJump={() => void change('jump', action.seq)}
            onPath={(p) => {
              setPath(p);
              setTab('state');
            }}
          />
        )}
        <div className="tabs" role="tablist" aria-label="State views">
          {(['state', 'agent'] as const).map((t) => (
            <button key={t} type="button" role="tab" aria-selected={tab === t} onClick={() => setTab(t)}>
              {t === 'state' ? 'State' : 'Agent view'}
            </button>
          ))}
        </div>
        <div role="tabpanel" className="st-tabpanel">
          {!live && <p className="small muted">The app does not have this store now: its state cannot be read.</p>}
          {live && tab === 'state' && (
            <StateTree api={api} store={store} path={path} onPath={setPath} version={actions.at(-1)?.seq ?? -1} />
          )}
          {live && tab === 'agent' && (
            <AgentView api={api} read={{ store: store.id, path, offset: 0, maxBytes: 20_000 }} />
          )}
        </div>
        {live && (store.can.dispatch || store.can.set) && <DispatchForm store={store} onSubmit={change} />}
        {message && (
          <p className={`small ${message.error ? 'st-error' : 'muted'}`} role={message.error ? 'alert' : 'status'}>
            {message.text}
          </p>
        )}
      </section>
    </div>
  );
}

/** The timeline as a listbox: Tab reaches it once, arrows move the selection. */
function Timeline({
  actions,
  selected,
  onSelect,
}: {
  actions: ActionView[];
  selected?: number;
  onSelect(seq: number): void;
}) {
  const list = useRef<HTMLDivElement>(null);
  const index = Math.max(
    0,
    actions.findIndex((a) => a.seq === selected),
  );
  const move = (e: KeyboardEvent) => {
    const to =
      e.key === 'ArrowDown'
        ? index + 1
        : e.key === 'ArrowUp'
          ? index - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? actions.length - 1
              : undefined;
    if (to === undefined || !actions[to]) return;
    e.preventDefault();
    onSelect(actions[to]!.seq);
    list.current?.querySelector<HTMLElement>(`[data-seq="${actions[to]!.seq}"]`)?.focus();
  };
  if (actions.length === 0) return <p className="muted st-pad">No actions yet.</p>;
  return (
    <div ref={list} className="st-actions" role="listbox" aria-label="Actions" onKeyDown={move} tabIndex={-1}>
      {actions.map((a, i) => (
        <div
          key={a.seq}
          role="option"
          aria-selected={i === index}
          tabIndex={i === index ? 0 : -1}
          data-seq={a.seq}
          data-testid="state-action"
          className={`st-action kind-${a.kind}`}
          onClick={() => onSelect(a.seq)}
          onKeyDown={(e) => e.key === 'Enter' && onSelect(a.seq)}
        >
          <span className="muted">#{a.seq}</span>
          <span className="st-type">{a.type}</span>
          <span className="small muted">
            {a.error
              ? 'threw'
              : `${a.diff.length + (a.more ?? 0)} change${a.diff.length + (a.more ?? 0) === 1 ? '' : 's'}`}
          </span>
        </div>
      ))}
    </div>
  );
}

function ActionDetail({
  action,
  canJump,
  onJump,
  onPath,
}: {
  action: ActionView;
  canJump: boolean;
  onJump(): void;
  onPath(path: string): void;
}) {
  return (
    <div className="st-action-detail stack" data-testid="state-action-detail">
      <div className="row">
        <strong className="mono">
          #{action.seq} {action.type}
        </strong>
        <span className="small muted">{formatClock(action.time)}</span>
        <span className="spacer" />
        {canJump && (
          <button type="button" onClick={onJump}>
            Jump to this state
          </button>
        )}
      </div>
      {action.error && (
        <div className="banner error" role="note">
          {action.error}
        </div>
      )}
      {action.diff.length === 0 ? (
        <p className="small muted">
          {action.kind === 'init' && action.seq === 0 ? 'The first state.' : 'Nothing changed.'}
        </p>
      ) : (
        <table className="table st-diff">
          <caption className="visually-hidden">What changed</caption>
          <thead>
            <tr>
              <th scope="col">Path</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {action.diff.map((c) => (
              <tr key={c.path}>
                <td>
                  <button type="button" className="link mono small" onClick={() => onPath(c.path)}>
                    {c.path || '(root)'}
                  </button>
                </td>
                <td className="mono small st-before">{changeText(c.before, 'before' in c)}</td>
                <td className="mono small st-after">{changeText(c.after, 'after' in c)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(action.more || action.cut) && (
        <p className="small muted">
          {action.more ? `${action.more} more changes not listed. ` : ''}
          {action.cut ? 'The comparison stopped early: a listed path may hold more changes.' : ''}
        </p>
      )}
      {action.action !== undefined && (
        <details>
          <summary className="small">The action</summary>
          <JsonTree value={toDisplay(action.action)} label="The action" expandDepth={2} />
        </details>
      )}
    </div>
  );
}

function DispatchForm({
  store,
  onSubmit,
}: {
  store: StoreView;
  onSubmit(mode: ChangeMode, value: unknown): Promise<void>;
}) {
  const modes = (['dispatch', 'set'] as const).filter((m) => store.can[m]);
  const [mode, setMode] = useState<ChangeMode>(modes[0]!);
  const [text, setText] = useState(mode === 'set' ? '{}' : '{ "type": "" }');
  const [error, setError] = useState<string>();
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      setError(`Not JSON: ${(err as Error).message}`);
      return;
    }
    setError(undefined);
    await onSubmit(mode, value);
  };
  return (
    <form className="st-dispatch stack" onSubmit={(e) => void submit(e)} aria-label="Dispatch to the store">
      <div className="row">
        <label htmlFor="st-mode" className="small">
          Change
        </label>
        <select id="st-mode" value={mode} onChange={(e) => setMode(e.target.value as ChangeMode)}>
          {modes.map((m) => (
            <option key={m} value={m}>
              {m === 'dispatch' ? 'Dispatch an action' : 'Set top-level keys'}
            </option>
          ))}
        </select>
        <span className="spacer" />
        <button type="submit" className="primary">
          {mode === 'dispatch' ? 'Dispatch' : 'Set'}
        </button>
      </div>
      <label htmlFor="st-json" className="visually-hidden">
        {mode === 'dispatch' ? 'The action, as JSON' : 'The keys to set, as JSON'}
      </label>
      <textarea
        id="st-json"
        className="mono small"
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={error ? true : undefined}
      />
      {store.creators && <p className="small muted">Action creators: {store.creators.join(', ')}</p>}
      {error && (
        <p className="small st-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
