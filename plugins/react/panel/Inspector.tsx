import { JsonTree } from '../../../renderer/src/components/JsonTree.js';
import { toDisplay } from '../../../renderer/src/components/serialized-value.js';
import type { InspectResult, RenderSummary } from '../protocol.js';
import { editable, ValueEditor } from './ValueEditor.js';

/** Hooks whose value can be written (React DevTools edits the same). */
const WRITABLE_HOOKS = new Set(['state', 'reducer']);

/** One component as React DevTools' right-hand pane shows it: props, state, hooks, contexts, owners, source. */
export function Inspector({
  item,
  renders,
  onSelect,
  onHighlight,
  onSet,
}: {
  item: InspectResult;
  renders?: RenderSummary;
  onSelect(id: string): void;
  onHighlight(): void;
  /** Writes a prop, a hook's or a class's state (path as react_inspect's `set` takes it). */
  onSet(path: string[], value: unknown): Promise<void>;
}) {
  const props = Object.keys(item.props);
  const writable = Object.entries(item.props).filter(
    (e): e is [string, string | number | boolean | null] => e[0] !== 'children' && e[0] !== '…' && editable(e[1]),
  );
  return (
    <section className="rx-inspector" aria-label={`${item.name} inspected`} data-testid="react-inspector">
      <div className="rx-inspector-bar">
        <h2>
          {item.name}
          {item.key !== undefined && <span className="muted"> key="{item.key}"</span>}
        </h2>
        <span className="muted">
          {item.kind} · #{item.id}
        </span>
        <span className="spacer" />
        <button type="button" onClick={onHighlight} data-testid="react-highlight">
          Highlight in page
        </button>
      </div>
      {item.notes?.map((note) => (
        <div key={note} className="banner warn">
          {note}
        </div>
      ))}
      <div className="rx-sections">
        <Section title="Renders">
          <p data-testid="react-renders">
            {item.renders} render{item.renders === 1 ? '' : 's'} counted
            {renders && Object.keys(renders.why).length > 0 && (
              <>
                {' '}
                · why:{' '}
                {Object.entries(renders.why)
                  .map(([why, n]) => `${why} ×${n}`)
                  .join(', ')}
              </>
            )}
            {renders?.ms !== undefined && <> · {renders.ms} ms self</>}
          </p>
        </Section>
        <Section title="Props">
          {props.length ? (
            <>
              <JsonTree value={toDisplay(item.props)} expandDepth={1} label="Props" />
              {writable.length > 0 && (
                <ul className="rx-edits">
                  {writable.map(([name, v]) => (
                    <li key={name}>
                      <code>{name}</code>{' '}
                      <ValueEditor label={`prop ${name}`} value={v} onSave={(next) => onSet(['props', name], next)} />
                    </li>
                  ))}
                </ul>
              )}
            </>
          ) : (
            <p className="muted">none</p>
          )}
        </Section>
        {item.state !== undefined && (
          <Section title="State">
            <JsonTree value={toDisplay(item.state)} expandDepth={1} label="State" />
          </Section>
        )}
        {item.hooks && (
          <Section title="Hooks">
            <ol className="rx-hooks" start={0} data-testid="react-hooks">
              {item.hooks.map((hook, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a hook is known by its place
                <li key={i}>
                  <span className="rx-hook-kind">{hook.kind}</span>
                  {hook.value !== undefined && (
                    <JsonTree value={toDisplay(hook.value)} expandDepth={0} label={`Hook ${i} ${hook.kind}`} />
                  )}
                  {WRITABLE_HOOKS.has(hook.kind) && editable(hook.value) && (
                    <ValueEditor
                      label={`hook ${i} ${hook.kind}`}
                      value={hook.value}
                      onSave={(next) => onSet(['hooks', String(i)], next)}
                    />
                  )}
                  {hook.deps !== undefined && (
                    <span className="muted rx-deps">deps: {JSON.stringify(toDisplay(hook.deps))?.slice(0, 120)}</span>
                  )}
                </li>
              ))}
            </ol>
          </Section>
        )}
        {item.contexts && (
          <Section title="Contexts">
            {item.contexts.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: contexts are read in order
              <JsonTree key={i} value={{ [c.name]: toDisplay(c.value) }} expandDepth={1} label={`Context ${c.name}`} />
            ))}
          </Section>
        )}
        {item.owners.length > 0 && (
          <Section title="Rendered by">
            <ul className="rx-owners">
              {item.owners.map((o, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: owners are a chain
                <li key={i}>
                  {o.id ? (
                    <button type="button" className="link" onClick={() => onSelect(o.id!)}>
                      {o.name}
                    </button>
                  ) : (
                    o.name
                  )}
                </li>
              ))}
            </ul>
          </Section>
        )}
        {item.source && (
          <Section title="Source">
            <code className="rx-source" data-testid="react-source">
              {item.source}
            </code>
            {item.stack && (
              <ul className="rx-stack">
                {item.stack.map((frame) => (
                  <li key={frame}>
                    <code>{frame}</code>
                  </li>
                ))}
              </ul>
            )}
          </Section>
        )}
        {item.hosts && (
          <Section title="DOM">
            <ul className="rx-hosts">
              {item.hosts.map((h) => (
                <li key={h}>
                  <code>{h}</code>
                </li>
              ))}
            </ul>
          </Section>
        )}
      </div>
    </section>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rx-section" aria-label={title}>
      <h3>{title}</h3>
      {children}
    </section>
  );
}
