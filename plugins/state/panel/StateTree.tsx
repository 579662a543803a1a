import { useEffect, useId, useMemo, useState } from 'react';
import { JsonTree } from '../../../renderer/src/components/JsonTree.js';
import { toDisplay } from '../../../renderer/src/components/serialized-value.js';
import type { PanelClient } from '../../../renderer/src/panel-kit.js';
import type { ReadResult, StateProtocol, StoreView } from '../protocol.js';
import { search } from './model.js';

/** How much of a state the window reads at once (the app serializes it within this). */
const WINDOW_BYTES = 2_000_000;

/**
 * A store's state (or the part at `path`) as a tree, read again when the store changes (at most
 * twice a second), with a search over its paths and values.
 */
export function StateTree({
  api,
  store,
  path,
  onPath,
  version,
}: {
  api: PanelClient<StateProtocol>;
  store: StoreView;
  path: string;
  onPath(path: string): void;
  /** The newest action's seq: a new one reads the state again. */
  version: number;
}) {
  const [read, setRead] = useState<ReadResult>();
  const [error, setError] = useState<string>();
  const [needle, setNeedle] = useState('');
  const [draft, setDraft] = useState(path);
  const ids = useId();

  useEffect(() => setDraft(path), [path]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the trigger to read again
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      api.call('read', { store: store.id, path, offset: 0, maxBytes: WINDOW_BYTES }).then(
        (answer) => {
          if (!live) return;
          setRead(answer);
          setError(undefined);
        },
        (e: Error) => live && setError(e.message),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, store.id, path, version]);

  const matches = useMemo(() => (read && needle ? search(read.value, needle, read.path) : []), [read, needle]);
  const display = useMemo(() => (read ? toDisplay(read.value) : undefined), [read]);

  return (
    <div className="stack st-tree" data-testid="state-tree">
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          onPath(draft.trim());
        }}
      >
        <label htmlFor={`${ids}-path`} className="small">
          Path
        </label>
        <input
          id={`${ids}-path`}
          className="mono small st-path"
          placeholder="(root) e.g. todos[0].title"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit">Go</button>
        {path && (
          <button type="button" onClick={() => onPath('')}>
            Root
          </button>
        )}
      </form>
      <input
        type="search"
        aria-label="Search the state (paths and values)"
        placeholder="Search paths and values"
        value={needle}
        onChange={(e) => setNeedle(e.target.value)}
      />
      {error && (
        <p className="small st-error" role="alert">
          {error}
        </p>
      )}
      {needle ? (
        <ul className="plain-list st-matches" aria-label="Matches">
          {matches.length === 0 && <li className="small muted">Nothing matches.</li>}
          {matches.map((m) => (
            <li key={m.path}>
              <button type="button" className="link mono small" onClick={() => onPath(m.path)}>
                {m.path || '(root)'}
              </button>{' '}
              <span className="mono small muted">{m.text}</span>
            </li>
          ))}
        </ul>
      ) : (
        read && (
          <>
            <p className="small muted">
              {read.path || 'The whole state'}
              {read.size !== undefined
                ? ` · ${read.size} ${(read.value as { $?: string } | null)?.$ === 'object' ? 'keys' : 'items'}`
                : ''}
              {store.size !== undefined ? ` · state ≈ ${bytes(store.size)}${store.sizeAtLeast ? ' or more' : ''}` : ''}
            </p>
            <JsonTree value={display} label={`State of ${store.name}`} expandDepth={3} />
          </>
        )
      )}
    </div>
  );
}

function bytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}
